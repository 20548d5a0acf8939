// The crash harness: a real `serve --demo` daemon kills itself with SIGKILL at one stage of a call
// (THRESHOLD_CRASH_AT, a test hook: main/gate/crash-hook.ts), is restarted, and the tour is driven to its
// end. Whatever the stage: no acknowledged decision is lost, nothing runs without the decision that
// allows it or twice on one approval, every call ends in a terminal state with a record, the model gets
// exactly one result per call id, and the audit chain verifies.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTerminal } from '../../common/call-state';
import { ControlClient, RemoteError } from '../../main/control/client';
import { Store } from '../../main/store/store';
import { ROOT } from '../support/cli';
import { startDaemon, type Daemon } from '../support/daemon';

const children: ChildProcess[] = [];
const daemons: Daemon[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of daemons) if (d.child.exitCode === null && d.child.signalCode === null) await d.kill('SIGTERM');
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The control client, or null while the daemon is not (or no longer) answering. */
async function client(dataDir: string): Promise<ControlClient | null> {
  try {
    return await ControlClient.connect(join(dataDir, 'control.sock'));
  } catch {
    return null;
  }
}

interface Pending {
  id: string;
  hash: string;
  tool: string;
}

interface Ack {
  id: string;
  outcome: string;
}

/** Approves whatever waits; an acknowledged decision is remembered, one cut off by the crash is not. */
async function approvePending(c: ControlClient, acks: Ack[]): Promise<number> {
  const pending = await c.call<Pending[]>('approval.list_pending', {});
  for (const p of pending) {
    try {
      await c.call('approval.decide', { id: p.id, hash: p.hash, outcome: 'approve_once' });
      acks.push({ id: p.id, outcome: 'approve_once' });
    } catch (err) {
      if (err instanceof RemoteError && err.error.data && (err.error.data as { code?: string }).code === 'already_decided') continue;
      throw err;
    }
  }
  return pending.length;
}

/** The daemon's control client, waiting for it to start (slow on a loaded machine). */
async function connected(dataDir: string): Promise<ControlClient> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const c = await client(dataDir);
    if (c) return c;
    await sleep(100);
  }
  throw new Error(`the restarted daemon for ${dataDir} never answered`);
}

/** The first run: the daemon is driven (approving as it goes) until it kills itself. */
async function runUntilCrash(dataDir: string, stage: string, acks: Ack[]): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'threshold.js'), 'serve', '--data-dir', dataDir, '--demo'], { cwd: ROOT, env: { ...process.env, THRESHOLD_CRASH_AT: stage }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  child.stdout!.on('data', (b: Buffer) => (log += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (log += b.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  let done = false;
  void exited.then(() => (done = true));
  const end = Date.now() + 60_000;
  while (!done && Date.now() < end) {
    const c = await client(dataDir);
    if (c) {
      try {
        await approvePending(c, acks);
      } catch {
        // The daemon died mid-request: the decision was not acknowledged.
      } finally {
        c.close();
      }
    }
    await sleep(40);
  }
  if (!done) throw new Error(`the daemon never reached ${stage}:\n${log}`);
  return exited;
}

/** After the restart: approve, nudge the tour along when it rests, until the demo's last words. */
async function finishTour(dataDir: string, sessionId: string, acks: Ack[]): Promise<void> {
  const c = await connected(dataDir);
  try {
    const end = Date.now() + 80_000;
    while (Date.now() < end) {
      const waiting = await approvePending(c, acks);
      const transcript = await c.call<{ role: string; content: { role?: string; content?: unknown } }[]>('agent.transcript', { session_id: sessionId });
      const over = transcript.some((m) => m.role === 'assistant' && JSON.stringify(m.content).includes('That is the tour'));
      const { running } = await c.call<{ running: string[] }>('agent.info', {});
      if (over && !running.length && !waiting) return;
      if (!over && !running.length && !waiting) await c.call('agent.send', { session_id: sessionId, message: 'Please carry on with the tour.', wait: false });
      await sleep(60);
    }
    throw new Error('the tour did not finish after the restart');
  } finally {
    c.close();
  }
}

interface Case {
  stage: string;
  /** The calls the restart ended, as [tool, state]. */
  ended: [string, string][];
}

// The demo tour: list_dir, read_file, run_command `wc` (allowed: read), write_file (asks), run_command
// `mkdir … && cp … && ls` (asks). `@N` picks the Nth time a stage is reached.
const CASES: Case[] = [
  // The model's calls are stored, none reached the gate: each gets a "not run" result.
  { stage: 'model_emitted', ended: [] },
  // The approval is stored, nobody has answered: it is an orphan after the restart, decided then.
  { stage: 'pending_written', ended: [] },
  // The decision dies with its transaction: not acknowledged, the approval is still pending after.
  { stage: 'decision_write', ended: [] },
  // Acknowledged but not run: it used to stay `scheduled` forever; now it is not run, with a record.
  { stage: 'decision_written', ended: [['write_file', 'not_run']] },
  // The approved command is running (its first output came): interrupted, with a record.
  { stage: 'command_running@2', ended: [['run_command', 'interrupted']] },
  // The approved file write finished but its outcome died with its transaction: interrupted.
  { stage: 'outcome_write@4', ended: [['write_file', 'interrupted']] },
];

// Two at a time (one per core): each case has its own data directory and daemons, and spends most of
// its time waiting on them.
const PAIRS = [CASES.slice(0, 2), CASES.slice(2, 4), CASES.slice(4, 6)];

describe.each(PAIRS.map((cases, i) => ({ cases, part: i + 1 })))('kill -9 at every stage of a call, then restart ($part of 3)', ({ cases }) => {
  it.concurrent.each(cases)('$stage: nothing lost, nothing run twice or unapproved, one result per call, the chain verifies', async ({ stage, ended }) => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'threshold-crash-')), 'data');
    const acks: Ack[] = [];
    expect(await runUntilCrash(dataDir, stage, acks)).toBe('SIGKILL');

    const daemon = await startDaemon(dataDir, ['--demo']);
    daemons.push(daemon);
    const probe = await connected(dataDir);
    const [session] = await probe.call<{ id: string }[]>('agent.sessions', {});
    await finishTour(dataDir, session!.id, acks);
    const verify = await probe.call<{ ok: boolean }>('audit.verify', {});
    probe.close();
    await daemon.kill('SIGTERM');

    const store = Store.openDataDir(dataDir);
    try {
      const calls = store.calls.listForSession(session!.id);
      const approvals = store.approvals.listDecisions({ limit: 500 });
      const started = store.audit.list({ kind: 'call.started', limit: 10_000 }).map((e) => e.subject!);
      const messages = store.transcripts.list(session!.id);

      // Every call the model made has exactly one result, in the tool message that answers its message.
      const talk = messages.filter((m) => m.role !== 'note');
      const unanswered: string[] = [];
      talk.forEach((m, i) => {
        const parts = (m.content as { content?: unknown }).content;
        if (m.role !== 'assistant' || !Array.isArray(parts)) return;
        const ids = (parts as { type: string; toolCallId: string }[]).filter((p) => p.type === 'tool-call').map((p) => p.toolCallId);
        if (!ids.length) return;
        const next = talk[i + 1];
        const answered = next?.role === 'tool' ? (next.content as { content: { toolCallId: string }[] }).content.map((p) => p.toolCallId) : [];
        if (JSON.stringify(answered) !== JSON.stringify(ids)) unanswered.push(`${ids.join(',')} → ${answered.join(',')}`);
      });
      expect(unanswered).toEqual([]);
      const allIds = talk.flatMap((m) => (m.role === 'tool' ? (m.content as { content: { toolCallId: string }[] }).content.map((p) => p.toolCallId) : []));
      expect(new Set(allIds).size).toBe(allIds.length);

      // Every call ends in a terminal state; one that was allowed to run has its outcome.
      expect(calls.filter((c) => !isTerminal(c.state)).map((c) => [c.tool, c.state])).toEqual([]);
      const ran = calls.filter((c) => ['succeeded', 'failed', 'timed_out', 'interrupted'].includes(c.state));
      expect(ran.filter((c) => !store.outcomes.get(c.id)).map((c) => c.id)).toEqual([]);
      expect(calls.filter((c) => c.decided_by === 'restart').map((c) => [c.tool, c.state])).toEqual(ended);

      // Nothing started without the decision that allows it, and no approval started two calls.
      const basis = (id: string): string | null => {
        const c = calls.find((x) => x.id === id)!;
        if (c.decision === 'allow') return `policy:${c.id}`;
        const own = approvals.find((a) => (a.call_id === id || a.follow_up_call_id === id) && a.outcome.startsWith('approve'));
        if (own) return own.follow_up_call_id === id || own.call_id === id ? own.id : null;
        const earlier = /^approval:(ap_[^:]+):/.exec(c.decided_by ?? '');
        return earlier ? `${earlier[1]}:session:${id}` : null;
      };
      expect(started.filter((id) => basis(id) === null)).toEqual([]);
      const bases = started.map(basis);
      expect(bases.filter((b, i) => bases.indexOf(b) !== i)).toEqual([]);
      expect(new Set(started).size).toBe(started.length);

      // No acknowledged decision is lost.
      expect(acks.map((a) => [a.id, store.approvals.get(a.id)?.outcome])).toEqual(acks.map((a) => [a.id, a.outcome]));
      expect(verify.ok).toBe(true);
      expect(existsSync(join(dataDir, '..', 'data-demo-workspace', 'build', 'SUMMARY.md'))).toBe(true);
    } finally {
      store.close();
    }
  }, 150_000);
});
