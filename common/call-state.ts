// A tool call's life as one state machine: the closed set of states and the moves between them. The
// agent reports the early states (received, validating) as events; the gate stores the call from
// `classifying` on. Every stored move goes through one transition function (main/store/call-lifecycle.ts)
// that refuses a move this table does not allow.

export const CALL_STATES = [
  'received',
  'validating',
  'classifying',
  'reviewing',
  'awaiting_approval',
  'scheduled',
  'executing',
  // terminal: it never ran
  'denied',
  'refused',
  'cancelled',
  'not_run',
  // terminal: allowed, and run by the agent that asked (another agent's hook): Threshold does not see how it ended
  'handed_off',
  // terminal: it ran (or started to)
  'succeeded',
  'failed',
  'timed_out',
  'interrupted',
] as const;
export type CallState = (typeof CALL_STATES)[number];

/** How a call that was allowed to run ended; the same names as the execution outcome. */
export const EXECUTION_END_STATES = ['succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled', 'not_run'] as const satisfies readonly CallState[];

const ENDS = EXECUTION_END_STATES;

/** Every legal move. A state missing on the left is terminal. */
export const CALL_TRANSITIONS: Readonly<Record<CallState, readonly CallState[]>> = {
  received: ['validating', 'cancelled'],
  validating: ['classifying', 'denied', 'cancelled'],
  // The policy allows or denies, or the call asks; a call the store could not park is denied; a call
  // cut short by a crash before its decision is not run.
  classifying: ['scheduled', 'denied', 'reviewing', 'awaiting_approval', 'not_run'],
  // The reviewer approves (scheduled) or escalates (awaiting_approval); Stop during a review cancels it.
  reviewing: ['scheduled', 'awaiting_approval', 'denied', 'cancelled', 'not_run'],
  // A person approves (scheduled), skips or denies, the TTL expires (refused), the turn stops
  // (cancelled), or an orphan is approved: its follow-up call carries it out, so it never runs itself.
  awaiting_approval: ['scheduled', 'refused', 'cancelled', 'not_run'],
  // The outcome may be recorded without a start (the command could not start, or a control client ran it).
  // Another agent's call, allowed: that agent runs it (handed_off) or Threshold's jail does (executing).
  scheduled: ['executing', 'handed_off', ...ENDS],
  executing: ['succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled'],
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

export function canMove(from: CallState, to: CallState): boolean {
  return CALL_TRANSITIONS[from].includes(to);
}

export function isTerminal(s: CallState): boolean {
  return CALL_TRANSITIONS[s].length === 0;
}

/** States a process holds in memory only: after a restart a call found in one of them is cut short. */
export const IN_FLIGHT_STATES = ['classifying', 'reviewing', 'scheduled', 'executing'] as const satisfies readonly CallState[];
