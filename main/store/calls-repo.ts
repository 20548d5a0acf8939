// Tool calls, with their redacted arguments, their state and who decided them. The state only moves
// through `transition`, which refuses a move the state machine (common/call-state.ts) does not allow.
import { canMove, IN_FLIGHT_STATES, type CallState } from '../../common/call-state';
import { formatDecidedBy, type DecidedBy } from '../../common/decided-by';
import type { Redacted } from '../redact/redactor';
import type { Db } from './db';

export interface CallRow {
  id: string;
  session_id: string;
  turn_id: string | null;
  tool: string;
  args_redacted: string;
  content_hash: string;
  cwd: string | null;
  class: string | null;
  effects: string | null;
  /** The policy's decision (allow, ask, deny). */
  decision: string | null;
  /** Who decided in the end, in the words formatDecidedBy wrote: the policy's step, or the person or system that answered its ask. */
  decided_by: string | null;
  /** The same as data (JSON of DecidedBy): what logic reads (deciderOf). */
  decider: string | null;
  explanation: string | null;
  state: CallState;
  created_at: number;
  updated_at: number;
  /** The model's id for the call (its tool-call id), when a model made it. */
  model_call_id: string | null;
  /** Where the call came from (common/origin.ts, as JSON); null on rows from before it was recorded. */
  origin: string | null;
}

export type NewCall = Omit<CallRow, 'updated_at' | 'state' | 'model_call_id' | 'args_redacted' | 'cwd' | 'explanation' | 'origin' | 'decided_by' | 'decider'> & {
  /** Who decided so far (the policy's judgement), stored as data and in its words; null before any decision. */
  decider: DecidedBy | null;
  args_redacted: Redacted<string>;
  cwd: Redacted<string> | null;
  explanation: Redacted<string> | null;
  state?: CallState;
  model_call_id?: string | null;
  origin?: string | null;
};

export class IllegalTransition extends Error {
  constructor(
    readonly callId: string,
    readonly from: CallState | null,
    readonly to: CallState,
  ) {
    super(from === null ? `There is no call ${callId}.` : `Call ${callId} cannot move from ${from} to ${to}.`);
    this.name = 'IllegalTransition';
  }
}

export class CallsRepo {
  constructor(private readonly db: Db) {}

  /** The arguments (as JSON), the working directory and the explanation come redacted. */
  insert(row: NewCall): void {
    this.db
      .prepare(
        `INSERT INTO tool_calls (id, session_id, turn_id, tool, args_redacted, content_hash, cwd, class, effects, decision, decided_by, decider, explanation, state, created_at, updated_at, model_call_id, origin)
         VALUES (@id, @session_id, @turn_id, @tool, @args_redacted, @content_hash, @cwd, @class, @effects, @decision, @decided_by, @decider, @explanation, @state, @created_at, @created_at, @model_call_id, @origin)`,
      )
      .run({ ...row, ...deciderColumns(row.decider), state: row.state ?? 'classifying', model_call_id: row.model_call_id ?? null, origin: row.origin ?? null });
  }

  /**
   * Moves a call to `to` when the state machine allows it from its current state (a compare-and-set on
   * that state), recording who decided when `by` is given. Throws IllegalTransition otherwise. Callers
   * run it inside the transaction that audits the move (main/store/call-lifecycle.ts).
   */
  transition(id: string, to: CallState, at: number, by?: DecidedBy): CallRow {
    const row = this.get(id);
    if (!row) throw new IllegalTransition(id, null, to);
    if (!canMove(row.state, to)) throw new IllegalTransition(id, row.state, to);
    const d = deciderColumns(by ?? null);
    const r = this.db
      .prepare('UPDATE tool_calls SET state = ?, updated_at = ?, decided_by = coalesce(?, decided_by), decider = coalesce(?, decider) WHERE id = ? AND state = ?')
      .run(to, at, d.decided_by, d.decider, id, row.state);
    if (r.changes !== 1) throw new IllegalTransition(id, row.state, to);
    return { ...row, state: to, updated_at: at, decided_by: d.decided_by ?? row.decided_by, decider: d.decider ?? row.decider };
  }

  get(id: string): CallRow | undefined {
    return this.db.prepare('SELECT * FROM tool_calls WHERE id = ?').get(id) as CallRow | undefined;
  }

  listForSession(sessionId: string): CallRow[] {
    return this.db.prepare('SELECT * FROM tool_calls WHERE session_id = ? ORDER BY created_at, rowid').all(sessionId) as CallRow[];
  }

  /** The most recent calls of every session, newest first (the policy preview replays them). */
  listRecent(limit: number): CallRow[] {
    return this.db.prepare('SELECT * FROM tool_calls ORDER BY created_at DESC, rowid DESC LIMIT ?').all(limit) as CallRow[];
  }

  /** The newest calls of one tool, in one session or in any (the grant editor's preview judges them). */
  recentOfTool(tool: string, limit: number, sessionId?: string | null): CallRow[] {
    return (
      sessionId
        ? this.db.prepare('SELECT * FROM tool_calls WHERE session_id = ? AND tool = ? ORDER BY created_at DESC, rowid DESC LIMIT ?').all(sessionId, tool, limit)
        : this.db.prepare('SELECT * FROM tool_calls WHERE tool = ? ORDER BY created_at DESC, rowid DESC LIMIT ?').all(tool, limit)
    ) as CallRow[];
  }

  /** Calls a process was still working on (after a crash: cut short). */
  listInFlight(): CallRow[] {
    const marks = IN_FLIGHT_STATES.map(() => '?').join(', ');
    return this.db.prepare(`SELECT * FROM tool_calls WHERE state IN (${marks}) ORDER BY created_at, rowid`).all(...IN_FLIGHT_STATES) as CallRow[];
  }

  /** The calls a model made in one of its messages, by the model's tool-call ids. */
  byModelCallIds(sessionId: string, modelCallIds: readonly string[]): CallRow[] {
    if (modelCallIds.length === 0) return [];
    const marks = modelCallIds.map(() => '?').join(', ');
    return this.db.prepare(`SELECT * FROM tool_calls WHERE session_id = ? AND model_call_id IN (${marks}) ORDER BY created_at, rowid`).all(sessionId, ...modelCallIds) as CallRow[];
  }
}

/** A decider as stored: its words (formatted once, common/decided-by.ts) and its data. */
export function deciderColumns(by: DecidedBy | null): { decided_by: string | null; decider: string | null } {
  return by ? { decided_by: formatDecidedBy(by), decider: JSON.stringify(by) } : { decided_by: null, decider: null };
}

/** The decider of a stored row as data (null before any decision, or on a row older than the data). */
export function deciderOf(row: { decider: string | null }): DecidedBy | null {
  return row.decider ? (JSON.parse(row.decider) as DecidedBy) : null;
}
