import { describe, expect, it } from 'vitest';
import type { CallState } from '../../common/call-state';
import type { NewApproval } from './approvals-repo';
import { CallLifecycle, type Step } from './call-lifecycle';
import { IllegalTransition } from './calls-repo';
import { Redactor } from '../redact/redactor';
import { Store } from './store';

const redactor = new Redactor({ home: '/home/nobody' });
const red = <T>(v: T) => redactor.redactValueSync(v);

function storeWith(state: CallState, id = 'c1') {
  const s = Store.inMemory();
  s.sessions.ensure('s1', 1);
  s.calls.insert({ id, session_id: 's1', turn_id: null, tool: 'run_command', args_redacted: red('{"command":"touch a"}'), content_hash: 'h', cwd: red('/w'), class: 'write', effects: '[]', decision: 'ask', decider: { kind: 'level', level: 'supervised' }, explanation: red('Asks'), state, created_at: 1 });
  return s;
}

const approval = (id: string, callId = 'c1'): NewApproval => ({
  id,
  call_id: callId,
  session_id: 's1',
  turn_id: null,
  tool: 'run_command',
  args_redacted: red({ command: 'touch a' }),
  content_hash: 'h',
  class: 'write',
  effects: ['file_write'],
  reason: red('Asks'),
  segment: null,
  floor: null,
  outcomes: ['approve_once', 'skip', 'deny'],
  proposed_grant: null,
  created_at: 1,
  expires_at: null,
  owner: 'rt_test',
});

const outcome = (status: 'succeeded' | 'failed') => ({ status, exit_code: status === 'succeeded' ? 0 : 1, signal: null, duration_ms: 1, error: null, recorded_at: 2 });

describe('the transition function', () => {
  const legal: { name: string; from: CallState; step: Step; to: CallState }[] = [
    { name: 'a policy allow schedules a classified call', from: 'classifying', step: { kind: 'policy_decided', callId: 'c1', to: 'scheduled', by: { kind: 'level', level: 'full' } }, to: 'scheduled' },
    { name: 'a policy deny denies it', from: 'classifying', step: { kind: 'policy_decided', callId: 'c1', to: 'denied', by: { kind: 'floor', floor: 'hardline' } }, to: 'denied' },
    { name: 'an ask parks it', from: 'classifying', step: { kind: 'parked', callId: 'c1', approval: approval('ap1') }, to: 'awaiting_approval' },
    { name: 'a call that could not be parked is denied', from: 'classifying', step: { kind: 'park_failed', callId: 'c1' }, to: 'denied' },
    { name: 'a scheduled call starts', from: 'scheduled', step: { kind: 'started', callId: 'c1' }, to: 'executing' },
    { name: 'a running call ends with its outcome', from: 'executing', step: { kind: 'executed', callId: 'c1', outcome: outcome('failed') }, to: 'failed' },
    { name: 'a scheduled call may end without a start (it could not start)', from: 'scheduled', step: { kind: 'executed', callId: 'c1', outcome: outcome('failed') }, to: 'failed' },
    { name: "another agent's allowed call is handed back to it", from: 'scheduled', step: { kind: 'handed_off', callId: 'c1', agent: 'Claude Code' }, to: 'handed_off' },
  ];
  it.each(legal)('$name', ({ from, step, to }) => {
    const s = storeWith(from);
    const r = new CallLifecycle(s, redactor).apply(step, 2);
    expect({ returned: r.call.state, stored: s.calls.get('c1')?.state, verifies: s.audit.verify().ok }).toEqual({ returned: to, stored: to, verifies: true });
  });

  // Each would let a call run, or record that it ran, without the decision that allows it.
  const illegal: { name: string; from: CallState; step: Step }[] = [
    { name: 'a denied call cannot start', from: 'denied', step: { kind: 'started', callId: 'c1' } },
    { name: 'a call waiting for approval cannot start', from: 'awaiting_approval', step: { kind: 'started', callId: 'c1' } },
    { name: 'a call waiting for approval has no outcome', from: 'awaiting_approval', step: { kind: 'executed', callId: 'c1', outcome: outcome('succeeded') } },
    { name: 'a refused call has no outcome', from: 'refused', step: { kind: 'executed', callId: 'c1', outcome: outcome('succeeded') } },
    { name: 'a denied call cannot be scheduled by a later policy step', from: 'denied', step: { kind: 'policy_decided', callId: 'c1', to: 'scheduled', by: { kind: 'level', level: 'full' } } },
    { name: 'a finished call cannot start again', from: 'succeeded', step: { kind: 'started', callId: 'c1' } },
    { name: 'a scheduled call cannot be parked again', from: 'scheduled', step: { kind: 'parked', callId: 'c1', approval: approval('ap1') } },
    { name: 'a call waiting for approval is not handed to the agent', from: 'awaiting_approval', step: { kind: 'handed_off', callId: 'c1', agent: 'Claude Code' } },
    { name: 'a denied call is not handed to the agent', from: 'denied', step: { kind: 'handed_off', callId: 'c1', agent: 'Claude Code' } },
    { name: 'a handed-off call has no outcome of Threshold\'s', from: 'handed_off', step: { kind: 'executed', callId: 'c1', outcome: outcome('succeeded') } },
  ];
  it.each(illegal)('refuses: $name, and writes nothing', ({ from, step }) => {
    const s = storeWith(from);
    const before = { audit: s.audit.list().length, approvals: s.approvals.listPending('rt_test').length, outcome: s.outcomes.get('c1') ?? null };
    expect(() => new CallLifecycle(s, redactor).apply(step, 2)).toThrow(IllegalTransition);
    expect({ state: s.calls.get('c1')?.state, audit: s.audit.list().length, approvals: s.approvals.listPending('rt_test').length, outcome: s.outcomes.get('c1') ?? null }).toEqual({ state: from, ...before });
  });

  it('a call that never reached the policy is recorded as received, then cancelled, with who stopped it', () => {
    const s = Store.inMemory();
    s.sessions.ensure('s9', 1);
    const r = new CallLifecycle(s, redactor).apply({ kind: 'never_reviewed', by: { kind: 'turn_stopped' }, call: { id: 'c9', session_id: 's9', turn_id: null, tool: 'run_command', args_redacted: red('{}'), content_hash: 'h', cwd: null, class: null, effects: null, decision: null, decider: null, explanation: null, created_at: 1 } }, 2);
    expect({ state: r.call.state, by: r.call.decided_by, audit: s.audit.list().map((e) => e.kind) }).toEqual({ state: 'cancelled', by: 'turn_stopped', audit: ['call.cancelled'] });
  });

  it('an unknown call is refused by name', () => {
    expect(() => new CallLifecycle(Store.inMemory(), redactor).apply({ kind: 'started', callId: 'nope' }, 1)).toThrow('There is no call nope.');
  });
});

describe('approval decisions', () => {
  function parked() {
    const s = storeWith('classifying');
    const life = new CallLifecycle(s, redactor);
    life.apply({ kind: 'parked', callId: 'c1', approval: approval('ap1') }, 1);
    return { s, life };
  }

  it('returns the decision as history shows it, with the call scheduled and one audit entry', () => {
    const { s, life } = parked();
    const r = life.apply({ kind: 'approval_decided', approvalId: 'ap1', outcome: 'approve_once', by: { kind: 'human', surface: 'desktop' } }, 5);
    expect({ decided: r.decided, outcome: r.decision?.outcome, by: r.decision?.decided_by, state: r.call.state, callBy: r.call.decided_by, audit: s.audit.list({ kind: 'approval.decided' }).length }).toEqual({ decided: true, outcome: 'approve_once', by: 'desktop', state: 'scheduled', callBy: 'desktop', audit: 1 });
  });

  it('the first decision wins: a second one writes nothing', () => {
    const { s, life } = parked();
    life.apply({ kind: 'approval_decided', approvalId: 'ap1', outcome: 'skip', by: { kind: 'human', surface: 'control' } }, 5);
    const second = life.apply({ kind: 'approval_decided', approvalId: 'ap1', outcome: 'approve_once', by: { kind: 'human', surface: 'desktop' } }, 6);
    expect({ decided: second.decided, decision: second.decision, state: s.calls.get('c1')?.state, audit: s.audit.list({ kind: 'approval.decided' }).length }).toEqual({ decided: false, decision: null, state: 'refused', audit: 1 });
  });

  it.each([
    { outcome: 'skip' as const, state: 'refused' },
    { outcome: 'deny' as const, state: 'refused' },
    { outcome: 'expired' as const, state: 'refused' },
    { outcome: 'cancelled' as const, state: 'cancelled' },
  ])('$outcome leaves the call $state', ({ outcome: o, state }) => {
    const { s, life } = parked();
    life.apply({ kind: 'approval_decided', approvalId: 'ap1', outcome: o, by: { kind: 'timeout' } }, 5);
    expect(s.calls.get('c1')?.state).toBe(state);
  });

  it('an approved orphan waits for its follow-up call: its own call is not run, and has no outcome yet', () => {
    const { s, life } = parked();
    const r = life.apply({ kind: 'approval_decided', approvalId: 'ap1', outcome: 'approve_once', by: { kind: 'human', surface: 'control' }, orphan: true }, 5);
    expect({ state: r.call.state, follow: r.decision?.follow_up, execution: r.decision?.execution, outcome: s.outcomes.get('c1') ?? null }).toEqual({ state: 'not_run', follow: 'awaiting', execution: null, outcome: null });
  });

  it('a crash inside the decision write leaves the approval pending and the call waiting (one transaction)', () => {
    const s = storeWith('classifying');
    const crashing = new CallLifecycle(s, redactor, (stage) => {
      if (stage === 'decision_write') throw new Error('killed');
    });
    crashing.apply({ kind: 'parked', callId: 'c1', approval: approval('ap1') }, 1);
    expect(() => crashing.apply({ kind: 'approval_decided', approvalId: 'ap1', outcome: 'approve_once', by: { kind: 'human', surface: 'desktop' } }, 5)).toThrow('killed');
    expect({ status: s.approvals.get('ap1')?.status, state: s.calls.get('c1')?.state, decided: s.audit.list({ kind: 'approval.decided' }).length }).toEqual({ status: 'pending', state: 'awaiting_approval', decided: 0 });
  });
});

describe('recovery after a crash', () => {
  it('ends every call left in flight, visibly, and leaves waiting approvals to be decided', () => {
    const s = Store.inMemory();
    s.sessions.ensure('s1', 1);
    const states: CallState[] = ['classifying', 'scheduled', 'executing', 'awaiting_approval', 'succeeded'];
    for (const state of states) s.calls.insert({ id: `c-${state}`, session_id: 's1', turn_id: null, tool: 'run_command', args_redacted: red('{}'), content_hash: 'h', cwd: null, class: 'write', effects: '[]', decision: 'allow', decider: { kind: 'level', level: 'full' }, explanation: red(''), state, created_at: 1 });
    const ended = new CallLifecycle(s, redactor).recoverInFlight(9);
    expect(ended.map((c) => [c.id, c.state, c.decided_by])).toEqual([
      ['c-classifying', 'not_run', 'restart'],
      ['c-scheduled', 'not_run', 'restart'],
      ['c-executing', 'interrupted', 'restart'],
    ]);
    expect(states.map((st) => [st, s.calls.get(`c-${st}`)?.state, s.outcomes.get(`c-${st}`)?.error ?? null])).toEqual([
      ['classifying', 'not_run', 'not run: Threshold stopped before it ran'],
      ['scheduled', 'not_run', 'not run: Threshold stopped before it ran'],
      ['executing', 'interrupted', 'interrupted: Threshold stopped while it ran'],
      ['awaiting_approval', 'awaiting_approval', null],
      ['succeeded', 'succeeded', null],
    ]);
    expect({ again: new CallLifecycle(s, redactor).recoverInFlight(10), verifies: s.audit.verify().ok }).toEqual({ again: [], verifies: true });
  });
});
