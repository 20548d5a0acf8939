// The one transition function of a call's life. Each step checks that the move is legal (the state
// machine in common/call-state.ts), writes the call's new state with everything that goes with it (the
// approval's decision, grants, the outcome), appends the audit entry, all in one transaction, and
// returns what it wrote as history shows it. Events are emitted by its one caller after the commit
// (main/calls/record.ts), so nothing is ever broadcast that did not land.
import { isApproval, type DecisionRecord, type Outcome } from '../../common/approvals';
import type { CallState } from '../../common/call-state';
import { formatDecidedBy, type DecidedBy } from '../../common/decided-by';
import type { NewApproval } from './approvals-repo';
import { IllegalTransition, type CallRow, type NewCall } from './calls-repo';
import type { NewGrant } from './grants-repo';
import { OutcomeAlreadyRecorded, type NewOutcome } from './outcomes-repo';
import type { Redacted, Redactor } from '../redact/redactor';
import type { Store } from './store';
import type { ReviewReport } from '../../common/review';

/** Test hook: see main/gate/crash-hook.ts. Inert unless THRESHOLD_CRASH_AT names the stage. */
export type CrashHook = (stage: 'decision_write' | 'outcome_write') => void;

/**
 * Where a call's row belongs: its session and turn, made on the call's first step when they do not exist
 * yet (another agent's session comes with the title and project it is listed under).
 */
export interface CallPlace {
  sessionId: string;
  turnId: string | null;
  turnKind: 'reactive' | 'unattended';
  session?: { title: Redacted<string>; workspace: Redacted<string> };
}

export type Step =
  /** The call reached the gate: its row is written (redacted) before anything is decided. */
  | { kind: 'received'; call: NewCall; place: CallPlace }
  /** The policy allowed or denied at once (level, rule, grant, floor), or an earlier approval covers it. */
  | { kind: 'policy_decided'; callId: string; to: 'scheduled' | 'denied'; by: DecidedBy; grantIds?: readonly string[] }
  /** The call asks and a reviewer is consulted first (main/reviewer): it waits in `reviewing`. */
  | { kind: 'review_started'; callId: string; reviewers: readonly string[] }
  /** The call asks: the pending approval is stored (with the review that escalated it, if any). */
  | { kind: 'parked'; callId: string; approval: NewApproval }
  /** The store could not park it: refused. */
  | { kind: 'park_failed'; callId: string }
  /**
   * An approval is decided: by a person, the TTL, a stopped turn, approve-all, or at once when nobody can
   * answer (`insert`: the approval row is written decided). First decision wins: `decided` is false when
   * another decision committed first, and nothing is written.
   */
  | {
      kind: 'approval_decided';
      approvalId: string;
      outcome: Outcome;
      by: DecidedBy;
      note?: Redacted<string> | null;
      grants?: readonly NewGrant[];
      /** An orphan (its waiter is gone): approving it waits for a follow-up call; this call never runs itself. */
      orphan?: boolean;
      insert?: NewApproval;
      /** The approval whose approve_all_session answered this one. */
      via?: string;
    }
  /** A call the model made that never reached the policy (its turn stopped first): recorded, cancelled. */
  | { kind: 'never_reviewed'; call: NewCall; by: DecidedBy; place?: CallPlace }
  /** A question or a notification, which the agent answers itself (they are not permissions): recorded when done. */
  | { kind: 'handled_by_agent'; call: NewCall; by: DecidedBy; outcome: NewOutcome; place?: CallPlace }
  /** The call starts to run. */
  | { kind: 'started'; callId: string }
  /** Another agent's allowed call goes back to that agent, which runs it itself (its hook asked). */
  | { kind: 'handed_off'; callId: string; agent: string }
  /** How it ended: the write-once execution outcome. */
  | { kind: 'executed'; callId: string; outcome: NewOutcome; recovered?: boolean };

export interface StepResult {
  call: CallRow;
  /** approval_decided: the decision as history shows it (null when another decision won). */
  decision: DecisionRecord | null;
  /** approval_decided: false when the approval was already decided (nothing was written). */
  decided: boolean;
}

/** The state a decided approval moves its call to. */
export function stateAfter(outcome: Outcome, orphan: boolean): CallState {
  switch (outcome) {
    case 'approve_once':
    case 'approve_session':
    case 'approve_always':
    case 'approve_all_session':
      return orphan ? 'not_run' : 'scheduled';
    case 'cancelled':
      return 'cancelled';
    case 'no_approver':
      return 'denied';
    case 'skip':
    case 'deny':
    case 'expired':
      return 'refused';
  }
}

export class CallLifecycle {
  constructor(
    private readonly store: Store,
    /** Audit data is stored redacted like everything else (main/redact: only the redactor makes Redacted values). */
    private readonly redactor: Redactor,
    private readonly crash: CrashHook = () => undefined,
  ) {}

  /** Applies one step in one transaction; throws IllegalTransition (nothing written) for a move the machine refuses. */
  apply(step: Step, at: number): StepResult {
    return this.store.transaction(() => this.applyInTransaction(step, at));
  }

  private applyInTransaction(step: Step, at: number): StepResult {
    const s = this.store;
    switch (step.kind) {
      case 'received': {
        this.ensurePlace(step.place, at);
        s.calls.insert({ ...step.call, state: 'classifying' });
        return { call: s.calls.get(step.call.id)!, decision: null, decided: true };
      }
      case 'policy_decided': {
        const by = formatDecidedBy(step.by);
        const call = s.calls.transition(step.callId, step.to, at, step.by);
        if (step.grantIds?.length) s.grants.recordUse([...step.grantIds], at);
        s.audit.append({ at, kind: 'call.decided', session_id: call.session_id, subject: call.id, data: this.redactor.redactRecord({ tool: call.tool, decision: call.decision, decided_by: by, class: call.class }) });
        return { call, decision: null, decided: true };
      }
      case 'review_started': {
        const call = s.calls.transition(step.callId, 'reviewing', at);
        s.audit.append({ at, kind: 'review.started', session_id: call.session_id, subject: call.id, data: this.redactor.redactRecord({ tool: call.tool, reviewers: [...step.reviewers] }) });
        return { call, decision: null, decided: true };
      }
      case 'parked': {
        const a = step.approval;
        s.approvals.insertPending(a);
        const call = s.calls.transition(step.callId, 'awaiting_approval', at);
        if (a.review) s.audit.append({ at, kind: 'review.escalated', session_id: a.session_id, subject: a.id, data: this.redactor.redactRecord(reviewAudit(a.review)) });
        s.audit.append({ at, kind: 'approval.requested', session_id: a.session_id, subject: a.id, data: this.redactor.redactRecord({ call_id: call.id, tool: a.tool, args: a.args_redacted, hash: a.content_hash, class: a.class, reason: a.reason, expires_at: a.expires_at }, ['hash']) });
        return { call, decision: null, decided: true };
      }
      case 'park_failed': {
        const call = s.calls.transition(step.callId, 'denied', at);
        return { call, decision: null, decided: true };
      }
      case 'approval_decided':
        return this.decideApproval(step, at);
      case 'never_reviewed': {
        const by = formatDecidedBy(step.by);
        if (step.place) this.ensurePlace(step.place, at);
        s.calls.insert({ ...step.call, state: 'received' });
        const call = s.calls.transition(step.call.id, 'cancelled', at, step.by);
        s.audit.append({ at, kind: 'call.cancelled', session_id: call.session_id, subject: call.id, data: this.redactor.redactRecord({ tool: call.tool, decided_by: by }) });
        return { call, decision: null, decided: true };
      }
      case 'handled_by_agent': {
        if (step.place) this.ensurePlace(step.place, at);
        s.calls.insert({ ...step.call, decider: step.by, state: 'classifying' });
        s.calls.transition(step.call.id, 'scheduled', at);
        s.calls.transition(step.call.id, 'executing', at);
        const call = s.calls.transition(step.call.id, step.outcome.status, at);
        s.outcomes.record(call.id, step.outcome);
        s.audit.append({ at, kind: 'call.executed', session_id: call.session_id, subject: call.id, data: this.redactor.redactRecord({ ...step.outcome, tool: call.tool }) });
        return { call, decision: null, decided: true };
      }
      case 'handed_off': {
        const call = s.calls.transition(step.callId, 'handed_off', at);
        s.audit.append({ at, kind: 'call.handed_off', session_id: call.session_id, subject: call.id, data: this.redactor.redactRecord({ tool: call.tool, agent: step.agent }) });
        return { call, decision: null, decided: true };
      }
      case 'started': {
        const call = s.calls.transition(step.callId, 'executing', at);
        s.audit.append({ at, kind: 'call.started', session_id: call.session_id, subject: call.id, data: this.redactor.redactRecord({ tool: call.tool }) });
        return { call, decision: null, decided: true };
      }
      case 'executed': {
        if (s.outcomes.get(step.callId)) throw new OutcomeAlreadyRecorded(step.callId);
        const call = s.calls.transition(step.callId, step.outcome.status, at, step.recovered ? { kind: 'restart' } : undefined);
        s.outcomes.record(step.callId, step.outcome);
        this.crash('outcome_write');
        s.audit.append({ at, kind: 'call.executed', session_id: call.session_id, subject: call.id, data: this.redactor.redactRecord({ ...step.outcome, ...(step.recovered ? { recovered: true, decided_by: formatDecidedBy({ kind: 'restart' }) } : {}) }) });
        return { call, decision: null, decided: true };
      }
    }
  }

  /** The session and turn a call belongs to exist before its row. */
  private ensurePlace(p: CallPlace, at: number): void {
    this.store.sessions.ensure(p.sessionId, at, p.session ?? {});
    if (p.turnId) this.store.sessions.startTurn({ id: p.turnId, session_id: p.sessionId, kind: p.turnKind, started_at: at });
  }

  private decideApproval(step: Extract<Step, { kind: 'approval_decided' }>, at: number): StepResult {
    const s = this.store;
    const by = formatDecidedBy(step.by);
    const grantIds = (step.grants ?? []).map((g) => g.id);
    const fields = { outcome: step.outcome, decided_at: at, by: step.by, note: step.note ?? null, grant_ids: grantIds, follow_up: step.orphan && isApproval(step.outcome) ? ('awaiting' as const) : null };
    if (step.insert) s.approvals.insertPending(step.insert);
    const row = s.approvals.get(step.approvalId);
    if (!row) throw new IllegalTransition(step.approvalId, null, 'scheduled');
    if (!s.approvals.decide(step.approvalId, fields)) {
      const call = s.calls.get(row.call_id);
      if (!call) throw new IllegalTransition(row.call_id, null, 'scheduled');
      return { call, decision: null, decided: false };
    }
    for (const g of step.grants ?? []) {
      s.grants.insert(g);
      s.audit.append({ at, kind: 'grant.created', session_id: row.session_id, subject: g.id, data: this.redactor.redactRecord({ tool: g.tool, pattern: g.pattern, scope: g.scope, expires_at: g.expires_at, approval_id: row.id }, ['pattern']) });
    }
    if (step.outcome === 'approve_all_session') s.sessions.setApproveAll(row.session_id, at, row.id);
    if (step.insert?.review) s.audit.append({ at, kind: step.insert.review.outcome === 'approved' ? 'review.approved' : 'review.escalated', session_id: row.session_id, subject: row.id, data: this.redactor.redactRecord(reviewAudit(step.insert.review)) });
    const call = s.calls.transition(row.call_id, stateAfter(step.outcome, step.orphan ?? false), at, step.by);
    this.crash('decision_write');
    s.audit.append({
      at,
      kind: 'approval.decided',
      session_id: row.session_id,
      subject: row.id,
      data: this.redactor.redactRecord({ call_id: row.call_id, tool: row.tool, hash: row.content_hash, outcome: step.outcome, decided_by: by, note: fields.note, orphan: step.orphan ?? false, grant_ids: grantIds, ...(step.via ? { via: step.via } : {}) }, ['hash']),
    });
    return { call, decision: s.approvals.getDecision(row.id) ?? null, decided: true };
  }

  /**
   * After a crash or kill -9: every call the previous process was still working on ends now, visibly.
   * One that had started is interrupted; one that had not is not run. Returns the calls it ended.
   */
  recoverInFlight(at: number): CallRow[] {
    const ended: CallRow[] = [];
    for (const c of this.store.calls.listInFlight()) {
      const ran = c.state === 'executing';
      const outcome: NewOutcome = {
        status: ran ? 'interrupted' : 'not_run',
        exit_code: null,
        signal: null,
        duration_ms: null,
        error: this.redactor.redactTextSync(ran ? 'interrupted: Threshold stopped while it ran' : 'not run: Threshold stopped before it ran'),
        recorded_at: at,
      };
      try {
        ended.push(this.apply({ kind: 'executed', callId: c.id, outcome, recovered: true }, at).call);
      } catch (err) {
        // Another writer moved it meanwhile; it is no longer in flight.
        if (!(err instanceof IllegalTransition) && !(err instanceof OutcomeAlreadyRecorded)) throw err;
      }
    }
    return ended;
  }
}

/** What the audit keeps of a review: who answered, what, how fast, at what cost (the arguments are on the approval). */
function reviewAudit(r: ReviewReport): Record<string, unknown> {
  return { call_id: r.call_id, tool: r.tool, outcome: r.outcome, path: r.path, reason: r.reason, reviewers: r.reviewers, budget: r.budget, latency_ms: r.latency_ms, usage: r.usage };
}
