// What of the core the remote approvers use, and nothing more: the gate's pending list and its decide
// entry (a remote person decides exactly as one at the desk does), the approver registry, the events,
// the redaction, and the store's remote tables with the approvals and sessions they show. The runtime
// hands its core (main/runtime/core.ts), which has all of these.
import type { ApproverRegistry } from '../gate/approvers';
import type { CoreEventBus } from '../gate/events';
import type { ApprovalGate } from '../gate/gate';
import type { Redactor } from '../redact/redactor';
import type { Store } from '../store/store';

export interface RemoteCore {
  gate: Pick<ApprovalGate, 'decideApproval' | 'listPending'>;
  approvers: Pick<ApproverRegistry, 'add'>;
  events: Pick<CoreEventBus, 'on' | 'emit'>;
  redactor: Pick<Redactor, 'redactTextSync' | 'redactRecord' | 'addKnownSecret'>;
  store: Pick<Store, 'remote' | 'approvals' | 'sessions' | 'audit' | 'transaction'>;
}
