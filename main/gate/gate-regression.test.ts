// Each line: something the gate got wrong once, and why it must not come back.
import { describe, expect, it } from 'vitest';
import { nextPending, shellCall, useCores } from '../../test/support/core';
import { decide, type PolicyContext } from '../policy/evaluate';
import { describeCall } from '../policy/tools';
import { policyContext } from '../../test/support/policy';
import { Store } from '../store/store';
import { jailClassFor } from '../calls/run-command';

const core = useCores();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('gate regressions', () => {
  it('an orphan expiring while the store fails does not throw out of its timer, and stays pending', async () => {
    const store = Store.inMemory();
    const first = await core({ store });
    void first.calls.review(shellCall('touch a'));
    const p = await nextPending(first);
    store.db.prepare('UPDATE approvals SET expires_at = ? WHERE id = ?').run(Date.now() + 30, p.id);
    const decideOriginal = store.approvals.decide.bind(store.approvals);
    store.approvals.decide = () => {
      throw new Error('SQLITE_IOERR: disk I/O error');
    };
    await core({ store });
    await sleep(80);
    store.approvals.decide = decideOriginal;
    expect(store.approvals.get(p.id)?.status).toBe('pending');
  });

  it('a card decided inside its own approval.requested event leaves no expiry timer behind (it used to keep a 10-minute timer, and the process, alive)', async () => {
    const c = await core();
    c.events.on('approval.requested', (p) => void c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' }));
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const verdicts = [];
    for (let i = 0; i < 5; i++) verdicts.push((await c.calls.review(shellCall(`touch sync-${i}`, { turnId: `t${i}` }))).run);
    expect({ verdicts, timersLeft: timers() - before }).toEqual({ verdicts: [true, true, true, true, true], timersLeft: 0 });
  });

  it('an orphan that expires ends its call (it used to stay awaiting approval forever)', async () => {
    const store = Store.inMemory();
    const first = await core({ store });
    void first.calls.review(shellCall('touch a'));
    const p = await nextPending(first);
    store.db.prepare('UPDATE approvals SET expires_at = ? WHERE id = ?').run(Date.now() + 20, p.id);
    await core({ store });
    await sleep(80);
    expect({ outcome: store.approvals.get(p.id)?.outcome, by: store.approvals.get(p.id)?.decided_by, call: store.calls.get(p.call_id)?.state }).toEqual({ outcome: 'expired', by: 'ttl', call: 'refused' });
  });

  it('approve-all approves the session\'s other pending calls and schedules them (their calls used to stay awaiting approval)', async () => {
    const c = await core();
    const a = c.calls.review(shellCall('touch a'));
    const pa = await nextPending(c);
    const b = c.calls.review(shellCall('touch b'));
    const pb = await nextPending(c, 1);
    await c.gate.decideApproval({ approvalId: pa.id, hash: pa.hash, outcome: 'approve_all_session', surface: 'desktop' });
    expect({ a: (await a).run, b: (await b).run, callA: c.store.calls.get(pa.call_id)?.state, callB: c.store.calls.get(pb.call_id)?.state, byB: c.store.calls.get(pb.call_id)?.decided_by }).toEqual({ a: true, b: true, callA: 'scheduled', callB: 'scheduled', byB: 'session_approve_all' });
  });

  it('an outcome cannot be recorded for a call that was denied: it never ran', async () => {
    const c = await core({ level: 'full' });
    const v = await c.calls.review(shellCall('rm -rf ~'));
    expect(c.calls.recordOutcome(v.callId, { status: 'succeeded', exit_code: 0, signal: null, duration_ms: 1 })).toMatchObject({ ok: false, error: { code: 'not_runnable' } });
    expect(c.store.outcomes.get(v.callId)).toBeUndefined();
  });

  it('an outcome cannot be recorded for a call still waiting for approval', async () => {
    const c = await core();
    const review = c.calls.review(shellCall('touch a'));
    const p = await nextPending(c);
    expect(c.calls.recordOutcome(p.call_id, { status: 'succeeded', exit_code: 0, signal: null, duration_ms: 1 })).toMatchObject({ ok: false, error: { code: 'not_runnable' } });
    await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'skip', surface: 'desktop' });
    await review;
  });

  it('every call the policy allowed without a prompt has a row with who allowed it and its outcome', async () => {
    const c = await core({ level: 'auto-edit' });
    const v = await c.calls.review(shellCall('touch a'));
    c.calls.recordOutcome(v.callId, { status: 'succeeded', exit_code: 0, signal: null, duration_ms: 3 });
    const row = c.store.calls.get(v.callId)!;
    expect({ state: row.state, by: row.decided_by, decision: row.decision, outcome: c.store.outcomes.get(v.callId)?.status }).toEqual({ state: 'succeeded', by: 'level:auto-edit', decision: 'allow', outcome: 'succeeded' });
  });

  it.each([
    { name: 'a question the user answered', tool: 'ask_user', args: { question: 'Which branch?' }, status: 'succeeded' as const, want: ['succeeded', 'ask', 'floor:human_input', 'succeeded'] },
    { name: 'a notification', tool: 'notify_user', args: { message: 'done' }, status: 'succeeded' as const, want: ['succeeded', 'allow', 'level:supervised', 'succeeded'] },
    { name: 'a question nobody answered', tool: 'ask_user', args: { question: 'Which branch?' }, status: 'failed' as const, want: ['failed', 'ask', 'floor:human_input', 'failed'] },
  ])('$name, handled by the agent itself, still gets a row with who decided and its outcome (it used to have none)', async ({ tool, args, status, want }) => {
    const c = await core();
    // The agent's own runner answers it (here with the status the case names); the pipeline records it.
    const own = { accepts: (a: unknown): a is Record<string, unknown> => !!a, run: async () => ({ text: 'done', isError: status !== 'succeeded', status, error: null }) };
    await c.calls.withRunners({}, { ask_user: own, notify_user: own }).handle({ toolCallId: 'm1', tool, args }, { sessionId: 's1', turnId: 't1', kind: 'reactive' }, new AbortController().signal);
    const id = c.store.calls.byModelCallIds('s1', ['m1'])[0]?.id;
    const row = c.store.calls.get(id!)!;
    expect([row.state, row.decision, row.decided_by, c.store.outcomes.get(id!)?.status]).toEqual(want);
  });

  it('a call cut off by a stop before the policy saw it still gets a row (it used to have none)', async () => {
    const c = await core();
    await c.calls.notReviewed({ toolCallId: 'm2', tool: 'run_command', args: { command: 'touch late.txt' } }, { sessionId: 's1', turnId: 't1', kind: 'reactive' });
    const id = c.store.calls.byModelCallIds('s1', ['m2'])[0]?.id;
    const row = c.store.calls.get(id!)!;
    expect([row.state, row.decided_by, row.model_call_id, c.store.audit.list({ limit: 1 })[0]?.kind]).toEqual(['cancelled', 'turn_stopped', 'm2', 'call.cancelled']);
  });
});

describe('confinement is data, not a string compare', () => {
  const judge = (command: string, ctx: PolicyContext) => {
    const d = describeCall('run_command', { command }, { ctx: ctx.paths });
    if (!d.ok) throw new Error(d.message);
    return decide(d.facts, ctx);
  };
  it.each([
    { name: 'an auto-edit allow of an unknown program is confined: no network', level: 'auto-edit' as const, command: './build.sh', jail: 'write', confined: true },
    // It used to share the string "level:auto-edit" with the allow, and lost the network a person approved.
    { name: 'an ask at auto-edit that a person approves is not confined: it gets the network it asked for', level: 'auto-edit' as const, command: 'curl https://example.com', jail: 'network', confined: false },
    { name: 'a full-level allow is not confined', level: 'full' as const, command: 'curl https://example.com', jail: 'network', confined: false },
  ])('$name', ({ level, command, jail, confined }) => {
    const e = judge(command, policyContext({ level }));
    expect({ confined: e.confined, jail: jailClassFor(e) }).toEqual({ confined, jail });
  });
});
