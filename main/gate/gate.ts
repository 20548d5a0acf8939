// The approval gate: every tool call with an effect passes here. It evaluates the call against the
// current policy; an `ask` becomes a durable, fail-closed approval: the waiter is registered first, then
// the pending row is persisted, then approval.requested is broadcast. A decision names the approval and
// the content hash it was shown; the first one wins. TTL expiry re-reads the stored decision first.
import type { DecisionRecord, GrantDuration, HumanOutcome, Outcome, PendingApproval, ProposedGrant } from '../../common/approvals';
import { HUMAN_OUTCOMES, isApproval } from '../../common/approvals';
import type { Grant, GrantPattern, Level } from '../../common/domain';
import { decide as decidePolicy, type Evaluation, type PolicyRules } from '../policy/evaluate';
import { coverCall } from '../policy/grants';
import type { PathContext } from '../policy/paths';
import { describeCall, type CallFacts, type McpToolDeclaration } from '../policy/tools';
import type { Redactor } from '../redact/redactor';
import { clip, redactedJson, sanitiseErrorText } from '../redact/redactor';
import { toPolicyGrant } from '../store/grants-repo';
import { newId } from '../store/ids';
import type { Store } from '../store/store';
import type { ApproverRegistry } from './approvers';
import { contentHash } from './content-hash';
import type { EventBus } from './events';
import { observeCall } from './observe';
import { availableOutcomes, grantPatternProblem, grantScope, proposeGrant } from './proposals';

export interface GateCall {
  /** Our id for the call; generated when absent. */
  callId?: string;
  sessionId: string;
  turnId: string | null;
  /** Reactive: someone is there. Unattended: every ask is denied as no_approver. */
  turnKind: 'reactive' | 'unattended';
  tool: string;
  args: unknown;
  /** Absolute directory the call runs in. */
  cwd: string;
  /** Names of the environment variables it runs with (values never leave memory). */
  envKeys?: readonly string[];
  /** What the call would change, shown on the card (a diff for file edits). */
  preview?: string | null;
}

export interface GateVerdict {
  /** The call may run. */
  run: boolean;
  /** The turn must stop (deny, expiry, cancellation). */
  stopTurn: boolean;
  callId: string;
  hash: string;
  evaluation: Evaluation;
  /** Set when the call asked. */
  approvalId: string | null;
  outcome: Outcome | null;
  /** What the model is told when the call does not run. */
  message: string;
  /** A note the person left with a deny. */
  note: string | null;
}

export interface PolicySource {
  level(): Level;
  rules(): PolicyRules;
  configGrants(): readonly Grant[];
  paths(): PathContext;
  mcpTools?(): Readonly<Record<string, McpToolDeclaration>> | undefined;
}

export interface GateOptions {
  store: Store;
  redactor: Redactor;
  events: EventBus;
  approvers: ApproverRegistry;
  policy: PolicySource;
  /** How long a parked approval waits; 0 waits indefinitely. */
  ttlMs: number;
  /** Identifies this process's waiters; pending rows of any other owner are orphans. */
  runtimeId: string;
  now?: () => number;
}

export type GateError = { code: 'not_found' | 'already_decided' | 'hash_mismatch' | 'outcome_unavailable' | 'invalid_outcome' | 'invalid_grant' | 'store_failed'; message: string };
export type DecideResult = { ok: true; value: DecisionRecord } | { ok: false; error: GateError };

export interface DecideRequest {
  approvalId: string;
  hash: string;
  outcome: string;
  /** Which surface decided: desktop, web, control. */
  surface: string;
  note?: string | null;
  /** For approve_always: the grant as edited on the card (defaults to the proposal) and its duration. */
  grant?: { patterns?: GrantPattern[]; duration?: GrantDuration };
}

interface Waiter {
  resolve: (r: { outcome: Outcome; note: string | null }) => void;
  timer: NodeJS.Timeout | null;
  sessionId: string;
  turnId: string | null;
  facts: CallFacts;
  /** The exact call, kept in memory only while it is pending. */
  call: GateCall;
  /** The proposal as computed (unredacted paths); the stored one is the display form. */
  proposal: ProposedGrant | null;
}

export class ApprovalGate {
  private readonly waiters = new Map<string, Waiter>();
  private readonly now: () => number;
  private readonly orphanTimers = new Map<string, NodeJS.Timeout>();
  private disposed = false;

  constructor(private readonly o: GateOptions) {
    this.now = o.now ?? Date.now;
    this.scheduleOrphanExpiry();
  }

  get runtimeId(): string {
    return this.o.runtimeId;
  }

  private policyContext(sessionId: string | null) {
    const now = this.now();
    const stored = this.o.store.grants.list({ active: true, now }).map(toPolicyGrant);
    return {
      level: this.o.policy.level(),
      rules: this.o.policy.rules(),
      grants: [...this.o.policy.configGrants(), ...stored],
      paths: this.o.policy.paths(),
      now,
      sessionId,
      mcpTools: this.o.policy.mcpTools?.(),
    };
  }

  /** Judges a call and, when it asks, waits for a decision. Never throws: failures refuse the call. */
  async review(call: GateCall, signal?: AbortSignal): Promise<GateVerdict> {
    const callId = call.callId ?? newId('call');
    const hash = contentHash(call);
    const ctx = this.policyContext(call.sessionId);
    const described = describeCall(call.tool, call.args, { ctx: ctx.paths, cwd: call.cwd, mcpTools: ctx.mcpTools, observed: observeCall(call.tool, call.args, call.cwd, ctx.paths) });
    let evaluation: Evaluation;
    let facts: CallFacts | null = null;
    if (described.ok) {
      facts = described.facts;
      evaluation = decidePolicy(facts, ctx);
    } else {
      evaluation = invalidCallEvaluation(call.tool, described.code, described.message);
    }
    const argsRedacted = await this.o.redactor.redactValue(call.args ?? {});
    const explanation = this.o.redactor.redactTextSync(evaluation.explanation);
    const verdict = (run: boolean, extra: Partial<GateVerdict> = {}): GateVerdict => ({
      run,
      stopTurn: false,
      callId,
      hash,
      evaluation,
      approvalId: null,
      outcome: null,
      message: run ? '' : explanation,
      note: null,
      ...extra,
    });

    // Record the call (redacted) before anything is decided about it.
    try {
      this.o.store.transaction(() => {
        const at = this.now();
        this.o.store.sessions.ensure(call.sessionId, at);
        if (call.turnId) this.o.store.sessions.startTurn({ id: call.turnId, session_id: call.sessionId, kind: call.turnKind, started_at: at });
        this.o.store.calls.insert({
          id: callId,
          session_id: call.sessionId,
          turn_id: call.turnId,
          tool: call.tool,
          args_redacted: redactedJson(argsRedacted),
          content_hash: hash,
          cwd: call.cwd ? this.o.redactor.redactTextSync(call.cwd) : null,
          class: evaluation.class,
          effects: JSON.stringify(evaluation.effects),
          decision: evaluation.decision,
          decided_by: evaluation.decidedBy,
          explanation,
          state: 'classifying',
          created_at: at,
        });
      });
    } catch (err) {
      return verdict(false, { message: `Threshold could not record this call (${sanitiseErrorText(this.o.redactor, (err as Error).message)}), so it was refused.` });
    }

    if (evaluation.decision === 'allow') {
      this.recordPolicyDecision(call, callId, evaluation, 'scheduled', { by: evaluation.decidedBy, grants: evaluation.grants });
      return verdict(true);
    }
    if (evaluation.decision === 'deny') {
      this.recordPolicyDecision(call, callId, evaluation, 'denied', { by: evaluation.decidedBy });
      return verdict(false);
    }

    // ask: an earlier human decision may already cover exactly this call.
    const sessionApproval = this.o.store.approvals.sessionApprovedHash(call.sessionId, hash);
    if (sessionApproval) {
      this.recordPolicyDecision(call, callId, evaluation, 'scheduled', { by: `approval:${sessionApproval}:approve_session` });
      return verdict(true, { approvalId: sessionApproval, outcome: 'approve_session' });
    }
    const followUp = this.o.store.approvals.followUpFor(call.sessionId, hash);
    if (followUp && followUp.turn_id !== call.turnId && this.o.store.approvals.consumeFollowUp(followUp.id, callId)) {
      this.recordPolicyDecision(call, callId, evaluation, 'scheduled', { by: `approval:${followUp.id}:follow_up` });
      return verdict(true, { approvalId: followUp.id, outcome: followUp.outcome });
    }

    // A grant is stored as written, so a proposal that holds a secret is not offered at all.
    let proposal = facts ? proposeGrant(facts, evaluation, ctx.paths) : null;
    const proposalShown = proposal ? await this.o.redactor.redactValue(proposal) : null;
    if (proposalShown && JSON.stringify(proposalShown).includes('[REDACTED:')) proposal = null;
    const outcomes = availableOutcomes(evaluation, proposal);
    const approvalId = newId('ap');
    const created = this.now();
    const ttl = this.o.ttlMs;
    const row = {
      id: approvalId,
      call_id: callId,
      session_id: call.sessionId,
      turn_id: call.turnId,
      tool: call.tool,
      args_redacted: argsRedacted,
      content_hash: hash,
      class: evaluation.class,
      effects: evaluation.effects,
      reason: explanation,
      segment: evaluation.segment ? { index: evaluation.segment.index, text: this.o.redactor.redactTextSync(evaluation.segment.text) } : null,
      floor: evaluation.floor,
      outcomes,
      proposed_grant: proposal ? proposalShown : null,
      created_at: created,
      expires_at: ttl > 0 ? created + ttl : null,
      owner: this.o.runtimeId,
      preview: call.preview ? clip(this.o.redactor.redactTextSync(call.preview), 64 * 1024) : null,
    };

    // Session-wide approval (approve_all_session) answers non-floor asks, recorded as such.
    const session = this.o.store.sessions.get(call.sessionId);
    if (session?.approve_all_at && outcomes.includes('approve_all_session')) {
      const record = this.decideAtOnce(row, 'approve_all_session', 'session_approve_all', callId);
      if (record) return verdict(true, { approvalId, outcome: 'approve_all_session' });
    }

    // Nobody can answer: fail closed at once.
    if (call.turnKind === 'unattended' || !this.o.approvers.available()) {
      const by = call.turnKind === 'unattended' ? 'unattended_turn' : 'no_approver_surface';
      this.decideAtOnce(row, 'no_approver', by, callId);
      const why = call.turnKind === 'unattended' ? 'this turn runs unattended, so nobody can approve it' : 'no approver is connected (no window, web client or control API)';
      return verdict(false, { approvalId, outcome: 'no_approver', message: `Refused without asking: ${why}. ${explanation}` });
    }

    // Park: the waiter exists before the row, so a decision can never arrive before its waiter.
    let resolveWaiter!: Waiter['resolve'];
    const decided = new Promise<{ outcome: Outcome; note: string | null }>((resolve) => (resolveWaiter = resolve));
    const waiter: Waiter = { resolve: resolveWaiter, timer: null, sessionId: call.sessionId, turnId: call.turnId, facts: facts!, call, proposal };
    this.waiters.set(approvalId, waiter);
    try {
      this.o.store.transaction(() => {
        this.o.store.approvals.insertPending(row);
        this.o.store.calls.setState(callId, 'awaiting_approval', created);
        this.o.store.audit.append({ at: created, kind: 'approval.requested', session_id: call.sessionId, subject: approvalId, data: this.o.redactor.redactRecord({ call_id: callId, tool: call.tool, args: argsRedacted, hash, class: evaluation.class, reason: explanation, expires_at: row.expires_at }, ['hash']) });
      });
    } catch (err) {
      this.waiters.delete(approvalId);
      const why = sanitiseErrorText(this.o.redactor, (err as Error).message);
      this.tryAudit({ at: this.now(), kind: 'approval.persist_failed', session_id: call.sessionId, subject: callId, data: this.o.redactor.redactRecord({ tool: call.tool, error: why }) });
      this.trySetState(callId, 'denied');
      return verdict(false, { message: `Threshold could not record the approval request (${why}), so the call was refused.` });
    }
    if (ttl > 0) waiter.timer = setTimeout(() => this.expire(approvalId), ttl);
    const onAbort = () => this.cancelApproval(approvalId, 'turn_stopped');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    const pending = this.o.store.approvals.pendingView(approvalId, this.o.runtimeId);
    if (pending) this.o.events.emit('approval.requested', pending);

    const { outcome, note } = await decided;
    signal?.removeEventListener('abort', onAbort);
    return verdict(isApproval(outcome), { approvalId, outcome, note, stopTurn: outcome === 'deny' || outcome === 'expired' || outcome === 'cancelled', message: isApproval(outcome) ? '' : refusalMessage(outcome, note) });
  }

  /** Records an approval decided the moment it was asked (approve-all, no approver). */
  private decideAtOnce(row: Parameters<Store['approvals']['insertPending']>[0], outcome: Outcome, by: string, callId: string): DecisionRecord | null {
    const at = this.now();
    try {
      this.o.store.transaction(() => {
        this.o.store.approvals.insertDecided(row, { outcome, decided_at: at, decided_by: by });
        this.o.store.calls.setState(callId, isApproval(outcome) ? 'scheduled' : 'denied', at);
        this.o.store.audit.append({ at, kind: 'approval.decided', session_id: row.session_id, subject: row.id, data: this.o.redactor.redactRecord({ call_id: callId, tool: row.tool, args: row.args_redacted, hash: row.content_hash, outcome, decided_by: by }, ['hash']) });
      });
    } catch {
      return null;
    }
    const record = this.o.store.approvals.listDecisions({ session_id: row.session_id, limit: 1 })[0] ?? null;
    if (record) this.o.events.emit('approval.decided', record);
    return record;
  }

  private recordPolicyDecision(call: GateCall, callId: string, e: Evaluation, state: string, d: { by: string; grants?: string[] }): void {
    const at = this.now();
    try {
      this.o.store.transaction(() => {
        this.o.store.calls.setState(callId, state, at);
        if (d.grants?.length) this.o.store.grants.recordUse(d.grants, at);
        this.o.store.audit.append({ at, kind: 'call.decided', session_id: call.sessionId, subject: callId, data: this.o.redactor.redactRecord({ tool: call.tool, decision: e.decision, decided_by: d.by, class: e.class }) });
      });
    } catch {
      // The call was already recorded; a failed state update must not change the decision.
    }
  }

  /** A person (or a surface on their behalf) decides a pending approval. */
  async decideApproval(req: DecideRequest): Promise<DecideResult> {
    const fail = (code: GateError['code'], message: string): DecideResult => ({ ok: false, error: { code, message } });
    if (!(HUMAN_OUTCOMES as readonly string[]).includes(req.outcome)) {
      return fail('invalid_outcome', `"${req.outcome}" is not an outcome a person can choose (one of ${HUMAN_OUTCOMES.join(', ')}).`);
    }
    const outcome = req.outcome as HumanOutcome;
    const row = this.o.store.approvals.get(req.approvalId);
    if (!row) return fail('not_found', `There is no approval ${req.approvalId}.`);
    if (row.status === 'decided') return fail('already_decided', `Approval ${row.id} was already decided: ${row.outcome} by ${row.decided_by}.`);
    if (row.content_hash !== req.hash) {
      return fail('hash_mismatch', `The hash ${req.hash.slice(0, 12)}… is not the content of approval ${row.id} (${row.content_hash.slice(0, 12)}…): the decision must name what was shown.`);
    }
    const offered = JSON.parse(row.outcomes) as HumanOutcome[];
    if (!offered.includes(outcome)) return fail('outcome_unavailable', `"${outcome}" is not offered for approval ${row.id} (offered: ${offered.join(', ')}).`);

    const waiter = this.waiters.get(row.id);
    const at = this.now();
    const note = req.note ? clip(this.o.redactor.redactTextSync(req.note), 2000) : null;
    let grants: Grant[] = [];
    if (outcome === 'approve_always') {
      const built = this.buildGrants(row, req, waiter, at);
      if (!built.ok) return fail('invalid_grant', built.message);
      grants = built.grants;
    }
    const orphan = row.owner !== this.o.runtimeId || !waiter;
    let decidedNow = false;
    try {
      this.o.store.transaction(() => {
        decidedNow = this.o.store.approvals.decide(row.id, {
          outcome,
          decided_at: at,
          decided_by: req.surface,
          note,
          grant_ids: grants.map((g) => g.id),
          follow_up: orphan && isApproval(outcome) ? 'awaiting' : null,
        });
        if (!decidedNow) return;
        for (const g of grants) {
          // buildGrants refused a pattern with a secret; what is stored is the pattern's redacted form.
          const stored = this.o.redactor.redactGrantPattern(g.pattern);
          if (!stored.ok) throw new Error(stored.message);
          this.o.store.grants.insert({
            id: g.id,
            tool: g.tool,
            pattern: stored.pattern,
            scope: g.scope,
            session_id: g.sessionId ?? null,
            expires_at: g.expiresAt ?? null,
            source: 'approval',
            source_session_id: row.session_id,
            source_call_id: row.call_id,
            created_at: at,
            note: null,
          });
          this.o.store.audit.append({ at, kind: 'grant.created', session_id: row.session_id, subject: g.id, data: this.o.redactor.redactRecord({ tool: g.tool, pattern: g.pattern, scope: g.scope, expires_at: g.expiresAt ?? null, approval_id: row.id }) });
        }
        if (outcome === 'approve_all_session') this.o.store.sessions.setApproveAll(row.session_id, at, row.id);
        this.o.store.calls.setState(row.call_id, isApproval(outcome) ? 'scheduled' : 'refused', at);
        this.o.store.audit.append({ at, kind: 'approval.decided', session_id: row.session_id, subject: row.id, data: this.o.redactor.redactRecord({ call_id: row.call_id, tool: row.tool, hash: row.content_hash, outcome, decided_by: req.surface, note, orphan, grant_ids: grants.map((g) => g.id) }, ['hash']) });
      });
    } catch (err) {
      return fail('store_failed', `The decision could not be recorded: ${sanitiseErrorText(this.o.redactor, (err as Error).message)}. Nothing changed; try again.`);
    }
    if (!decidedNow) {
      const again = this.o.store.approvals.get(row.id);
      return fail('already_decided', `Approval ${row.id} was already decided: ${again?.outcome} by ${again?.decided_by}.`);
    }
    const record = this.o.store.approvals.listDecisions({ session_id: row.session_id, limit: 20 }).find((d) => d.id === row.id)!;
    for (const id of grants.map((g) => g.id)) {
      const g = this.o.store.grants.get(id);
      if (g) this.o.events.emit('grant.created', g);
    }
    this.o.events.emit('approval.decided', record);
    if (waiter) this.settle(row.id, outcome, note);
    if (outcome === 'approve_all_session') this.approveSessionPending(row.session_id, row.id);
    this.clearOrphanTimer(row.id);
    return { ok: true, value: record };
  }

  private buildGrants(
    row: NonNullable<ReturnType<Store['approvals']['get']>>,
    req: DecideRequest,
    waiter: Waiter | undefined,
    at: number,
  ): { ok: true; grants: Grant[] } | { ok: false; message: string } {
    const stored = row.proposed_grant ? (JSON.parse(row.proposed_grant) as ProposedGrant) : null;
    const patterns = req.grant?.patterns ?? waiter?.proposal?.patterns ?? stored?.patterns;
    if (!patterns || patterns.length === 0) return { ok: false, message: 'approve_always needs a grant pattern, and this call has no proposal.' };
    const duration = req.grant?.duration ?? 'always';
    const scope = grantScope(duration, at, row.session_id);
    const grants: Grant[] = [];
    for (const p of patterns) {
      const problem = grantPatternProblem(row.tool, p, duration);
      if (problem) return { ok: false, message: problem };
      const stored = this.o.redactor.redactGrantPattern(p);
      if (!stored.ok) return { ok: false, message: stored.message };
      grants.push({ id: newId('gr'), tool: row.tool, pattern: p, ...scope, provenance: { source: 'approval', sessionId: row.session_id, callId: row.call_id }, createdAt: at });
    }
    // An edited grant must still cover the call it approves: otherwise it is a control that does nothing here.
    if (waiter) {
      const coverage = coverCall(waiter.facts, grants, this.o.policy.paths(), { now: at, sessionId: row.session_id });
      if (!coverage.covered) return { ok: false, message: 'The edited grant does not cover this call; widen the pattern or choose approve_once.' };
    }
    return { ok: true, grants };
  }

  /** After approve_all_session, the session's other pending non-floor asks are approved too. */
  private approveSessionPending(sessionId: string, by: string): void {
    for (const p of this.o.store.approvals.listPending(this.o.runtimeId)) {
      if (p.session_id !== sessionId || p.orphan || !p.outcomes.includes('approve_all_session')) continue;
      const at = this.now();
      let ok = false;
      this.o.store.transaction(() => {
        ok = this.o.store.approvals.decide(p.id, { outcome: 'approve_all_session', decided_at: at, decided_by: 'session_approve_all' });
        if (ok) this.o.store.audit.append({ at, kind: 'approval.decided', session_id: sessionId, subject: p.id, data: this.o.redactor.redactRecord({ call_id: p.call_id, outcome: 'approve_all_session', decided_by: 'session_approve_all', via: by }) });
      });
      if (ok) this.settle(p.id, 'approve_all_session', null);
    }
  }

  /** TTL: the stored decision wins if one committed in the race; otherwise the approval expires. */
  private expire(approvalId: string): void {
    const at = this.now();
    let expiredNow = false;
    let row: ReturnType<Store['approvals']['get']>;
    try {
      this.o.store.transaction(() => {
        expiredNow = this.o.store.approvals.decide(approvalId, { outcome: 'expired', decided_at: at, decided_by: 'ttl' });
        row = this.o.store.approvals.get(approvalId);
        if (expiredNow && row) {
          this.o.store.calls.setState(row.call_id, 'refused', at);
          this.o.store.audit.append({ at, kind: 'approval.decided', session_id: row.session_id, subject: approvalId, data: this.o.redactor.redactRecord({ call_id: row.call_id, outcome: 'expired', decided_by: 'ttl' }) });
        }
      });
    } catch {
      // The store is failing: the call still must not run.
      this.settle(approvalId, 'expired', null);
      return;
    }
    const stored = row!;
    if (!stored) return this.settle(approvalId, 'expired', null);
    if (!expiredNow && stored.outcome) return this.settle(approvalId, stored.outcome, stored.note);
    const record = this.o.store.approvals.listDecisions({ session_id: stored.session_id, limit: 20 }).find((d) => d.id === approvalId);
    if (record) this.o.events.emit('approval.decided', record);
    this.settle(approvalId, 'expired', null);
  }

  /** Cancels one pending approval (its turn stopped). */
  cancelApproval(approvalId: string, by: string): void {
    // After dispose (quitting) approvals stay pending in the store: the next start lists them as orphans.
    if (this.disposed) return;
    const at = this.now();
    let cancelled = false;
    try {
      this.o.store.transaction(() => {
        cancelled = this.o.store.approvals.decide(approvalId, { outcome: 'cancelled', decided_at: at, decided_by: by });
        const row = this.o.store.approvals.get(approvalId);
        if (cancelled && row) {
          this.o.store.calls.setState(row.call_id, 'cancelled', at);
          this.o.store.audit.append({ at, kind: 'approval.decided', session_id: row.session_id, subject: approvalId, data: this.o.redactor.redactRecord({ call_id: row.call_id, outcome: 'cancelled', decided_by: by }) });
        }
      });
    } catch {
      // fall through: the waiter is released as cancelled regardless
    }
    const row = this.o.store.approvals.get(approvalId);
    if (!cancelled && row?.outcome) return this.settle(approvalId, row.outcome, row.note);
    this.settle(approvalId, 'cancelled', null);
  }

  /** Cancels every pending approval of a turn (stop). */
  cancelTurn(turnId: string): void {
    for (const [id, w] of this.waiters) if (w.turnId === turnId) this.cancelApproval(id, 'turn_stopped');
  }

  private settle(approvalId: string, outcome: Outcome, note: string | null): void {
    const w = this.waiters.get(approvalId);
    if (!w) return;
    this.waiters.delete(approvalId);
    if (w.timer) clearTimeout(w.timer);
    w.resolve({ outcome, note });
  }

  listPending(): PendingApproval[] {
    return this.o.store.approvals.listPending(this.o.runtimeId).map((p) => ({ ...p, orphan: p.orphan || !this.waiters.has(p.id) }));
  }

  /** Orphans approved after a restart, waiting for a follow-up turn to re-issue them. */
  awaitingFollowUps(sessionId?: string): DecisionRecord[] {
    return this.o.store.approvals.awaitingFollowUps(sessionId);
  }

  /** Orphans still expire with their TTL, so a forgotten one does not linger. */
  private scheduleOrphanExpiry(): void {
    for (const row of this.o.store.approvals.listOrphans(this.o.runtimeId)) {
      if (row.expires_at === null) continue;
      const delay = Math.max(0, row.expires_at - this.now());
      this.orphanTimers.set(row.id, setTimeout(() => this.expireOrphan(row.id), delay));
    }
  }

  private expireOrphan(id: string): void {
    this.orphanTimers.delete(id);
    if (this.disposed) return;
    const at = this.now();
    this.o.store.transaction(() => {
      const row = this.o.store.approvals.get(id);
      if (row && this.o.store.approvals.decide(id, { outcome: 'expired', decided_at: at, decided_by: 'ttl' })) {
        this.o.store.audit.append({ at, kind: 'approval.decided', session_id: row.session_id, subject: id, data: this.o.redactor.redactRecord({ call_id: row.call_id, outcome: 'expired', decided_by: 'ttl', orphan: true }) });
      }
    });
  }

  private clearOrphanTimer(id: string): void {
    const t = this.orphanTimers.get(id);
    if (t) clearTimeout(t);
    this.orphanTimers.delete(id);
  }

  private tryAudit(e: Parameters<Store['audit']['append']>[0]): void {
    try {
      this.o.store.transaction(() => this.o.store.audit.append(e));
    } catch {
      process.emitWarning(`Threshold could not write an audit entry (${e.kind}).`);
    }
  }

  private trySetState(callId: string, state: string): void {
    try {
      this.o.store.calls.setState(callId, state, this.now());
    } catch {
      // best effort
    }
  }

  /**
   * Releases every waiter (as cancelled, in memory only) and timer: quitting stops everything that waits,
   * while the approvals stay pending in the store for the next start.
   */
  dispose(): void {
    this.disposed = true;
    for (const t of this.orphanTimers.values()) clearTimeout(t);
    this.orphanTimers.clear();
    for (const [id, w] of [...this.waiters]) {
      if (w.timer) clearTimeout(w.timer);
      this.waiters.delete(id);
      w.resolve({ outcome: 'cancelled', note: null });
    }
  }
}

function refusalMessage(outcome: Outcome, note: string | null): string {
  switch (outcome) {
    case 'skip':
      return 'The user skipped this call; it did not run. Continue with the rest of the task.';
    case 'deny':
      return `The user denied this call and stopped the turn.${note ? ` Their note: ${note}` : ''}`;
    case 'expired':
      return 'Nobody approved this call before its approval expired (this is not a refusal by the user); it did not run.';
    case 'cancelled':
      return 'The turn was stopped; this call did not run.';
    case 'no_approver':
      return 'No approver was available; the call did not run.';
    default:
      return 'The call did not run.';
  }
}

function invalidCallEvaluation(tool: string, code: string, message: string): Evaluation {
  return {
    decision: 'deny',
    tool,
    tier: null,
    class: 'write',
    effects: [],
    flags: [],
    hardline: false,
    reasons: [message],
    decidedBy: `tool:${code}`,
    segment: null,
    explanation: `Denied: ${message}`,
    floor: null,
    grants: [],
    reviewable: false,
  };
}
