// One call's state as the chat shows it, from the same record History reads (call.list) and the live
// events that came after it. A call only moves forward through the state machine
// (common/call-state.ts), so of two reports the one further along is the newer; an ended state beats
// any state of a call still under way, and where two ended states disagree the stored one wins.
// What a tool result says is never taken for the call's state: a refused call's result is an error
// text, but the call did not fail.
import { CALL_STATES, isTerminal, type CallState } from '../../../common/call-state';

const RANK: Readonly<Record<CallState, number>> = Object.fromEntries(CALL_STATES.map((s, i) => [s, i])) as Record<CallState, number>;

/** The later of two reports of one call's state (null when neither exists). */
export function laterState(live: CallState | null | undefined, stored: CallState | null | undefined): CallState | null {
  if (!live) return stored ?? null;
  if (!stored) return live;
  const liveEnded = isTerminal(live);
  const storedEnded = isTerminal(stored);
  if (storedEnded) return stored;
  if (liveEnded) return live;
  return RANK[live] > RANK[stored] ? live : stored;
}

/** A call's state after a new report: it never moves back (a late event of an earlier step is dropped). */
export function advance(prev: CallState | null | undefined, next: CallState): CallState {
  if (!prev || isTerminal(next)) return next;
  if (isTerminal(prev)) return prev;
  return RANK[next] >= RANK[prev] ? next : prev;
}

export interface CallStatusInput {
  /** The last `call.state` event this page saw for the call. */
  live: CallState | null;
  /** The stored call's state (call.list), as last loaded. */
  stored: CallState | null;
  /** A pending approval for this very call (by the gate's call id). */
  waiting: boolean;
  /** The call's tool result in the transcript, if it has one. */
  result: 'ok' | 'error' | null;
}

/**
 * What the chat's row says. A card waiting for the call wins over anything but an ended state (the
 * card and the row name the same call). Only a call the store holds no row for (its write failed)
 * falls back to its result, the one guess left.
 */
export function callStatus(i: CallStatusInput): CallState {
  const known = laterState(i.live, i.stored);
  if (i.waiting && (known === null || !isTerminal(known))) return 'awaiting_approval';
  if (known) return known;
  return i.result === null ? 'received' : i.result === 'error' ? 'failed' : 'succeeded';
}
