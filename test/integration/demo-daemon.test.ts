// The demo daemon as a new user meets it: `serve --demo`, then ctl pending / decide / history; killed
// mid-approval and restarted; and `ctl run` driving a real provider protocol (the fake provider).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProvider } from '../fake-provider/server';
import { spawnCli } from '../support/cli';
import { startDaemon, type Daemon } from '../support/daemon';

const running: Daemon[] = [];
let fake: FakeProvider;
beforeAll(async () => {
  fake = await FakeProvider.start();
});
afterAll(async () => {
  for (const d of running) if (d.child.exitCode === null) await d.kill('SIGTERM');
  await fake.close();
});

interface Pending {
  id: string;
  tool: string;
  class: string;
  hash: string;
  reason: string;
  orphan: boolean;
  preview: string | null;
}

function ctlFor(dataDir: string) {
  return (...args: string[]) => spawnCli(['ctl', '--data-dir', dataDir, ...args]);
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 45_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const v = await probe();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function nextPending(ctl: ReturnType<typeof ctlFor>, tool: string): Promise<Pending> {
  return until(`a pending ${tool}`, async () => {
    const r = await ctl('--json', 'pending');
    if (r.code !== 0) return null;
    return (JSON.parse(r.stdout) as Pending[]).find((p) => p.tool === tool) ?? null;
  });
}

async function demo(): Promise<{ dataDir: string; workspace: string; ctl: ReturnType<typeof ctlFor>; start: () => Promise<Daemon> }> {
  const root = mkdtempSync(join(tmpdir(), 'threshold-demo-'));
  const dataDir = join(root, 'data');
  const start = async () => {
    const d = await startDaemon(dataDir, ['--demo']);
    running.push(d);
    return d;
  };
  return { dataDir, workspace: join(root, 'data-demo-workspace'), ctl: ctlFor(dataDir), start };
}

describe('the demo daemon', () => {
  it('lists the pending approval with class, hash and reason; ctl decide approves it; ctl history shows the decision and its outcome', async () => {
    const { workspace, ctl, start } = await demo();
    const daemon = await start();
    const write = await nextPending(ctl, 'write_file');
    expect({ class: write.class, hash: /^[0-9a-f]{64}$/.test(write.hash), reason: write.reason, preview: write.preview }).toEqual({
      class: 'write',
      hash: true,
      reason: expect.stringMatching(/supervised level every write call needs your approval/),
      preview: expect.stringContaining('+# Summary'),
    });
    expect((await ctl('decide', write.id, 'approve_once')).code).toBe(0);

    const command = await nextPending(ctl, 'run_command');
    expect(command.class).toBe('write');
    expect((await ctl('decide', command.id, 'approve_once')).code).toBe(0);

    const history = await until('both outcomes in the history', async () => {
      const list = JSON.parse((await ctl('--json', 'history')).stdout) as { id: string; outcome: string; decided_by: string; execution: { status: string; exit_code: number | null } | null }[];
      return list.length === 2 && list.every((d) => d.execution) ? list : null;
    });
    expect(history.map((d) => [d.id, d.outcome, d.decided_by, d.execution?.status, d.execution?.exit_code])).toEqual([
      [command.id, 'approve_once', 'control', 'succeeded', 0],
      [write.id, 'approve_once', 'control', 'succeeded', null],
    ]);
    expect(readFileSync(join(workspace, 'build', 'SUMMARY.md'), 'utf8')).toMatch(/^# Summary/);
    expect(daemon.log()).toMatch(/model: Demo: scripted model/);
    expect((await ctl('verify')).code).toBe(0);
  });

  it('killed while an approval waits, restarts with it as an orphan; approving it carries the tour on and history links the outcome', async () => {
    const { workspace, ctl, start } = await demo();
    const first = await start();
    const write = await nextPending(ctl, 'write_file');
    await first.kill('SIGTERM');

    await start();
    const orphan = await nextPending(ctl, 'write_file');
    expect({ id: orphan.id, hash: orphan.hash, orphan: orphan.orphan }).toEqual({ id: write.id, hash: write.hash, orphan: true });
    expect((await ctl('decide', orphan.id, 'approve_once')).code).toBe(0);

    // The follow-up turn makes the same call again (it runs on the approval), then the tour asks for the command.
    const command = await nextPending(ctl, 'run_command');
    expect(existsSync(join(workspace, 'SUMMARY.md'))).toBe(true);
    expect((await ctl('decide', command.id, 'deny', '--note', 'not now')).code).toBe(0);
    const history = JSON.parse((await ctl('--json', 'history')).stdout) as { id: string; outcome: string; follow_up: string | null; execution: { status: string } | null }[];
    expect(history.map((d) => [d.id, d.outcome, d.follow_up, d.execution?.status ?? null])).toEqual([
      [command.id, 'deny', null, null],
      [write.id, 'approve_once', 'consumed', 'succeeded'],
    ]);
    expect(existsSync(join(workspace, 'build'))).toBe(false);
  });
});

describe('ctl run with a configured provider', () => {
  it('drives a turn, an unattended turn denies what would ask, and ctl transcript shows both', async () => {
    const root = mkdtempSync(join(tmpdir(), 'threshold-run-'));
    const dataDir = join(root, 'data');
    const workspace = mkdtempSync(join(root, 'ws-'));
    const config = join(root, 'threshold.toml');
    writeFileSync(config, `[provider]\nkind = "openai-compatible"\nbase_url = "${fake.url}/v1"\nmodel = "fake-model"\n`);
    const daemon = await startDaemon(dataDir, ['--config', config, '--workspace', workspace]);
    running.push(daemon);
    const ctl = ctlFor(dataDir);

    fake.clear();
    fake.enqueue({ toolCalls: [{ name: 'list_dir', args: { path: '.' } }] }, { text: 'The folder is empty.' });
    const first = await ctl('--json', 'run', 'What is in this folder?');
    expect(first.code).toBe(0);
    const turn = JSON.parse(first.stdout) as { session_id: string; reason: string; text: string };
    expect({ reason: turn.reason, text: turn.text }).toEqual({ reason: 'completed', text: 'The folder is empty.' });

    fake.enqueue({ toolCalls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }] }, { text: 'I could not write it.' });
    const unattended = await ctl('--json', 'run', '--unattended', '--session', turn.session_id, 'Write x.txt');
    expect(JSON.parse(unattended.stdout)).toMatchObject({ session_id: turn.session_id });
    expect(existsSync(join(workspace, 'x.txt'))).toBe(false);
    expect(JSON.parse((await ctl('--json', 'pending')).stdout)).toEqual([]);

    const transcript = await ctl('transcript', turn.session_id);
    expect(transcript.stdout).toMatch(/← list_dir/);
    expect(transcript.stdout).toMatch(/← write_file \(error\): Refused without asking: this turn runs unattended/);
    const sessions = JSON.parse((await ctl('--json', 'sessions')).stdout) as { id: string; running: boolean }[];
    expect(sessions.map((s) => [s.id, s.running])).toEqual([[turn.session_id, false]]);
  });

  it('reports a provider that does not answer, with how to set one up, and exits 1', async () => {
    const root = mkdtempSync(join(tmpdir(), 'threshold-run-'));
    const dataDir = join(root, 'data');
    const config = join(root, 'threshold.toml');
    // A port nothing listens on.
    writeFileSync(config, '[provider]\nkind = "openai-compatible"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "llama3.1"\n');
    const daemon = await startDaemon(dataDir, ['--config', config, '--workspace', root]);
    running.push(daemon);
    const r = await ctlFor(dataDir)('run', 'hello');
    expect({ code: r.code, advice: /No model answered/.test(r.stdout), demo: /serve --demo/.test(r.stdout) }).toEqual({ code: 1, advice: true, demo: true });
  });
});
