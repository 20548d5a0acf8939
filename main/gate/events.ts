// Events the core broadcasts to approver surfaces (desktop, web, control clients). Past tense names;
// every payload is redacted before it is emitted.
import type { DecisionRecord, GrantRecord, PendingApproval } from '../../common/approvals';
import type { CallState } from '../../common/call-state';
import type { Level } from '../../common/domain';
import type { ReviewReport } from '../../common/review';
import type { ApproveAllEnded, ApproveAllView } from './approve-all';
import type { ConsentChoice, ConsentOffer } from './sandbox-consent';
import type { SessionApprovalRevoked } from './session-approvals';
import type { Notification, Question, QuestionOutcome } from '../agent/questions';

export interface CoreEvents {
  'approval.requested': PendingApproval;
  'approval.decided': DecisionRecord;
  'review.approved': ReviewReport;
  'review.escalated': ReviewReport;
  'grant.created': GrantRecord;
  'grant.updated': GrantRecord;
  'grant.revoked': GrantRecord;
  'approve_all.started': ApproveAllView;
  'approve_all.ended': ApproveAllEnded;
  'approval.session_revoked': SessionApprovalRevoked;
  'settings.changed': { level: Level };
  'sandbox.denied': ConsentOffer;
  /** A consent offer was answered (emitted by the operations' handlers, for every surface). */
  'sandbox.decided': ConsentOffer & { choice: ConsentChoice };
  /** Live output of a running call (redacted), for the UI. */
  'call.output': { call_id: string; stream: 'stdout' | 'stderr'; chunk: string };
  'turn.started': { session_id: string; turn_id: string; kind: 'reactive' | 'unattended'; model: string };
  /** Text the model is writing, as it streams (redacted). */
  'turn.text': { session_id: string; turn_id: string; delta: string };
  'turn.ended': { session_id: string; turn_id: string; reason: TurnEndReason; steps: number; error: string | null };
  /** A tool call moved through the state machine. */
  'call.state': { session_id: string; turn_id: string; call_id: string; tool_call_id: string; tool: string; state: CallState; detail: string | null };
  'question.asked': Question;
  'question.closed': { id: string; outcome: QuestionOutcome['kind'] };
  'notification.sent': Notification;
  /** Something the user should know that is not a model message (a provider problem, an MCP server down). */
  'session.note': { session_id: string | null; text: string };
  'device.paired': DeviceView;
  'device.revoked': DeviceView;
}

/** A paired phone as Settings → Devices shows it (main/remote/devices.ts). */
export interface DeviceView {
  id: string;
  name: string;
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
}

// The call's states are one closed union, shared with the store's state machine.
export { CALL_STATES, type CallState } from '../../common/call-state';
export type TurnEndReason = 'completed' | 'stopped' | 'denied' | 'step_limit' | 'provider_error' | 'crashed';

export type CoreEventName = keyof CoreEvents;
type Listener<K extends CoreEventName> = (payload: CoreEvents[K]) => void;

export class EventBus {
  private readonly listeners = new Map<CoreEventName, Set<Listener<CoreEventName>>>();
  private readonly any = new Set<(name: CoreEventName, payload: unknown) => void>();

  on<K extends CoreEventName>(name: K, fn: Listener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(fn as Listener<CoreEventName>);
    return () => set.delete(fn as Listener<CoreEventName>);
  }

  onAny(fn: (name: CoreEventName, payload: unknown) => void): () => void {
    this.any.add(fn);
    return () => this.any.delete(fn);
  }

  emit<K extends CoreEventName>(name: K, payload: CoreEvents[K]): void {
    // A failing listener must not stop the others, nor the gate.
    for (const fn of this.listeners.get(name) ?? []) safely(() => fn(payload));
    for (const fn of this.any) safely(() => fn(name, payload));
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    process.emitWarning(`Threshold event listener failed: ${(err as Error).message}`);
  }
}
