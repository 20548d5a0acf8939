// The approval gate: the decision about every tool call with an effect. It judges the call against the
// current policy (judge), answers at once when it can (shortcut), and otherwise parks it as a durable,
// fail-closed approval (park): the waiter is registered first, then the pending row is persisted, then
// approval.requested is broadcast. A decision names the approval and the content hash it was shown; the
// first one wins (decideApproval). TTL expiry re-reads the stored decision first. The gate decides; it
// writes nothing itself: every move it makes is handed to `commit`, the one transition function
// (main/calls/record.ts), which checks, writes, audits and broadcasts it. The call pipeline
// (main/calls/pipeline.ts) owns the call around it: it records the judged call, runs it, records how it ended.
import type { CallPart, DecisionRecord, GrantDuration, HumanOutcome, Outcome, PendingApproval, ProposedGrant } from '../../common/approvals';
import { HUMAN_OUTCOMES, PREVIEW_CUT_LINE, PREVIEW_MAX_CHARS, isApproval } from '../../common/approvals';
import type { DecidedBy, PersonDecider } from '../../common/decided-by';
import type { CallOrigin } from '../../common/origin';
import type { Grant, GrantPattern, Level } from '../../common/domain';
import type { ReviewerView, ReviewReport, ReviewUsage } from '../../common/review';
import { approves } from '../reviewer/decision';
import { reviewRequested } from '../policy/review-eligibility';
import type { Reviewer, ReviewOutcome } from '../reviewer/review';
import { decide as decidePolicy, invalidCallEvaluation, type Evaluation, type PolicyRules } from '../policy/evaluate';
import { normaliseGrantPattern } from '../../common/grant-pattern';
import { judgeGrantWidth, verdictFor } from '../policy/grant-width';
import type { PathContext } from '../policy/paths';
import { describeCall, isMcpTool, type CallFacts, type McpToolDeclaration, type ToolName } from '../policy/tools';
import type { Redactor } from '../redact/redactor';
import { clip, type Redacted } from '../redact/redactor';
import type { NewApproval } from '../store/approvals-repo';
import type { Step, StepResult } from '../store/call-lifecycle';
import { toPolicyGrant } from '../store/grants-repo';
import { newId } from '../store/ids';
import type { Store } from '../store/store';
import type { ApproverRegistry } from './approvers';
import { contentHash } from './content-hash';
import { crashPoint } from './crash-hook';
import { readNetworkFile } from './network-files';
import { observeCall } from './observe';
import { availableOutcomes, grantPatternProblem, grantScope, proposeGrant } from './proposals';

export interface GateCall {
  /** Our id for the call; generated when absent. */
  callId?: string;
  /** The model's id for the call (its tool-call id), so a restart can tell the model how each call ended. */
  modelCallId?: string;
  sessionId: string;
  turnId: string | null;
  /** Reactive: someone is there. Unattended: every ask is denied as no_approver. */
  turnKind: 'reactive' | 'unattended';
  tool: ToolName;
  args: unknown;
  /** Absolute directory the call runs in. */
  cwd: string;
  /** Names of the environment variables it runs with (values never leave memory). */
  envKeys?: readonly string[];
  /** What the call would change, shown on the card (a diff for file edits). */
  preview?: string | null;
  /**
   * Who asked (common/origin.ts): the agent, the control API, another tool. Every production caller
   * names it; when absent the call is the agent's (most tests play the agent).
   */
  origin?: CallOrigin;
  /** A call another agent makes (its hook, the MCP gateway): judged against that agent's project. */
  external?: ExternalJudging;
}

/**
 * How a call another agent makes is judged (main/hooks, main/mcp-gateway). Its paths are judged against
 * the agent's project; grants and proposals keep their paths absolute, so a grant made in one project
 * never covers another.
 */
export interface ExternalJudging {
  /** The agent's project (absolute, checked by the caller): the call's workspace. */
  workspace: string;
  /** The agent runs the call itself, outside Threshold's jail (main/policy/evaluate.ts runsOutsideJail). */
  runsOutsideJail: boolean;
  /** MCP tools are the agent's own servers: Threshold knows nothing of them but their names (at least write). */
  foreignMcp: boolean;
  /** The session's title, shown wherever the session is listed ("Claude Code in ~/project"). */
  sessionTitle: string;
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
  /** May a jailed call reach host:port through the egress proxy unasked (allow_hosts, host grants)? */
  hostAllowed?(host: string, port: number, sessionId: string | null): boolean;
}

/** What decides, at each call, whether the reviewer may answer: the switch and the never-list in force. */
export interface ReviewAccess {
  enabled: boolean;
  neverAutoApprove: readonly string[];
}

/** A step as the transition function committed it, or why it could not (a failing store): never a throw. */
export type Committed = { ok: true; value: StepResult } | { ok: false; error: { message: string } };
/** The one transition function (main/calls/record.ts): the gate decides, it records and broadcasts. */
export type Commit = (step: Step) => Committed;

/** The reason a turn's signal carries when Threshold quits: its waiting approvals stay pending for the next start. */
export const QUITTING = 'threshold_quitting';

export interface GateOptions {
  /** Read only: policy grants, approvals and sessions the decision depends on. */
  store: Store;
  redactor: Redactor;
  commit: Commit;
  approvers: ApproverRegistry;
  policy: PolicySource;
  /** How long a parked approval waits; 0 waits indefinitely. A function: read at each park (Settings). */
  ttlMs: number | (() => number);
  /** Identifies this process's waiters; pending rows of any other owner are orphans. */
  runtimeId: string;
  now?: () => number;
}

export type GateError = { code: 'not_found' | 'already_decided' | 'orphan' | 'hash_mismatch' | 'outcome_unavailable' | 'invalid_outcome' | 'invalid_grant' | 'store_failed'; message: string };
export type DecideResult = { ok: true; value: DecisionRecord } | { ok: false; error: GateError };

export interface DecideRequest {
  approvalId: string;
  hash: string;
  outcome: string;
  /** Which surface decided: desktop, web, control (a remote approver's surface: telegram, matrix, phone). */
  surface: string;
  /** Who decided, when more than the surface says (a remote person: main/remote); default the surface's person. */
  by?: PersonDecider;
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
  private readonly commit: Commit;
  private reviewer: { reviewer: Reviewer; access: () => ReviewAccess; names: readonly { name: string; model: string }[] } | null = null;

  constructor(private readonly o: GateOptions) {
    this.now = o.now ?? Date.now;
    this.commit = o.commit;
    this.scheduleOrphanExpiry();
  }

  get runtimeId(): string {
    return this.o.runtimeId;
  }

  /**
   * Turns auto-approval on: the reviewer answers asks the user's `review` rules send it (main/reviewer).
   * `access` is read at every call, so the Settings page's switch and the managed policy (which may turn
   * the reviewer off and add to never_auto_approve) take effect at the next call.
   */
  setReviewer(reviewer: Reviewer, access: () => ReviewAccess, names: readonly { name: string; model: string }[]): void {
    this.reviewer = reviewer.hasReviewers ? { reviewer, access, names } : null;
  }

  private policyContext(sessionId: string | null, external?: ExternalJudging) {
    const now = this.now();
    // A stored grant the width judge refuses (made before it existed) is not in force: fail closed.
    const stored = this.o.store.grants
      .list({ active: true, now })
      .map(toPolicyGrant)
      .filter((g) => judgeGrantWidth(g.tool, g.pattern, this.o.policy.paths()).ok);
    const own = this.o.policy.paths();
    const grants = [...this.o.policy.configGrants(), ...stored];
    return {
      level: this.o.policy.level(),
      rules: this.o.policy.rules(),
      // A relative path grant was written for Threshold's own workspace: it keeps meaning that one.
      grants: external ? grants.map((g) => anchorPathGrant(g, own.workspace)) : grants,
      paths: external ? { ...own, workspace: external.workspace } : own,
      now,
      sessionId,
      mcpTools: external?.foreignMcp ? undefined : this.o.policy.mcpTools?.(),
      hostAllowed: this.o.policy.hostAllowed ? (host: string, port: number) => this.o.policy.hostAllowed!(host, port, sessionId) : undefined,
      runsOutsideJail: external?.runsOutsideJail ?? false,
    };
  }

  /**
   * Classifies the call and applies the policy: what it is, what decides it and why, its content hash and
   * its arguments redacted. Writes nothing (the pipeline records the judged call before anything is
   * decided). Never throws: a call that is not valid is judged as refused.
   */
  async judge(call: GateCall): Promise<Judged> {
    const callId = call.callId ?? newId('call');
    const hash = contentHash(call);
    const ctx = this.policyContext(call.sessionId, call.external);
    const described = describeCall(call.tool, call.args, { ctx: ctx.paths, cwd: call.cwd, mcpTools: ctx.mcpTools, observed: observeCall(call.tool, call.args, call.cwd, ctx.paths), readText: readNetworkFile });
    const facts = described.ok ? described.facts : null;
    const evaluation = described.ok ? decidePolicy(described.facts, ctx) : invalidCallEvaluation(call.tool, described.code, described.message);
    const argsRedacted = await this.o.redactor.redactValue(call.args ?? {});
    const explanation = this.o.redactor.redactTextSync(evaluation.explanation);
    return { call, callId, hash, evaluation, facts, ctx, argsRedacted, explanation };
  }

  /** Every answer that needs no prompt: the policy's own, an earlier approval of this exact call. */
  shortcut(j: Judged): GateVerdict | null {
    const { call, callId, hash, evaluation } = j;
    if (evaluation.decision === 'allow') {
      // A failed state write must not change the decision: the call is already recorded.
      this.commit({ kind: 'policy_decided', callId, to: 'scheduled', by: evaluation.decider, grantIds: evaluation.grants });
      return verdictOf(j, true);
    }
    if (evaluation.decision === 'deny') {
      this.commit({ kind: 'policy_decided', callId, to: 'denied', by: evaluation.decider });
      return verdictOf(j, false);
    }
    // It asks, but an earlier human decision may already cover exactly this call.
    const sessionApproval = this.o.store.approvals.sessionApprovedHash(call.sessionId, hash);
    if (sessionApproval) {
      this.commit({ kind: 'policy_decided', callId, to: 'scheduled', by: { kind: 'earlier_approval', approvalId: sessionApproval, via: 'approve_session' } });
      return verdictOf(j, true, { approvalId: sessionApproval, outcome: 'approve_session' });
    }
    const followUp = this.o.store.approvals.followUpFor(call.sessionId, hash);
    if (followUp && followUp.turn_id !== call.turnId && this.o.store.approvals.consumeFollowUp(followUp.id, callId)) {
      this.commit({ kind: 'policy_decided', callId, to: 'scheduled', by: { kind: 'earlier_approval', approvalId: followUp.id, via: 'follow_up' } });
      return verdictOf(j, true, { approvalId: followUp.id, outcome: followUp.outcome });
    }
    return null;
  }

  /**
   * The call asks: approve-all or nobody-to-ask answer at once, the reviewer may approve it; otherwise the
   * waiter, the row, the broadcast, and the wait for a decision. `signal` stops the wait: the approval is
   * cancelled (the turn stopped), or only withdrawn when its reason is QUITTING (it stays pending).
   */
  async park(j: Judged, signal?: AbortSignal): Promise<GateVerdict> {
    const { call, callId, evaluation, facts, explanation } = j;
    // A grant is stored as written (the home folder as ~ in globs), so the card shows the proposal in
    // exactly its stored form, and a proposal that holds a secret is not offered at all.
    let proposal = facts ? proposeGrant(facts, evaluation, j.ctx.paths) : null;
    // Another agent's project is not Threshold's workspace: its grants name their paths in full.
    if (proposal && call.external) proposal = { ...proposal, patterns: proposal.patterns.map((p) => anchorPattern(p, call.external!.workspace)) };
    const shownPatterns = proposal ? proposal.patterns.map((p) => this.o.redactor.redactGrantPattern(p)) : [];
    if (shownPatterns.some((p) => !p.ok)) proposal = null;
    const proposalShown = proposal ? this.o.redactor.redactRecord({ tool: proposal.tool, patterns: shownPatterns.map((p) => (p as { pattern: GrantPattern }).pattern) }, ['patterns']) : null;
    const outcomes = availableOutcomes(evaluation, proposal);
    const approvalId = newId('ap');
    const created = this.now();
    const ttl = typeof this.o.ttlMs === 'function' ? this.o.ttlMs() : this.o.ttlMs;
    const row: NewApproval = {
      id: approvalId,
      call_id: callId,
      session_id: call.sessionId,
      turn_id: call.turnId,
      tool: call.tool,
      args_redacted: j.argsRedacted,
      content_hash: j.hash,
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
      preview: call.preview ? previewForCard(this.o.redactor.redactTextSync(call.preview)) : null,
      origin: originOf(call),
      parts: facts?.command !== undefined ? this.o.redactor.redactValueSync(partsOf(facts)) : null,
    };

    // Session-wide approval (approve_all_session) answers non-floor asks, recorded as such; never in an
    // unattended turn (nobody is watching what it approves: those asks are refused below).
    const session = this.o.store.sessions.get(call.sessionId);
    if (session?.approve_all_at && outcomes.includes('approve_all_session') && call.turnKind !== 'unattended') {
      const r = this.commit({ kind: 'approval_decided', approvalId, outcome: 'approve_all_session', by: { kind: 'session_approve_all' }, insert: row });
      if (r.ok && r.value.decided) return verdictOf(j, true, { approvalId, outcome: 'approve_all_session' });
    }

    // Nobody can answer: fail closed at once.
    if (call.turnKind === 'unattended' || !this.o.approvers.available()) {
      const why = call.turnKind === 'unattended' ? 'unattended_turn' : 'no_approver_surface';
      this.commit({ kind: 'approval_decided', approvalId, outcome: 'no_approver', by: { kind: 'no_approver', why }, insert: row });
      const words = why === 'unattended_turn' ? 'this turn runs unattended, so nobody can approve it' : 'no approver is connected (no window, web client or control API)';
      return verdictOf(j, false, { approvalId, outcome: 'no_approver', message: `Refused without asking: ${words}. ${explanation}` });
    }

    // The reviewer is asked exactly where a person would be: after every policy answer, approve-all and
    // both auto-denials above. It can only approve; anything else parks the card with its reason.
    const reviewAccess = this.reviewer?.access();
    if (this.reviewer && reviewAccess?.enabled && reviewRequested(evaluation, reviewAccess.neverAutoApprove)) {
      const reviewed = await this.consultReviewer(j, row, signal);
      if ('verdict' in reviewed) return reviewed.verdict;
      row.review = reviewed.review;
    }

    // The waiter exists before the row, so a decision can never arrive before its waiter.
    let resolveWaiter!: Waiter['resolve'];
    const decided = new Promise<{ outcome: Outcome; note: string | null }>((resolve) => (resolveWaiter = resolve));
    const waiter: Waiter = { resolve: resolveWaiter, timer: null, sessionId: call.sessionId, turnId: call.turnId, facts: facts!, call, proposal };
    this.waiters.set(approvalId, waiter);
    const parked = this.commit({ kind: 'parked', callId, approval: row });
    if (!parked.ok) {
      this.waiters.delete(approvalId);
      const why = parked.error.message;
      this.tryAudit({ at: this.now(), kind: 'approval.persist_failed', session_id: call.sessionId, subject: callId, data: this.o.redactor.redactRecord({ tool: call.tool, error: why }) });
      this.commit({ kind: 'park_failed', callId });
      return verdictOf(j, false, { message: `Threshold could not record the approval request (${why}), so the call was refused.` });
    }
    crashPoint('pending_written');
    // A surface may decide inside the approval.requested event the commit emitted: then the waiter is gone
    // already, and a timer set now would outlive the decision by the whole TTL (and keep the process alive).
    if (ttl > 0 && this.waiters.get(approvalId) === waiter) waiter.timer = setTimeout(() => this.expire(approvalId), ttl);
    const onAbort = () => (signal?.reason === QUITTING ? this.settle(approvalId, 'cancelled', null) : this.cancelApproval(approvalId));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();

    const { outcome, note } = await decided;
    signal?.removeEventListener('abort', onAbort);
    return verdictOf(j, isApproval(outcome), { approvalId, outcome, note, stopTurn: outcome === 'deny' || outcome === 'expired' || outcome === 'cancelled', message: isApproval(outcome) ? '' : refusalMessage(outcome, note) });
  }

  /** The review state: the call waits in `reviewing`, then is approved once, cancelled (Stop), or escalated. */
  private async consultReviewer(j: Judged, row: NewApproval, signal?: AbortSignal): Promise<{ verdict: GateVerdict } | { review: Redacted<ReviewReport> | null }> {
    const r = this.reviewer!;
    const { call, callId, evaluation, facts } = j;
    this.commit({ kind: 'review_started', callId, reviewers: r.names.map((n) => n.name) });
    const redact = (s: string) => this.o.redactor.redactTextSync(s);
    const command = facts?.command !== undefined
      ? { class: evaluation.class, effects: evaluation.effects, cwd: redact(call.cwd), envKeys: call.envKeys ?? [], segments: facts.segments.map((s) => ({ argv: s.argv.map(redact), class: s.class, effects: s.effects })) }
      : null;
    // What the reviewer reads is redacted like everything else that leaves the gate: a second provider never sees a secret.
    const outcome = await r.reviewer.review({ tool: call.tool, toolset: isMcpTool(call.tool) ? `mcp.${call.tool.split('.')[1]}` : 'built-in', args: j.argsRedacted, command, redact, signal });
    if (outcome.kind === 'stopped') {
      this.commit({ kind: 'approval_decided', approvalId: row.id, outcome: 'cancelled', by: { kind: 'turn_stopped' }, insert: row });
      return { verdict: verdictOf(j, false, { approvalId: row.id, outcome: 'cancelled', stopTurn: true, message: refusalMessage('cancelled', null) }) };
    }
    const report = this.o.redactor.redactValueSync(reportOf(j, row, outcome, r.names, this.now()));
    if (outcome.kind === 'approved') {
      const by: DecidedBy = { kind: 'reviewer', reviewers: outcome.results.map((x) => ({ name: x.name, model: x.model })) };
      const decided = this.commit({ kind: 'approval_decided', approvalId: row.id, outcome: 'approve_once', by, insert: { ...row, review: report } });
      if (decided.ok && decided.value.decided) return { verdict: verdictOf(j, true, { approvalId: row.id, outcome: 'approve_once' }) };
      // Not recorded, so not approved: the person decides.
      return { review: null };
    }
    return { review: report };
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
    // What is stored is each pattern's redacted form; a pattern that holds a secret is refused, not stored.
    const storedPatterns = grants.map((g) => this.o.redactor.redactGrantPattern(g.pattern));
    const refusedPattern = storedPatterns.find((p) => !p.ok);
    if (refusedPattern && !refusedPattern.ok) return fail('invalid_grant', refusedPattern.message);
    const r = this.commit({
      kind: 'approval_decided',
      approvalId: row.id,
      outcome,
      by: req.by ?? { kind: 'human', surface: req.surface },
      note,
      orphan,
      grants: grants.map((g, i) => ({
        id: g.id,
        tool: g.tool,
        pattern: (storedPatterns[i] as { ok: true; pattern: Redacted<GrantPattern> }).pattern,
        scope: g.scope,
        session_id: g.sessionId ?? null,
        expires_at: g.expiresAt ?? null,
        source: 'approval' as const,
        source_session_id: row.session_id,
        source_call_id: row.call_id,
        created_at: at,
        note: null,
      })),
    });
    if (!r.ok) return fail('store_failed', `The decision could not be recorded: ${r.error.message}. Nothing changed; try again.`);
    if (!r.value.decision) {
      const again = this.o.store.approvals.get(row.id);
      return fail('already_decided', `Approval ${row.id} was already decided: ${again?.outcome} by ${again?.decided_by}.`);
    }
    crashPoint('decision_written');
    if (waiter) this.settle(row.id, outcome, note);
    if (outcome === 'approve_all_session') this.approveSessionPending(row.session_id, row.id);
    this.clearOrphanTimer(row.id);
    return { ok: true, value: r.value.decision };
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
    // One Always allow makes one grant: a compound command is granted as exactly that command line.
    if (patterns.length !== 1) return { ok: false, message: `approve_always makes one grant, and ${patterns.length} patterns were given; for a compound command grant exactly the command.` };
    const duration = req.grant?.duration ?? 'always';
    const paths = this.o.policy.paths();
    const p = normaliseGrantPattern(patterns[0]!);
    const problem = grantPatternProblem(row.tool, p, duration, paths);
    if (problem) return { ok: false, message: problem };
    const redacted = this.o.redactor.redactGrantPattern(p);
    if (!redacted.ok) return { ok: false, message: redacted.message };
    const grant: Grant = { id: newId('gr'), tool: row.tool, pattern: p, ...grantScope(duration, at, row.session_id), provenance: { source: 'approval', sessionId: row.session_id, callId: row.call_id }, createdAt: at };
    // The grant must cover the call it approves: otherwise the preview's "never covers this call" would be
    // a control that does nothing. Judged on the call itself while it waits; after a restart (an orphan)
    // the proposal as offered stands, and an edited pattern is judged on the stored (redacted) call.
    const offered = stored?.patterns.length === 1 && JSON.stringify(stored.patterns[0]) === JSON.stringify(redacted.pattern);
    const facts = waiter?.facts ?? (offered ? null : this.storedFacts(row));
    if (!waiter && !offered && !facts) return { ok: false, message: 'The grant cannot be checked against this call (it is from an earlier run of Threshold); keep the proposed pattern or choose approve_once.' };
    if (facts) {
      const v = verdictFor(facts, { ...grant, scope: 'always' }, paths);
      if (v.verdict !== 'covered') return { ok: false, message: `The grant does not cover this call (${v.verdict === 'never' ? `no grant can: ${v.why}` : 'its pattern does not match it'}); change the pattern or choose approve_once.` };
    }
    return { ok: true, grants: [grant] };
  }

  /** After approve_all_session, the session's other pending non-floor asks are approved too. */
  private approveSessionPending(sessionId: string, via: string): void {
    for (const p of this.o.store.approvals.listPending(this.o.runtimeId)) {
      if (p.session_id !== sessionId || p.orphan || !p.outcomes.includes('approve_all_session')) continue;
      const r = this.commit({ kind: 'approval_decided', approvalId: p.id, outcome: 'approve_all_session', by: { kind: 'session_approve_all' }, via });
      if (r.ok && r.value.decided) this.settle(p.id, 'approve_all_session', null);
    }
  }

  /**
   * Ends a pending approval without a person (TTL, a stopped turn). A decision that committed first wins
   * and is what the waiter gets; if the store fails, the waiter still gets `fallback`: the call never runs.
   */
  private endPending(approvalId: string, outcome: 'expired' | 'cancelled', by: DecidedBy, orphan = false): void {
    const r = this.commit({ kind: 'approval_decided', approvalId, outcome, by, orphan });
    if (r.ok && !r.value.decided) {
      const stored = this.o.store.approvals.get(approvalId);
      if (stored?.outcome) return this.settle(approvalId, stored.outcome, stored.note);
    }
    this.settle(approvalId, outcome, null);
  }

  /** TTL: the stored decision wins if one committed in the race; otherwise the approval expires. */
  private expire(approvalId: string): void {
    this.endPending(approvalId, 'expired', { kind: 'timeout' });
  }

  /** Cancels one pending approval (its turn stopped). */
  cancelApproval(approvalId: string): void {
    // After dispose (quitting) approvals stay pending in the store: the next start lists them as orphans.
    if (this.disposed) return;
    this.endPending(approvalId, 'cancelled', { kind: 'turn_stopped' });
  }

  /** Cancels every pending approval of a turn (stop). */
  cancelTurn(turnId: string): void {
    for (const [id, w] of this.waiters) if (w.turnId === turnId) this.cancelApproval(id);
  }

  private settle(approvalId: string, outcome: Outcome, note: string | null): void {
    const w = this.waiters.get(approvalId);
    if (!w) return;
    this.waiters.delete(approvalId);
    if (w.timer) clearTimeout(w.timer);
    w.resolve({ outcome, note });
  }

  /**
   * The exact arguments of a call still waiting here, for the card's Reveal toggle. Only a live waiter
   * holds them (the store keeps the redacted form), so an orphan, a decided or an unknown approval has
   * none to give. Each reveal is audited with its surface, never with what was shown; a reveal that
   * cannot be audited is refused.
   */
  revealArgs(approvalId: string, surface: string): { ok: true; value: { args: unknown } } | { ok: false; error: GateError } {
    const fail = (code: GateError['code'], message: string) => ({ ok: false as const, error: { code, message } });
    const row = this.o.store.approvals.get(approvalId);
    if (!row) return fail('not_found', `There is no approval ${approvalId}.`);
    if (row.status === 'decided') return fail('already_decided', `Approval ${row.id} was already decided (${row.outcome}); only a pending call can be revealed.`);
    const waiter = this.waiters.get(row.id);
    if (row.owner !== this.o.runtimeId || !waiter) {
      return fail('orphan', `Approval ${row.id} is from an earlier run of Threshold: its original arguments were never stored, so only the redacted form exists.`);
    }
    try {
      this.o.store.transaction(() => this.o.store.audit.append({ at: this.now(), kind: 'approval.revealed', session_id: row.session_id, subject: row.id, data: this.o.redactor.redactRecord({ surface }) }));
    } catch (err) {
      return fail('store_failed', `The reveal was refused because it could not be recorded in the audit history (${(err as Error).message}).`);
    }
    return { ok: true, value: { args: waiter.call.args } };
  }

  /** The stored (redacted) call of an approval, described again: the best a later run can judge. */
  private storedFacts(row: NonNullable<ReturnType<Store['approvals']['get']>>): CallFacts | null {
    const d = describeCall(row.tool, JSON.parse(row.args_redacted) as unknown, { ctx: this.o.policy.paths(), mcpTools: this.o.policy.mcpTools?.() });
    return d.ok ? d.facts : null;
  }

  /**
   * What the gate knows of a pending call, for judging a grant against it (the grant editor's preview):
   * its facts from the exact arguments, which stay in memory and are never returned.
   */
  pendingFacts(approvalId: string): { facts: CallFacts; sessionId: string } | null {
    const w = this.waiters.get(approvalId);
    return w ? { facts: w.facts, sessionId: w.sessionId } : null;
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
    // No waiter to release; a failing store leaves the orphan pending (it never runs by itself).
    this.endPending(id, 'expired', { kind: 'timeout' }, true);
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

/** A call as the gate judged it: what it is, what decides it and why; nothing of it is stored yet. */
export interface Judged {
  call: GateCall;
  callId: string;
  hash: string;
  evaluation: Evaluation;
  facts: CallFacts | null;
  ctx: ReturnType<ApprovalGate['policyContext']>;
  argsRedacted: Redacted<unknown>;
  explanation: Redacted<string>;
}

/** The verdict on a judged call: runs or not, with what the model is told when it does not. */
export function verdictOf(j: Judged, run: boolean, extra: Partial<GateVerdict> = {}): GateVerdict {
  return { run, stopTurn: false, callId: j.callId, hash: j.hash, evaluation: j.evaluation, approvalId: null, outcome: null, message: run ? '' : j.explanation, note: null, ...extra };
}

/** The review as its card shows it: who answered (or, when one is the reason, that one), what, how fast, at what cost. */
function reportOf(j: Judged, row: NewApproval, o: Exclude<ReviewOutcome, { kind: 'stopped' }>, names: readonly { name: string; model: string }[], at: number): ReviewReport {
  const views: ReviewerView[] = o.results.map((x) => ({
    name: x.name,
    model: x.model,
    answer: x.ok ? x.answer : null,
    error: x.ok ? null : { path: x.path, message: x.detail },
    latency_ms: x.latencyMs,
    usage: x.usage,
  }));
  let reviewers = views;
  if (o.kind === 'escalated') {
    const culprit = views.find((v) => v.error) ?? views.find((v) => v.answer && !approves([v.answer]));
    reviewers = culprit ? [culprit] : names.map((n) => ({ ...n, answer: null, error: o.path === 'withheld' ? null : { path: o.path, message: o.detail }, latency_ms: null, usage: null }));
  }
  const usages = o.results.map((x) => x.usage).filter((u): u is ReviewUsage => u !== null);
  const sum = (k: keyof ReviewUsage) => (usages.some((u) => u[k] !== null) ? usages.reduce((n, u) => n + (u[k] ?? 0), 0) : null);
  return {
    session_id: j.call.sessionId,
    turn_id: j.call.turnId,
    call_id: j.callId,
    approval_id: row.id,
    tool: j.call.tool,
    args: j.argsRedacted,
    outcome: o.kind,
    path: o.kind === 'escalated' ? o.path : null,
    reason: o.kind === 'approved' ? o.results.map((x) => (x.ok ? (o.results.length > 1 ? `${x.name}: ${x.answer.reason}` : x.answer.reason) : '')).join(' ') : o.detail,
    reviewers,
    budget: o.budget,
    latency_ms: o.latencyMs,
    usage: usages.length ? { input_tokens: sum('input_tokens'), output_tokens: sum('output_tokens') } : null,
    at,
  };
}

/** A path pattern written relative to a workspace, made absolute against it; other patterns as they are. */
function anchorPattern(p: GrantPattern, workspace: string): GrantPattern {
  const anchor = (glob: string) => (glob.startsWith('/') || glob.startsWith('~') ? glob : `${workspace}/${glob.replace(/^\.\//, '')}`);
  if (p.kind === 'path') return p.glob === anchor(p.glob) ? p : { kind: 'path', glob: anchor(p.glob) };
  if (p.kind === 'argv' && p.redirects?.some((r) => r !== anchor(r))) return { ...p, redirects: p.redirects.map(anchor) };
  return p;
}

function anchorPathGrant(g: Grant, workspace: string): Grant {
  const pattern = anchorPattern(g.pattern, workspace);
  return pattern === g.pattern ? g : { ...g, pattern };
}

export function originOf(call: GateCall): CallOrigin {
  return call.origin ?? { kind: 'agent' };
}

/** A command's parts for its card: each with its class and main reason (the card shows those above read first). */
function partsOf(facts: CallFacts): CallPart[] {
  return facts.segments.map((s) => ({ text: s.text, class: s.class, reason: s.reasons[s.reasons.length - 1] ?? null, via: [...s.via] }));
}

/** A preview that fits a card, or its start with the line that says it was cut. */
function previewForCard(preview: Redacted<string>): Redacted<string> {
  if (preview.length <= PREVIEW_MAX_CHARS) return preview;
  return `${clip(preview, PREVIEW_MAX_CHARS)}\n${PREVIEW_CUT_LINE}` as Redacted<string>;
}
