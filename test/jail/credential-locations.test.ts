// Real credential locations (test/fixtures/credential-locations.txt, from the documentation of the
// tools that write them): none is read without a human. The classifier gives every read secret_read and
// asks at every level, and the jail does not show the file to cat, even when the call is approved.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Level } from '../../common/domain';
import { Executor } from '../../executor/run';
import type { RunResult } from '../../executor/types';
import { initClassifier } from '../../main/policy/classifier';
import { evaluate } from '../../main/policy/evaluate';
import { policyContext } from '../support/policy';
import { jailFixture, type JailFixture } from '../support/jail';

interface Location {
  tool: string;
  path: string;
  source: string;
}

const locations: Location[] = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'credential-locations.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [tool, path, source] = l.split(' | ').map((s) => s.trim());
    return { tool: tool!, path: path!, source: source! };
  });

let fx: JailFixture;
let ex: Executor;
const secretOf = (i: number) => `CREDENTIAL-${i}-${fx.secret}`;
const abs = (l: Location) => join(fx.home, l.path.slice(2));
const jailed: Record<string, RunResult> = {};

beforeAll(async () => {
  await initClassifier();
  fx = await jailFixture();
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir] });
  locations.forEach((l, i) => {
    mkdirSync(dirname(abs(l)), { recursive: true });
    writeFileSync(abs(l), `${secretOf(i)}\n`);
  });
  // One jail per class reads every location, as an approved command would.
  const script = locations.map((l) => `echo "== ${l.path}"; cat '${abs(l)}'`).join('\n') + '\ngrep -r CREDENTIAL- ~ 2>/dev/null; true';
  for (const cls of ['read', 'write', 'network'] as const) {
    jailed[cls] = await ex.run({ argv: ['bash', '-c', script], cwd: fx.workspace, env: { ...process.env, HOME: fx.home }, jail: { class: cls, workspace: fx.workspace }, limits: { timeoutMs: 30_000 } });
  }
}, 60_000);

afterAll(async () => {
  ex?.dispose();
  await fx?.close();
});

describe('the list', () => {
  it('has at least 60 locations, each a home path with an https source', () => {
    expect({ enough: locations.length >= 60, bad: locations.filter((l) => !l.tool || !l.path.startsWith('~/') || !/^https:\/\/\S+$/.test(l.source)) }).toEqual({ enough: true, bad: [] });
  });
  it('names each location once', () => {
    expect(locations.length).toBe(new Set(locations.map((l) => l.path)).size);
  });
});

const levels: Level[] = ['read-only', 'supervised', 'auto-edit', 'full'];

describe('no credential location is read without a human', () => {
  it.each(locations.map((l, i) => ({ ...l, i })))('$tool: $path', ({ path, i }) => {
    const paths = { home: fx.home, workspace: fx.workspace, appDirs: [fx.configDir, fx.dataDir] };
    const file = join(fx.home, path.slice(2));
    const quoted = `'${file}'`;
    const judged = levels.flatMap((level) =>
      [
        { tool: 'run_command', args: { command: `cat ${quoted}` } },
        { tool: 'run_command', args: { command: `head -c 100 ${quoted} | base64` } },
        { tool: 'read_file', args: { path: file } },
      ].map((call) => {
        const e = evaluate(call, policyContext({ level, paths }));
        return { level, call: call.tool, decision: e.decision, secret: e.effects.includes('secret_read') };
      }),
    );
    expect(judged.filter((j) => j.decision !== 'ask' || !j.secret)).toEqual([]);
    for (const cls of ['read', 'write', 'network']) {
      const out = `${jailed[cls]!.stdout.text}\n${jailed[cls]!.stderr.text}`;
      expect({ cls, ran: out.includes(`== ${path}\n`), shown: out.includes(secretOf(i)) }).toEqual({ cls, ran: true, shown: false });
    }
  });
});

describe('the controls: the same reads of ordinary files', () => {
  it('run unasked at full and show their content in the jail', async () => {
    const paths = { home: fx.home, workspace: fx.workspace, appDirs: [fx.configDir, fx.dataDir] };
    const notes = join(fx.home, 'Documents', 'notes.txt');
    mkdirSync(dirname(notes), { recursive: true });
    writeFileSync(notes, `plain-${fx.secret}\n`);
    const e = evaluate({ tool: 'run_command', args: { command: `cat '${notes}'` } }, policyContext({ level: 'full', paths }));
    const r = await ex.run({ argv: ['cat', notes], cwd: fx.workspace, env: process.env, jail: { class: 'read', workspace: fx.workspace } });
    expect({ decision: e.decision, secret: e.effects.includes('secret_read'), shown: r.stdout.text }).toEqual({ decision: 'allow', secret: false, shown: `plain-${fx.secret}\n` });
  });
});
