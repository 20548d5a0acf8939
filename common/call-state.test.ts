import { describe, expect, it } from 'vitest';
import { CALL_STATES, CALL_TRANSITIONS, canMove, isTerminal, type CallState } from './call-state';
import { formatDecidedBy, type DecidedBy } from './decided-by';

// The whole machine as a table: every pair of states, legal or not. A change to CALL_TRANSITIONS must
// change this table too, on purpose.
const LEGAL: Record<CallState, CallState[]> = {
  received: ['validating', 'cancelled'],
  validating: ['classifying', 'denied', 'cancelled'],
  classifying: ['reviewing', 'awaiting_approval', 'scheduled', 'denied', 'not_run'],
  reviewing: ['awaiting_approval', 'scheduled', 'denied', 'cancelled', 'not_run'],
  awaiting_approval: ['scheduled', 'refused', 'cancelled', 'not_run'],
  scheduled: ['executing', 'handed_off', 'cancelled', 'not_run', 'succeeded', 'failed', 'timed_out', 'interrupted'],
  executing: ['cancelled', 'succeeded', 'failed', 'timed_out', 'interrupted'],
  denied: [],
  refused: [],
  cancelled: [],
  not_run: [],
  handed_off: [],
  succeeded: [],
  failed: [],
  timed_out: [],
  interrupted: [],
};

describe('the call state machine', () => {
  const pairs = CALL_STATES.flatMap((from) => CALL_STATES.map((to) => ({ from, to, legal: LEGAL[from].includes(to) })));
  it.each(pairs)('$from → $to is legal: $legal', ({ from, to, legal }) => {
    expect(canMove(from, to)).toBe(legal);
  });

  it('names every state on the left of the table, and only states it knows on the right', () => {
    expect(Object.keys(CALL_TRANSITIONS).sort()).toEqual([...CALL_STATES].sort());
    expect(Object.values(CALL_TRANSITIONS).flat().every((s) => (CALL_STATES as readonly string[]).includes(s))).toBe(true);
  });

  it('has exactly the terminal states a call can end in, and every state can reach one', () => {
    expect(CALL_STATES.filter(isTerminal)).toEqual(['denied', 'refused', 'cancelled', 'not_run', 'handed_off', 'succeeded', 'failed', 'timed_out', 'interrupted']);
    const reachesEnd = (s: CallState, seen = new Set<CallState>()): boolean => isTerminal(s) || (!seen.has(s) && CALL_TRANSITIONS[s].some((n) => reachesEnd(n, new Set([...seen, s]))));
    expect(CALL_STATES.filter((s) => !reachesEnd(s))).toEqual([]);
  });
});

describe('decidedBy: one formatter, the stored strings unchanged', () => {
  const cases: { by: DecidedBy; stored: string }[] = [
    { by: { kind: 'floor', floor: 'hardline' }, stored: 'floor:hardline' },
    { by: { kind: 'safety', reason: 'parse_error' }, stored: 'safety:parse_error' },
    { by: { kind: 'rule', on: 'tool', tool: 'run_command', value: 'deny' }, stored: 'rule:tool:run_command=deny' },
    { by: { kind: 'rule', on: 'effect', effect: 'network', value: 'ask' }, stored: 'rule:effect:network=ask' },
    { by: { kind: 'rule', on: 'effects_auto' }, stored: 'rule:effects=auto' },
    { by: { kind: 'grant', grantIds: ['gr_a', 'gr_b'] }, stored: 'grant:gr_a,gr_b' },
    { by: { kind: 'level', level: 'auto-edit' }, stored: 'level:auto-edit' },
    { by: { kind: 'tool', problem: 'invalid_args' }, stored: 'tool:invalid_args' },
    { by: { kind: 'human', surface: 'desktop' }, stored: 'desktop' },
    { by: { kind: 'earlier_approval', approvalId: 'ap_1', via: 'approve_session' }, stored: 'approval:ap_1:approve_session' },
    { by: { kind: 'earlier_approval', approvalId: 'ap_2', via: 'follow_up' }, stored: 'approval:ap_2:follow_up' },
    { by: { kind: 'session_approve_all' }, stored: 'session_approve_all' },
    { by: { kind: 'timeout' }, stored: 'ttl' },
    { by: { kind: 'turn_stopped' }, stored: 'turn_stopped' },
    { by: { kind: 'no_approver', why: 'unattended_turn' }, stored: 'unattended_turn' },
    { by: { kind: 'no_approver', why: 'no_approver_surface' }, stored: 'no_approver_surface' },
    { by: { kind: 'restart' }, stored: 'restart' },
    { by: { kind: 'rule', on: 'tool', tool: 'write_file', value: 'review' }, stored: 'rule:tool:write_file=review' },
    { by: { kind: 'reviewer', reviewers: [{ name: 'approval', model: 'claude-haiku-4-5' }] }, stored: 'reviewer:approval(model claude-haiku-4-5)' },
    { by: { kind: 'reviewer', reviewers: [{ name: 'approval', model: 'claude-haiku-4-5' }, { name: 'second', model: 'gpt-4o-mini' }] }, stored: 'reviewer:approval(model claude-haiku-4-5)+second(model gpt-4o-mini)' },
  ];
  it.each(cases)('$by.kind is stored as "$stored"', ({ by, stored }) => {
    expect(formatDecidedBy(by)).toBe(stored);
  });
});
