// Approvals: pending rows that survive restarts, and their decisions. A decision is a compare-and-set
// on status = 'pending', so the first decision wins and every later one sees it was already decided.
import type { CallPart, DecisionRecord, HumanOutcome, Outcome, PendingApproval, ProposedGrant } from '../../common/approvals';
import { formatDecidedBy, type DecidedBy } from '../../common/decided-by';
import { parseOrigin } from '../../common/origin';
import type { Class, Effect } from '../../common/domain';
import type { ReviewReport } from '../../common/review';
import type { Redacted } from '../redact/redactor';
import type { Db } from './db';
import { outcomeOfJoinedRow } from './outcomes-repo';

interface ApprovalRow {
  id: string;
  call_id: string;
  session_id: string;
  turn_id: string | null;
  tool: string;
  args_redacted: string;
  content_hash: string;
  class: string;
  effects: string;
  reason: string;
  segment: string | null;
  floor: string | null;
  outcomes: string;
  proposed_grant: string | null;
  created_at: number;
  expires_at: number | null;
  owner: string;
  status: 'pending' | 'decided';
  outcome: Outcome | null;
  decided_at: number | null;
  decided_by: string | null;
  /** The same as data (JSON of DecidedBy); null on a row older than the data. */
  decider: string | null;
  note: string | null;
  grant_ids: string | null;
  follow_up: 'awaiting' | 'consumed' | null;
  /** The later call that carried out an orphan approved after a restart. */
  follow_up_call_id: string | null;
  preview: string | null;
  /** The review that escalated this call (JSON, redacted), or approved it. */
  review: string | null;
  /** Where the call came from (common/origin.ts, JSON); null on rows from before it was recorded. */
  origin: string | null;
  /** A command's parts as the gate judged them (JSON, redacted). */
  parts: string | null;
  /** Joined from the call (pending views only): where it runs, redacted. */
  call_cwd?: string | null;
}

/** What parking a call stores: the pending approval as shown, under the store's own column names. */
export type NewApproval = Omit<PendingApproval, 'args' | 'hash' | 'orphan' | 'preview' | 'reason' | 'segment' | 'proposed_grant' | 'review' | 'parts'> & {
  args_redacted: Redacted<unknown>;
  reason: Redacted<string>;
  segment: { index: number; text: Redacted<string> } | null;
  proposed_grant: Redacted<ProposedGrant> | null;
  content_hash: string;
  /** The runtime that parked it (another runtime's rows are orphans). */
  owner: string;
  /** What the call would change (a diff for file edits), redacted. */
  preview?: Redacted<string> | null;
  /** The review that escalated it or approved it (main/reviewer), redacted. */
  review?: Redacted<ReviewReport> | null;
  /** A command's parts, their text redacted. */
  parts?: Redacted<CallPart[]> | null;
};

export interface DecisionFields {
  outcome: Outcome;
  decided_at: number;
  /** Who decided: stored as data and in its words (formatted once). */
  by: DecidedBy;
  note?: Redacted<string> | null;
  grant_ids?: string[];
  follow_up?: 'awaiting' | null;
}

export interface DecisionFilter {
  limit?: number;
  session_id?: string;
  outcome?: Outcome;
  tool?: string;
  since?: number;
}

export class ApprovalsRepo {
  constructor(private readonly db: Db) {}

  insertPending(a: NewApproval): void {
    this.db
      .prepare(
        `INSERT INTO approvals (id, call_id, session_id, turn_id, tool, args_redacted, content_hash, class, effects, reason, segment, floor, outcomes, proposed_grant, created_at, expires_at, owner, status, preview, review, origin, parts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)`,
      )
      .run(a.id, a.call_id, a.session_id, a.turn_id, a.tool, JSON.stringify(a.args_redacted), a.content_hash, a.class, JSON.stringify(a.effects), a.reason, a.segment ? JSON.stringify(a.segment) : null, a.floor, JSON.stringify(a.outcomes), a.proposed_grant ? JSON.stringify(a.proposed_grant) : null, a.created_at, a.expires_at, a.owner, a.preview ?? null, a.review ? JSON.stringify(a.review) : null, a.origin ? JSON.stringify(a.origin) : null, a.parts ? JSON.stringify(a.parts) : null);
  }

  /** Records an approval that was decided the moment it was asked (no_approver, session approve-all). */
  insertDecided(a: NewApproval, d: DecisionFields): void {
    this.db.transaction(() => {
      this.insertPending(a);
      this.decide(a.id, d);
    })();
  }

  /** Compare-and-set: true when this call decided it, false when it was already decided (or unknown). */
  decide(id: string, d: DecisionFields): boolean {
    const r = this.db
      .prepare(
        `UPDATE approvals SET status = 'decided', outcome = ?, decided_at = ?, decided_by = ?, decider = ?, note = ?, grant_ids = ?, follow_up = ?
         WHERE id = ? AND status = 'pending'`,
      )
      .run(d.outcome, d.decided_at, formatDecidedBy(d.by), JSON.stringify(d.by), d.note ?? null, d.grant_ids?.length ? JSON.stringify(d.grant_ids) : null, d.follow_up ?? null, id);
    return r.changes === 1;
  }

  get(id: string): ApprovalRow | undefined {
    return this.db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRow | undefined;
  }

  pendingView(id: string, currentOwner: string): PendingApproval | undefined {
    const row = this.db.prepare("SELECT a.*, c.cwd AS call_cwd FROM approvals a LEFT JOIN tool_calls c ON c.id = a.call_id WHERE a.id = ? AND a.status = 'pending'").get(id) as ApprovalRow | undefined;
    return row ? toPending(row, currentOwner) : undefined;
  }

  listPending(currentOwner: string): PendingApproval[] {
    const rows = this.db.prepare("SELECT a.*, c.cwd AS call_cwd FROM approvals a LEFT JOIN tool_calls c ON c.id = a.call_id WHERE a.status = 'pending' ORDER BY a.created_at, a.rowid").all() as ApprovalRow[];
    return rows.map((r) => toPending(r, currentOwner));
  }

  /** Pending rows whose waiter belonged to another (dead) process. */
  listOrphans(currentOwner: string): ApprovalRow[] {
    return this.db.prepare("SELECT * FROM approvals WHERE status = 'pending' AND owner != ? ORDER BY created_at").all(currentOwner) as ApprovalRow[];
  }

  pendingForTurn(turnId: string): ApprovalRow[] {
    return this.db.prepare("SELECT * FROM approvals WHERE status = 'pending' AND turn_id = ?").all(turnId) as ApprovalRow[];
  }

  /** approve_session: an identical call (same content hash) in the session runs without a prompt. */
  sessionApprovedHash(sessionId: string, hash: string): string | null {
    const row = this.db
      .prepare("SELECT id FROM approvals WHERE session_id = ? AND content_hash = ? AND outcome = 'approve_session' AND session_revoked_at IS NULL LIMIT 1")
      .get(sessionId, hash) as { id: string } | undefined;
    return row?.id ?? null;
  }

  /** Approvals for the session (approve_session) still in force, the newest first. */
  listSessionApprovals(limit = 500): ApprovalRow[] {
    return this.db.prepare("SELECT * FROM approvals WHERE outcome = 'approve_session' AND session_revoked_at IS NULL ORDER BY decided_at DESC LIMIT ?").all(limit) as ApprovalRow[];
  }

  /** Ends an approval for the session: identical calls ask again. False when it is not one in force. */
  revokeSessionApproval(id: string, at: number): boolean {
    return this.db.prepare("UPDATE approvals SET session_revoked_at = ? WHERE id = ? AND outcome = 'approve_session' AND session_revoked_at IS NULL").run(at, id).changes === 1;
  }

  /** The later calls an approval for the session let through (decided by `approval:<id>:approve_session`). */
  sessionApprovalUses(sessionId: string, id: string): { count: number; last: number | null } {
    const r = this.db
      .prepare("SELECT count(*) AS n, max(created_at) AS last FROM tool_calls WHERE session_id = ? AND json_extract(decider, '$.kind') = 'earlier_approval' AND json_extract(decider, '$.approvalId') = ? AND json_extract(decider, '$.via') = 'approve_session'")
      .get(sessionId, id) as { n: number; last: number | null };
    return { count: r.n, last: r.last };
  }

  /** The calls a session's approve-all answered since it began: how many, and the last one's time. */
  approveAllUses(sessionId: string, since: number): { count: number; last: number | null } {
    const r = this.db
      .prepare("SELECT count(*) AS n, max(decided_at) AS last FROM approvals WHERE session_id = ? AND json_extract(decider, '$.kind') = 'session_approve_all' AND decided_at >= ?")
      .get(sessionId, since) as { n: number; last: number | null };
    return { count: r.n, last: r.last };
  }

  /** An orphan approved after a restart, waiting for the follow-up turn to re-issue the same call. */
  followUpFor(sessionId: string, hash: string): ApprovalRow | undefined {
    return this.db
      .prepare("SELECT * FROM approvals WHERE session_id = ? AND content_hash = ? AND follow_up = 'awaiting' ORDER BY decided_at LIMIT 1")
      .get(sessionId, hash) as ApprovalRow | undefined;
  }

  awaitingFollowUps(sessionId?: string): DecisionRecord[] {
    const rows = (
      sessionId
        ? this.db.prepare("SELECT * FROM approvals WHERE follow_up = 'awaiting' AND session_id = ? ORDER BY decided_at").all(sessionId)
        : this.db.prepare("SELECT * FROM approvals WHERE follow_up = 'awaiting' ORDER BY decided_at").all()
    ) as ApprovalRow[];
    return rows.map((r) => toDecision(r, null));
  }

  consumeFollowUp(id: string, callId: string): boolean {
    return this.db.prepare("UPDATE approvals SET follow_up = 'consumed', follow_up_call_id = ? WHERE id = ? AND follow_up = 'awaiting'").run(callId, id).changes === 1;
  }

  listDecisions(f: DecisionFilter = {}): DecisionRecord[] {
    const where = ["a.status = 'decided'"];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      where.push(clause);
      params.push(value);
    };
    if (f.session_id) add('a.session_id = ?', f.session_id);
    if (f.outcome) add('a.outcome = ?', f.outcome);
    if (f.tool) add('a.tool = ?', f.tool);
    if (f.since !== undefined) add('a.decided_at >= ?', f.since);
    params.push(f.limit ?? 50);
    return this.decisions(`${where.join(' AND ')} ORDER BY a.decided_at DESC, a.rowid DESC LIMIT ?`, params);
  }

  /** One decision, as history shows it (read back inside the transaction that wrote it). */
  getDecision(id: string): DecisionRecord | undefined {
    return this.decisions("a.status = 'decided' AND a.id = ?", [id])[0];
  }

  private decisions(whereAndOrder: string, params: unknown[]): DecisionRecord[] {
    const rows = this.db
      .prepare(
        `SELECT a.*, o.status AS x_status, o.exit_code AS x_exit_code, o.signal AS x_signal, o.duration_ms AS x_duration_ms, o.error AS x_error, o.recorded_at AS x_recorded_at
         FROM approvals a LEFT JOIN outcomes o ON o.call_id = COALESCE(a.follow_up_call_id, a.call_id)
         WHERE ${whereAndOrder}`,
      )
      .all(...params) as (ApprovalRow & Record<string, unknown>)[];
    return rows.map((r) => toDecision(r, outcomeOfJoinedRow(r)));
  }
}

function toPending(r: ApprovalRow, currentOwner: string): PendingApproval {
  return {
    id: r.id,
    session_id: r.session_id,
    turn_id: r.turn_id,
    call_id: r.call_id,
    tool: r.tool,
    args: JSON.parse(r.args_redacted) as unknown,
    hash: r.content_hash,
    class: r.class as Class,
    effects: JSON.parse(r.effects) as Effect[],
    reason: r.reason,
    segment: r.segment ? (JSON.parse(r.segment) as { index: number; text: string }) : null,
    floor: r.floor,
    outcomes: JSON.parse(r.outcomes) as HumanOutcome[],
    proposed_grant: r.proposed_grant ? (JSON.parse(r.proposed_grant) as ProposedGrant) : null,
    created_at: r.created_at,
    expires_at: r.expires_at,
    orphan: r.owner !== currentOwner,
    preview: r.preview,
    // Only a reviewed call carries the key, so an unreviewed card's shape is unchanged.
    ...(r.review ? { review: JSON.parse(r.review) as ReviewReport } : {}),
    origin: parseOrigin(r.origin),
    cwd: r.call_cwd ?? null,
    parts: r.parts ? (JSON.parse(r.parts) as CallPart[]) : null,
  };
}

function toDecision(r: ApprovalRow, execution: DecisionRecord['execution']): DecisionRecord {
  return {
    id: r.id,
    session_id: r.session_id,
    call_id: r.call_id,
    tool: r.tool,
    args: JSON.parse(r.args_redacted) as unknown,
    hash: r.content_hash,
    class: r.class as Class,
    reason: r.reason,
    outcome: r.outcome!,
    decided_by: r.decided_by ?? '',
    by: r.decider ? (JSON.parse(r.decider) as DecidedBy) : null,
    decided_at: r.decided_at ?? 0,
    created_at: r.created_at,
    note: r.note,
    grant_ids: r.grant_ids ? (JSON.parse(r.grant_ids) as string[]) : [],
    follow_up: r.follow_up,
    follow_up_call_id: r.follow_up_call_id ?? null,
    execution,
  };
}

export type { ApprovalRow };
