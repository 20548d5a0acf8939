// The promise behind History's Restore: it names everything it will undo before it runs (this call,
// every later call, edits made outside Threshold), it refuses to run on a workspace other than the one
// it showed, and "can be undone" holds: restoring the checkpoint taken just before the restore gives
// back exactly the workspace that was there (contents, executable bits, symlinks, files that became
// folders, the repository's own history), and undoing the undo gives back the restored state.
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../store/store';
import { CheckpointService, type RestorePlan } from './checkpoints';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const MAX_FILE = 64 * 1024;

function setup() {
  const ws = mkdtempSync(join(tmpdir(), 'threshold-restore-ws-'));
  const data = mkdtempSync(join(tmpdir(), 'threshold-restore-data-'));
  made.push(ws, data);
  writeFileSync(join(ws, 'README.md'), '# project\n');
  writeFileSync(join(ws, 'a.txt'), 'a1\n');
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'b.ts'), 'export const b = 1;\n');
  writeFileSync(join(ws, 'run.sh'), '#!/bin/sh\necho hi\n');
  writeFileSync(join(ws, '.gitignore'), 'node_modules/\n*.log\n');
  writeFileSync(join(ws, 'debug.log'), 'log 1\n');
  const store = Store.inMemory();
  let t = 1_000;
  const service = new CheckpointService(store, data, () => (t += 1000), MAX_FILE);
  store.db.prepare("INSERT INTO sessions (id, created_at) VALUES ('s1', 0)").run();
  for (const id of ['c1', 'c2', 'c3', 'c4']) insertCall(store, id);
  return { ws, store, service };
}

function insertCall(store: Store, id: string) {
  store.db
    .prepare("INSERT INTO tool_calls (id, session_id, tool, args_redacted, content_hash, state, created_at, updated_at) VALUES (?, 's1', 'run_command', ?, 'h', 'succeeded', 0, 0)")
    .run(id, JSON.stringify({ command: `step ${id}` }));
}

/** Everything a restore could get wrong, per path: kind, content, executable bit, link target. Empty folders are not tracked by any checkpoint. */
function fingerprint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, r));
      if (st.isSymbolicLink()) out[r] = `link -> ${readlinkSync(join(root, r))}`;
      else if (st.isDirectory()) walk(r);
      else out[r] = `${st.mode & 0o111 ? 'x' : '-'} ${readFileSync(join(root, r)).toString('base64')}`;
    }
  };
  walk('');
  return out;
}

function git(ws: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: ws, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } }).toString();
}

type Mutation = (ws: string) => void;

/** Each case: what the checkpointed call did, what later calls did, what was edited outside Threshold. */
const CASES: { name: string; call: Mutation; later: Mutation[]; outside?: Mutation }[] = [
  {
    name: 'a call that edits, two later calls that add and delete, and an edit made outside Threshold',
    call: (ws) => writeFileSync(join(ws, 'a.txt'), 'a2\n'),
    later: [(ws) => writeFileSync(join(ws, 'new.txt'), 'made by a later call\n'), (ws) => rmSync(join(ws, 'src', 'b.ts'))],
    outside: (ws) => writeFileSync(join(ws, 'README.md'), '# project\n\nedited by the person\n'),
  },
  {
    name: 'executable bits, symlinks, binary and empty files, names with spaces and non-ASCII',
    call: (ws) => {
      chmodSync(join(ws, 'run.sh'), 0o755);
      symlinkSync('a.txt', join(ws, 'link-to-a'));
    },
    later: [
      (ws) => {
        writeFileSync(join(ws, 'blob.bin'), Buffer.from([0, 255, 1, 254, 10, 13, 0]));
        writeFileSync(join(ws, 'empty'), '');
        writeFileSync(join(ws, 'naïve file ✓.txt'), 'unicode\n');
      },
      (ws) => {
        rmSync(join(ws, 'link-to-a'));
        symlinkSync('src/b.ts', join(ws, 'link-to-a'));
        chmodSync(join(ws, 'run.sh'), 0o644);
      },
    ],
  },
  {
    name: 'a file that becomes a folder, and a folder that becomes a file',
    call: (ws) => {
      rmSync(join(ws, 'a.txt'));
      mkdirSync(join(ws, 'a.txt'));
      writeFileSync(join(ws, 'a.txt', 'inside'), 'now a folder\n');
    },
    later: [
      (ws) => {
        rmSync(join(ws, 'src'), { recursive: true });
        writeFileSync(join(ws, 'src'), 'now a file\n');
      },
    ],
  },
  {
    name: 'a later call that changes .gitignore so a new file is ignored, and one that un-ignores an old one',
    call: (ws) => writeFileSync(join(ws, 'notes.md'), 'notes\n'),
    later: [
      (ws) => {
        writeFileSync(join(ws, '.gitignore'), 'node_modules/\n*.md\n');
        writeFileSync(join(ws, 'later.md'), 'ignored when made\n');
      },
    ],
    outside: (ws) => writeFileSync(join(ws, 'debug.log'), 'log 2 (ignored: never restored)\n'),
  },
  {
    name: 'a file over the size cap appears (never in a checkpoint, so never touched)',
    call: (ws) => writeFileSync(join(ws, 'a.txt'), 'a3\n'),
    later: [(ws) => writeFileSync(join(ws, 'huge.dat'), Buffer.alloc(MAX_FILE * 2, 7))],
  },
];

describe('Restore names what it undoes and can be undone', () => {
  it.each(CASES)('$name', async ({ call, later, outside }) => {
    const { ws, store, service } = setup();
    const before = fingerprint(ws);
    const target = await service.before(ws, { sessionId: 's1', callId: 'c1' });
    call(ws);
    for (const [i, step] of later.entries()) {
      await service.before(ws, { sessionId: 's1', callId: `c${i + 2}` });
      step(ws);
    }
    outside?.(ws);
    const current = fingerprint(ws);

    const plan = await service.plan(target.id);
    // Named before it runs: the call and every later step that changed something, in order.
    expect(plan.steps[0]!.checkpoint.call_id).toEqual('c1');
    expect(plan.steps.map((s) => s.checkpoint.call_id)).toEqual(plan.steps.map((s) => s.checkpoint.call_id).sort());
    expect(new Set(plan.files.map((f) => f.path))).toEqual(new Set(plan.steps.flatMap((s) => s.files.map((f) => f.path)).filter((p) => plan.files.some((f) => f.path === p))));

    const { safety } = await service.restore(target.id, 'test', plan.tree);
    const restored = fingerprint(ws);
    // What it named is exactly what it changed: nothing unnamed changed, nothing named stayed.
    const changed = [...new Set([...Object.keys(current), ...Object.keys(restored)])].filter((p) => current[p] !== restored[p]).sort();
    expect(changed).toEqual(plan.files.map((f) => f.path).sort());
    // Back as before the call for everything a checkpoint holds; what none holds (ignored, too large) is untouched.
    const held = (fp: Record<string, string>) => Object.fromEntries(Object.entries(fp).filter(([p]) => !isLeftAlone(plan, p)));
    expect(held(restored)).toEqual(held(before));
    for (const p of Object.keys(current).filter((p) => isLeftAlone(plan, p))) expect(restored[p]).toEqual(current[p]);

    // The restore is listed with its undo point, and undoing it gives back exactly what was there.
    expect(service.get(target.id).undo?.id).toEqual(safety.id);
    const undoPlan = await service.plan(safety.id);
    expect(undoPlan.files.length).toBeGreaterThan(0);
    await service.restore(safety.id, 'test', undoPlan.tree);
    expect(fingerprint(ws)).toEqual(current);
    expect(service.get(target.id).undo?.restored_at).toEqual(expect.any(Number));

    // And the undo can be undone: the restored state comes back.
    const redo = service.get(safety.id).undo!;
    await service.restore(redo.id, 'test');
    expect(fingerprint(ws)).toEqual(restored);
    expect(store.audit.list({ kind: 'checkpoint.restored' }).length).toEqual(3);
  });

  it("brings back the repository's own history a later call changed, and the undo brings the new commit back", async () => {
    const { ws, service } = setup();
    git(ws, 'init', '-q');
    git(ws, 'add', 'README.md');
    git(ws, '-c', 'user.name=u', '-c', 'user.email=e', 'commit', '-qm', 'first');
    const head = git(ws, 'rev-parse', 'HEAD');
    const target = await service.before(ws, { sessionId: 's1', callId: 'c1' });
    writeFileSync(join(ws, 'a.txt'), 'a2\n');
    await service.before(ws, { sessionId: 's1', callId: 'c2' });
    git(ws, 'add', 'a.txt');
    git(ws, '-c', 'user.name=u', '-c', 'user.email=e', 'commit', '-qm', 'second');
    const second = git(ws, 'rev-parse', 'HEAD');
    const { safety } = await service.restore(target.id, 'test', (await service.plan(target.id)).tree);
    expect(git(ws, 'rev-parse', 'HEAD')).toEqual(head);
    await service.restore(safety.id, 'test');
    expect({ head: git(ws, 'rev-parse', 'HEAD'), a: readFileSync(join(ws, 'a.txt'), 'utf8') }).toEqual({ head: second, a: 'a2\n' });
  });

  it('refuses to run on a workspace that changed after the plan was shown, and changes nothing', async () => {
    const { ws, service } = setup();
    const target = await service.before(ws, { sessionId: 's1', callId: 'c1' });
    writeFileSync(join(ws, 'a.txt'), 'a2\n');
    const plan = await service.plan(target.id);
    writeFileSync(join(ws, 'sneaked-in.txt'), 'not in the plan\n');
    const now = fingerprint(ws);
    await expect(service.restore(target.id, 'test', plan.tree)).rejects.toMatchObject({ code: 'changed' });
    expect({ files: fingerprint(ws), restored: service.get(target.id).restored_at, undo: service.get(target.id).undo }).toEqual({ files: now, restored: null, undo: null });
  });

  it('refuses while a call is still running (it could write during the restore), and changes nothing', async () => {
    const { ws, store, service } = setup();
    const target = await service.before(ws, { sessionId: 's1', callId: 'c1' });
    writeFileSync(join(ws, 'a.txt'), 'a2\n');
    store.db.prepare("UPDATE tool_calls SET state = 'executing' WHERE id = 'c2'").run();
    const now = fingerprint(ws);
    await expect(service.restore(target.id, 'test', (await service.plan(target.id)).tree)).rejects.toMatchObject({ code: 'busy', message: expect.stringContaining('A call is still running (run_command, c2)') });
    expect(fingerprint(ws)).toEqual(now);
  });

  it('a plan of a checkpoint nothing happened after says there is nothing to undo', async () => {
    const { ws, service } = setup();
    const target = await service.before(ws, { sessionId: 's1', callId: 'c1' });
    const plan = await service.plan(target.id);
    expect({ files: plan.files, steps: plan.steps, more: plan.more_steps }).toEqual({ files: [], steps: [], more: 0 });
  });
});

function isLeftAlone(plan: RestorePlan, path: string): boolean {
  return plan.left_alone.some((p) => (p.endsWith('/') ? path.startsWith(p) : p === path));
}
