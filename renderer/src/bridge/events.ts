// The payloads of the core events the renderer reacts to (their source of truth is the core's event
// table; the renderer may not import main/, so it names the shapes it reads here).
import type { PendingApproval, DecisionRecord, GrantRecord } from '../../../common/approvals';
import type { QuestionView } from '../../../common/contract';

export type CallState = 'received' | 'validating' | 'classifying' | 'denied' | 'scheduled' | 'reviewing' | 'awaiting_approval' | 'executing' | 'succeeded' | 'failed' | 'timed_out' | 'interrupted' | 'cancelled';

export const FINAL_CALL_STATES: ReadonlySet<CallState> = new Set(['denied', 'succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled']);

export interface ConsentOfferView {
  id: string;
  session_id: string;
  call_id: string;
  path: string;
  access: 'write' | 'code';
  attempted: string;
  evidence: string;
  created_at: number;
}

export interface NotificationView {
  id: string;
  session_id: string;
  message: string;
  urgency: 'info' | 'attention' | 'urgent';
  created_at: number;
}

export interface RendererEvents {
  'approval.requested': PendingApproval;
  'approval.decided': DecisionRecord;
  'grant.created': GrantRecord;
  'grant.updated': GrantRecord;
  'grant.revoked': GrantRecord;
  'sandbox.denied': ConsentOfferView;
  'call.output': { call_id: string; stream: 'stdout' | 'stderr'; chunk: string };
  'turn.started': { session_id: string; turn_id: string; kind: 'reactive' | 'unattended'; model: string };
  'turn.text': { session_id: string; turn_id: string; delta: string };
  'turn.ended': { session_id: string; turn_id: string; reason: string; steps: number; error: string | null };
  'call.state': { session_id: string; turn_id: string; call_id: string; tool_call_id: string; tool: string; state: CallState; detail: string | null };
  'question.asked': QuestionView;
  'question.closed': { id: string; outcome: string };
  'notification.sent': NotificationView;
  'session.note': { session_id: string | null; text: string };
}
