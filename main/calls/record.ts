// The one writer of a call's life: every move goes through the call lifecycle (main/store/call-lifecycle.ts),
// which checks, writes and audits it in one transaction, and only once that committed do the events go
// out. This module is the lifecycle's only caller and the only emitter of `call.state`, `approval.*`,
// `review.*` and `grant.created` (test/architecture enforces both), so the chat, the cards and History
// can never tell different stories about one call.
import type { ExecutionOutcome, GrantRecord } from '../../common/approvals';
import type { CallState } from '../../common/call-state';
import type { SessionApprovalRevoked } from '../gate/session-approvals';
import { crashPoint } from '../gate/crash-hook';
import type { CoreEventBus } from '../gate/events';
import type { Commit, Committed } from '../gate/gate';
import { sanitiseErrorText, type Redactor } from '../redact/redactor';
import { CallLifecycle, type Step, type StepResult } from '../store/call-lifecycle';
import { deciderOf, IllegalTransition, type CallRow } from '../store/calls-repo';
import { OutcomeAlreadyRecorded, type NewOutcome } from '../store/outcomes-repo';
import type { Store } from '../store/store';

export type RecordResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** How a call that ran ended, as its runner tells it; recorded once, with the time and a redacted error. */
export type EndOfRun = Omit<ExecutionOutcome, 'recorded_at' | 'error'> & { error?: string | null };

/** A call of a turn as the chat knows it, before Threshold has a row for it (the model's id names it). */
export interface AnnouncedCall {
  sessionId: string;
  turnId: string;
  toolCallId: string;
  callId?: string;
  tool: string;
}

export interface RecorderOptions {
  store: Store;
  redactor: Redactor;
  events: CoreEventBus;
  /** Identifies this process's waiters: a pending approval is shown as this process's. */
  runtimeId: string;
  now: () => number;
}

export class CallRecorder {
  private readonly lifecycle: CallLifecycle;
  /** The one transition function, as the gate receives it (it decides; this records). */
  readonly commit: Commit = (step) => this.apply(step);

  constructor(private readonly o: RecorderOptions) {
    this.lifecycle = new CallLifecycle(o.store, o.redactor, crashPoint);
  }

  /**
   * After a crash or kill -9 (no call of this process exists yet): every call still in flight ends now,
   * visibly, as interrupted or not run. Returns the calls it ended.
   */
  recoverInFlight(): CallRow[] {
    return this.lifecycle.recoverInFlight(this.o.now());
  }

  /**
   * Applies one step: the lifecycle checks, writes and audits it in one transaction; then, only once it
   * committed, the events go out. A store failure is a value, never a throw (callers include timers).
   */
  private apply(step: Step): Committed {
    let value: StepResult;
    try {
      value = this.lifecycle.apply(step, stepTime(step) ?? this.o.now());
    } catch (err) {
      return { ok: false, error: { message: sanitiseErrorText(this.o.redactor, (err as Error).message) } };
    }
    this.broadcast(step, value);
    return { ok: true, value };
  }

  /** What a committed step tells every surface, in the order they show it. */
  private broadcast(step: Step, value: StepResult): void {
    const { events, store } = this.o;
    // The review's card goes out ahead of the approval it led to (the prompt, or the decision).
    const review = step.kind === 'parked' ? step.approval.review : step.kind === 'approval_decided' ? step.insert?.review : null;
    if (review) events.emit(review.outcome === 'approved' ? 'review.approved' : 'review.escalated', review);
    if (step.kind === 'parked') {
      const pending = store.approvals.pendingView(step.approval.id, this.o.runtimeId);
      if (pending) events.emit('approval.requested', pending);
    }
    if (step.kind === 'approval_decided' && value.decision) {
      for (const g of step.grants ?? []) {
        const stored = store.grants.get(g.id);
        if (stored) events.emit('grant.created', stored);
      }
      events.emit('approval.decided', value.decision);
    }
    // Every stored move of a call of a turn goes out as the call's state: the chat shows what History shows.
    if (value.decided && value.call.turn_id) {
      const c = value.call;
      events.emit('call.state', { session_id: c.session_id, turn_id: c.turn_id!, call_id: c.id, tool_call_id: c.model_call_id ?? c.id, tool: c.tool, state: c.state, detail: c.decided_by, by: deciderOf(c) });
    }
  }

  /** A state the chat shows before (or without) a stored move: the model's call received, being checked, a question waiting. */
  announce(call: AnnouncedCall, state: CallState, detail: string | null = null): void {
    this.o.events.emit('call.state', { session_id: call.sessionId, turn_id: call.turnId, call_id: call.callId ?? call.toolCallId, tool_call_id: call.toolCallId, tool: call.tool, state, detail, by: null });
  }

  /** The call starts to run: after a crash from here on, it is recorded as interrupted rather than not run. */
  started(callId: string): void {
    const step: Step = { kind: 'started', callId };
    try {
      this.broadcast(step, this.lifecycle.apply(step, this.o.now()));
    } catch (err) {
      // Already running or ended: the outcome write decides what is recorded. A failing store stops the run.
      if (!(err instanceof IllegalTransition)) throw err;
    }
    crashPoint('executing');
  }

  /** The write-once outcome of a call that was allowed to run. */
  ended(callId: string, o: EndOfRun): RecordResult<ExecutionOutcome> {
    const at = this.o.now();
    const outcome: NewOutcome = { ...o, error: o.error ? sanitiseErrorText(this.o.redactor, o.error) : null, recorded_at: at };
    if (!this.o.store.calls.get(callId)) return { ok: false, error: { code: 'not_found', message: `There is no call ${callId}.` } };
    const step: Step = { kind: 'executed', callId, outcome };
    try {
      this.broadcast(step, this.lifecycle.apply(step, at));
    } catch (err) {
      if (err instanceof OutcomeAlreadyRecorded) return { ok: false, error: { code: 'already_recorded', message: err.message } };
      // Only a call that was allowed to run has an outcome: never one that was denied or still waits.
      if (err instanceof IllegalTransition) return { ok: false, error: { code: 'not_runnable', message: `Call ${callId} was not allowed to run (it is ${err.from}), so it has no execution outcome.` } };
      throw err;
    }
    return { ok: true, value: outcome };
  }

  /** A grant a person made by hand (Settings → Grants, `ctl grant create`): every surface lists it. */
  grantCreated(g: GrantRecord): void {
    this.o.events.emit('grant.created', g);
  }

  /** An approval for the session was taken back: every surface drops it. */
  sessionApprovalRevoked(r: SessionApprovalRevoked): void {
    this.o.events.emit('approval.session_revoked', r);
  }
}

/** A step that carries its own time (the card's creation, the outcome's recording) is audited at that time: history is verified against it. */
function stepTime(step: Step): number | null {
  switch (step.kind) {
    case 'parked':
      return step.approval.created_at;
    case 'handled_by_agent':
    case 'executed':
      return step.outcome.recorded_at;
    case 'never_reviewed':
      return step.call.created_at;
    default:
      return null;
  }
}
