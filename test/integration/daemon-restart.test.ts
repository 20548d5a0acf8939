// A real daemon, killed with SIGKILL while a call is pending, restarted, then decided through ctl.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ControlClient } from '../../main/control/client';
import { spawnCli } from '../support/cli';
import { startDaemon, type Daemon } from '../support/daemon';

const dataDir = mkdtempSync(join(tmpdir(), 'threshold-daemon-'));
const workspace = mkdtempSync(join(tmpdir(), 'threshold-ws-'));
const running: Daemon[] = [];
afterAll(async () => {
  for (const d of running) if (d.child.exitCode === null) await d.kill('SIGTERM');
});

const ctl = (...args: string[]) => spawnCli(['ctl', '--data-dir', dataDir, ...args]);

describe('orphans after a restart', () => {
  it('survive SIGKILL, are listed as orphans, decided through ctl, and run only in a follow-up turn', async () => {
    const first = await startDaemon(dataDir, ['--workspace', workspace]);
    running.push(first);
    const client = await ControlClient.connect(join(dataDir, 'control.sock'));
    const parked = await client.call<{ status: string; approval_id: string; hash: string }>('approval.request', { tool: 'run_command', args: { command: 'touch restart.txt' }, session_id: 'sess', turn_id: 'turn-1', wait: false });
    client.close();
    expect(parked.status).toBe('pending');

    await first.kill('SIGKILL');
    const down = await ctl('pending');
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/not running/);

    const second = await startDaemon(dataDir, ['--workspace', workspace]);
    running.push(second);
    const pending = await ctl('--json', 'pending');
    expect(pending.code).toBe(0);
    const list = JSON.parse(pending.stdout) as Record<string, unknown>[];
    expect(list.map((p) => ({ id: p['id'], hash: p['hash'], tool: p['tool'], class: p['class'], orphan: p['orphan'], hasReason: typeof p['reason'] === 'string' }))).toEqual([
      { id: parked.approval_id, hash: parked.hash, tool: 'run_command', class: 'write', orphan: true, hasReason: true },
    ]);

    const decided = await ctl('decide', parked.approval_id, 'approve_once');
    expect(decided.code).toBe(0);
    const twice = await ctl('decide', parked.approval_id, 'deny');
    expect({ code: twice.code, already: /already decided/.test(twice.stderr) }).toEqual({ code: 1, already: true });

    const history = JSON.parse((await ctl('--json', 'history')).stdout) as Record<string, unknown>[];
    expect(history.map((d) => [d['id'], d['outcome'], d['decided_by'], d['follow_up'], d['execution']])).toEqual([[parked.approval_id, 'approve_once', 'control', 'awaiting', null]]);

    // The follow-up turn re-issues the same call: it runs, because the current policy still asks for it.
    const again = await ControlClient.connect(join(dataDir, 'control.sock'));
    const followUp = await again.call<{ run: boolean; approval_id: string }>('approval.request', { tool: 'run_command', args: { command: 'touch restart.txt' }, session_id: 'sess', turn_id: 'turn-2' });
    await again.call('approval.record_outcome', { call_id: (followUp as unknown as { call_id: string }).call_id, status: 'succeeded', exit_code: 0, duration_ms: 3 });
    again.close();
    expect(followUp).toMatchObject({ run: true, approval_id: parked.approval_id });

    const verify = await ctl('verify');
    expect({ code: verify.code, ok: /verified/.test(verify.stdout) }).toEqual({ code: 0, ok: true });
    await second.kill('SIGTERM');
    expect(second.log()).toMatch(/1 approval\(s\) from an earlier run are pending as orphans/);
  }, 60_000);
});

describe('serve --unattended', () => {
  it('has no approver surface: an ask is denied at once as no_approver', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-unattended-'));
    const d = await startDaemon(dir, ['--workspace', workspace, '--unattended']);
    running.push(d);
    const r = await spawnCli(['ctl', '--data-dir', dir, '--json', 'request', '--tool', 'write_file', '--args', '{"path":"a.txt","content":"x"}']);
    expect(JSON.parse(r.stdout)).toMatchObject({ run: false, outcome: 'no_approver' });
    const history = JSON.parse((await spawnCli(['ctl', '--data-dir', dir, '--json', 'history'])).stdout) as { outcome: string; decided_by: string }[];
    expect(history.map((h) => [h.outcome, h.decided_by])).toEqual([['no_approver', 'no_approver_surface']]);
    await d.kill('SIGTERM');
  }, 30_000);
});

describe('serve executes approved commands in the jail', () => {
  // The write into /etc goes through a value only the run knows (`d=/etc` alone is judged: a protected
  // write the classifier sees, issue 26), so the classifier allows it at auto-edit and the jail must stop it.
  it('ctl request --execute runs an allowed command, records its outcome, and history shows it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-exec-'));
    const ws = mkdtempSync(join(tmpdir(), 'threshold-exec-ws-'));
    const d = await startDaemon(dir, ['--workspace', ws]);
    running.push(d);
    const level = await spawnCli(['ctl', '--data-dir', dir, 'level', 'auto-edit']);
    expect(level.stdout).toContain('auto-edit');
    const r = JSON.parse((await spawnCli(['ctl', '--data-dir', dir, '--json', 'request', '--tool', 'run_command', '--args', '{"command":"echo jailed > out.txt && cat out.txt && d=$(echo /etc) && echo oops > $d/threshold-test"}', '--execute'])).stdout) as { run: boolean; execution: { status: string; output: string; checkpoint_id: string } };
    expect({ run: r.run, status: r.execution.status, jailedWrite: r.execution.output.includes('jailed'), blocked: /sandbox, not the task, blocked writing \/etc\/threshold-test/.test(r.execution.output), checkpoint: r.execution.checkpoint_id.startsWith('cp_') }).toEqual({ run: true, status: 'failed', jailedWrite: true, blocked: true, checkpoint: true });
    const list = JSON.parse((await spawnCli(['checkpoints', '--data-dir', dir, '--json', 'list'])).stdout) as { id: string }[];
    expect(list.map((c) => c.id)).toContain(r.execution.checkpoint_id);
    await d.kill('SIGTERM');
  }, 40_000);
});
