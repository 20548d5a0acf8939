// `ctl calls` and `ctl call` against a real daemon: every call the gate saw is listed, the ones the
// level allowed without a prompt included, filtered, exported as JSONL and shown in full.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ControlClient } from '../../main/control/client';
import { spawnCli } from '../support/cli';
import { startDaemon, type Daemon } from '../support/daemon';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const dataDir = mkdtempSync(join(tmpdir(), 'threshold-calls-'));
const workspace = mkdtempSync(join(tmpdir(), 'threshold-calls-ws-'));
const ctl = (...args: string[]) => spawnCli(['ctl', '--data-dir', dataDir, ...args]);
let daemon: Daemon;
const ids: Record<string, string> = {};

beforeAll(async () => {
  daemon = await startDaemon(dataDir, ['--workspace', workspace]);
  const c = await ControlClient.connect(join(dataDir, 'control.sock'));
  try {
    const ls = await c.call<{ call_id: string }>('approval.request', { tool: 'run_command', args: { command: 'ls -la' }, session_id: 'sess-a' });
    ids['ls'] = ls.call_id;
    await c.call('approval.record_outcome', { call_id: ls.call_id, status: 'succeeded', exit_code: 0, duration_ms: 7 });
    ids['unattended'] = (await c.call<{ call_id: string }>('approval.request', { tool: 'run_command', args: { command: 'touch a.txt' }, session_id: 'sess-b', unattended: true })).call_id;
    const parked = await c.call<{ approval_id: string; call_id: string }>('approval.request', { tool: 'run_command', args: { command: 'touch b.txt' }, session_id: 'sess-a', wait: false });
    ids['asked'] = parked.call_id;
    const decided = await ctl('decide', parked.approval_id, 'skip');
    expect(decided.code).toBe(0);
  } finally {
    c.close();
  }
});
afterAll(async () => {
  if (daemon?.child.exitCode === null) await daemon.kill('SIGTERM');
});

// Read-only against one daemon: the commands run side by side (each ctl is a process start).
describe.concurrent('ctl calls', () => {
  it('lists every call newest first with who decided: a person through ctl, nobody there, the level', async () => {
    const r = await ctl('--json', 'calls');
    const page = JSON.parse(r.stdout) as { calls: { id: string; summary: string; decided_by: string; decider: string; state: string; execution: { duration_ms: number } | null }[]; next_cursor: string | null };
    expect({ code: r.code, rows: page.calls.map((x) => [x.id, x.summary, x.decided_by, x.decider, x.state, x.execution?.duration_ms ?? null]), next: page.next_cursor }).toEqual({
      code: 0,
      rows: [
        [ids['asked'], 'touch b.txt', 'control', 'person', 'refused', null],
        [ids['unattended'], 'touch a.txt', 'unattended_turn', 'nobody', 'denied', null],
        [ids['ls'], 'ls -la', 'level:supervised', 'level', 'succeeded', 7],
      ],
      next: null,
    });
  });

  it.each([
    { name: 'by decider group', args: ['--decided-by', 'level'], expected: ['ls'] },
    { name: 'by state', args: ['--state', 'denied,refused'], expected: ['asked', 'unattended'] },
    { name: 'by session and text', args: ['--session', 'sess-a', '--text', 'B.TXT'], expected: ['asked'] },
  ])('filters $name, and --jsonl writes one call a line', async ({ args, expected }) => {
    const r = await ctl('calls', '--jsonl', ...args);
    expect({ code: r.code, ids: r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id) }).toEqual({ code: 0, ids: expected.map((k) => ids[k]) });
  });

  it('pages with --limit and says how to read on', async () => {
    const first = await ctl('calls', '--limit', '2');
    const cursor = /more: --cursor (\S+)/.exec(first.stdout)?.[1];
    const rest = await ctl('--json', 'calls', '--limit', '2', '--cursor', cursor ?? 'missing');
    expect({ firstRows: first.stdout.trim().split('\n').length, rest: (JSON.parse(rest.stdout) as { calls: { id: string }[] }).calls.map((x) => x.id) }).toEqual({ firstRows: 4, rest: [ids['ls']] });
  });

  it('refuses a decider group that does not exist, naming it', async () => {
    const r = await ctl('calls', '--decided-by', 'somebody');
    expect({ code: r.code, names: r.stderr.includes('decided_by') }).toEqual({ code: 1, names: true });
  });

  it('shows one call in full: arguments, why, the approval and the audit entries', async () => {
    const r = await ctl('call', ids['asked']!);
    const lines = r.stdout.split('\n');
    expect({ code: r.code, by: lines[1], args: lines[3], asked: lines.find((l) => l.startsWith('asked:'))?.replace(/ap_\w+/, 'ap_…'), audit: lines.find((l) => l.startsWith('audit:'))?.replace(/#\d+ /g, '') }).toEqual({
      code: 0,
      by: 'decided by: control (policy said ask)',
      args: 'arguments: {"command":"touch b.txt"}',
      asked: 'asked: approval ap_… → skip by control',
      audit: 'audit: approval.requested, approval.decided',
    });
  });

  it('keeps approval.list_recent_decisions as it was: approvals only', async () => {
    const c = await ControlClient.connect(join(dataDir, 'control.sock'));
    try {
      const decisions = await c.call<{ call_id: string; outcome: string }[]>('approval.list_recent_decisions', {});
      const viaAlias = await c.call<{ calls: unknown[] }>('calls.list', { limit: 1 });
      expect({ decisions: decisions.map((d) => [d.call_id, d.outcome]), alias: viaAlias.calls.length }).toEqual({ decisions: [[ids['asked'], 'skip'], [ids['unattended'], 'no_approver']], alias: 1 });
    } finally {
      c.close();
    }
  });
});
