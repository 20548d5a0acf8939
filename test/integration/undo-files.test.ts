// Auto-edit's undo promise for files, end to end (gate, checkpoint, jail, restore): every byte of the
// workspace is back after the restore, or the jail kept the file unchanged because the checkpoint could
// not hold it, and said why. The repository's history: undo-git.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolName } from '../../main/policy/tools';
import { runTool } from '../support/core';
import { UNHELD, undoBench, type Case, type UndoBench } from './undo-workspace';

// Each case spawns some thirty processes (git, bwrap); on a loaded 2-core runner that can take a while.
const CASE_MS = 60_000;
let bench: UndoBench;
beforeAll(async () => {
  bench = await undoBench();
}, 60_000);
afterAll(async () => {
  await bench?.close();
});

// held: in the checkpoint. copied: a move out of a read-only folder (or a folder kept in place) crosses
// a mount, so mv copies the file and then fails to remove it: a copy appears, nothing is lost.
const KINDS = [
  { kind: 'tracked', path: 'src/b.ts', held: true, copied: false },
  { kind: 'untracked', path: 'notes.txt', held: true, copied: false },
  { kind: 'ignored (in an ignored folder)', path: 'data/results.csv', held: false, copied: true },
  { kind: 'ignored (beside a tracked file)', path: 'logs/run.log', held: false, copied: true },
  { kind: 'oversized', path: 'big.bin', held: false, copied: false },
  { kind: 'oversized, tracked by the user', path: 'assets/huge.psd', held: false, copied: true },
];
const FILE_CASES: Case[] = KINDS.flatMap(({ kind, path, held, copied }) => [
  { name: `delete of a ${kind} file`, command: `rm -f ${path}`, unprompted: true, changed: held },
  { name: `truncation of a ${kind} file`, command: `truncate -s 0 ${path}`, unprompted: true, changed: held },
  { name: `overwrite of a ${kind} file`, command: `echo gone > ${path}`, unprompted: true, changed: held },
  // A copy over the size cap is a file the checkpoint never knew of: the restore leaves it.
  { name: `move of a ${kind} file`, command: `mv ${path} moved.out`, unprompted: true, changed: held || copied, leftover: path === 'assets/huge.psd' ? ['moved.out'] : [] },
]);

const FOLDER_CASES: Case[] = [
  { name: 'deleting an ignored folder', command: 'rm -rf data', unprompted: true, changed: false },
  { name: 'moving an ignored folder', command: 'mv data elsewhere', unprompted: true, changed: false },
  { name: 'moving a folder that holds an ignored file', command: 'mv logs logs-old', unprompted: true, changed: false },
  { name: 'deleting folders that hold tracked and ignored files', command: 'rm -rf logs src', unprompted: true, changed: true },
  { name: 'deleting .gitignore and every held file', command: 'rm -f .gitignore a.txt notes.txt && rm -rf src', unprompted: true, changed: true },
  { name: 'deleting regenerable folders (not restored, by design)', command: 'rm -rf node_modules build', unprompted: true, changed: true, regenerable: ['node_modules', 'build'] },
  { name: 'deleting the workspace contents', command: 'rm -rf ./*', unprompted: false, changed: false, why: /everything in the workspace/ },
  { name: 'find -delete over the workspace', command: 'find . -delete', unprompted: false, changed: false, why: /workspace root/ },
];

describe('auto-edit: after the restore every byte is back, or the file was never changed, or the call asked', () => {
  it.each([...FILE_CASES, ...FOLDER_CASES])('$name', async (c) => {
    const r = await bench.runAndRestore(c, false);
    if (!r.restored) expect(r.after).toEqual(r.before);
    expect({ unprompted: r.unprompted, changed: r.changed, restored: r.restored, why: r.card && c.why && !c.why.test(r.card.reason) ? r.card.reason : true }).toEqual({ unprompted: c.unprompted, changed: c.changed, restored: true, why: true });
  }, CASE_MS);

  it.each(FOLDER_CASES.filter((c) => c.command === 'find . -delete'))('$name, approved by a person, is restored but for what the checkpoint does not hold', async (c) => {
    const r = await bench.runAndRestore({ ...c, regenerable: UNHELD }, true);
    if (!r.restored) expect(r.after).toEqual(r.before);
    expect({ ran: r.ran, changed: r.changed, restored: r.restored, intact: r.intact }).toEqual({ ran: true, changed: true, restored: true, intact: 'intact' });
  }, CASE_MS);
});

describe('auto-edit: what the checkpoint cannot hold is read-only, and the card says why', () => {
  it('a blocked change to an ignored file becomes a consent offer naming the reason, and the model is told', async () => {
    bench.reset();
    const { core, ws } = bench;
    const command = 'echo gone > data/results.csv';
    const v = await core.calls.review({ sessionId: 'why', turnId: 't', turnKind: 'reactive', tool: 'run_command', args: { command }, cwd: ws });
    const report = await core.calls.runCommand({ callId: v.callId, sessionId: 'why', command, cwd: ws, evaluation: v.evaluation });
    const offer = report.offers[0];
    expect({ status: report.status, path: offer?.path, reason: offer?.reason, raised: bench.offers.some((o) => o.id === offer?.id), told: /checkpoint taken before this command does not hold it/.test(report.text) }).toEqual({
      status: 'failed',
      path: join(ws, 'data', 'results.csv'),
      reason: expect.stringMatching(/ignored by \.gitignore or larger than the checkpoint size cap/),
      raised: true,
      told: true,
    });
  }, CASE_MS);
});

describe('auto-edit: the file tools do not change unprompted what the checkpoint cannot hold', () => {
  it.each([
    { name: 'write_file over an ignored file is refused', tool: 'write_file', args: { path: 'data/results.csv', content: 'gone' }, file: 'data/results.csv', refused: true },
    { name: 'write_file of a new file in an ignored folder is refused', tool: 'write_file', args: { path: 'data/new.csv', content: 'x' }, file: 'data/results.csv', refused: true },
    { name: 'edit_file of an ignored file beside a tracked one is refused', tool: 'edit_file', args: { path: 'logs/run.log', old: 'ignored', new: 'gone' }, file: 'logs/run.log', refused: true },
    { name: 'write_file over an oversized file is refused', tool: 'write_file', args: { path: 'big.bin', content: 'gone' }, file: 'big.bin', refused: true },
    { name: 'write_file over an untracked file runs (it is held)', tool: 'write_file', args: { path: 'notes.txt', content: 'changed\n' }, file: 'notes.txt', refused: false },
    { name: 'write_file in a regenerable folder runs', tool: 'write_file', args: { path: 'build/out.js', content: 'rebuilt\n' }, file: 'build/out.js', refused: false },
  ])('$name', async ({ tool, args, file, refused }) => {
    bench.reset();
    const { core, ws } = bench;
    const before = readFileSync(join(ws, file));
    const v = await core.calls.review({ sessionId: 'tools', turnId: 't', turnKind: 'reactive', tool: parseToolName(tool), args, cwd: ws });
    const out = await runTool(core, tool, args, { sessionId: 'tools', callId: v.callId, cwd: ws, evaluation: v.evaluation });
    expect({ unprompted: v.evaluation.decidedBy, refused: out.isError, says: !refused || /does not hold it/.test(out.text), unchanged: readFileSync(join(ws, file)).equals(before) }).toEqual({ unprompted: 'level:auto-edit', refused, says: true, unchanged: refused });
  }, CASE_MS);
});
