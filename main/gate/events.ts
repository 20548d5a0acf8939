// Events the core broadcasts to approver surfaces (desktop, web, control clients). Past tense names;
// every payload is redacted before it is emitted.
import type { DecisionRecord, GrantRecord, PendingApproval } from '../../common/approvals';
import type { Level } from '../../common/domain';
import type { ConsentOffer } from './sandbox-consent';

export interface CoreEvents {
  'approval.requested': PendingApproval;
  'approval.decided': DecisionRecord;
  'grant.created': GrantRecord;
  'grant.updated': GrantRecord;
  'grant.revoked': GrantRecord;
  'settings.changed': { level: Level };
  'sandbox.denied': ConsentOffer;
  /** Live output of a running call (redacted), for the UI. */
  'call.output': { call_id: string; stream: 'stdout' | 'stderr'; chunk: string };
}

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
