// What a paired phone may do through the page (docs/remote.md): see the cards, the chat and the history,
// decide a card (approve once, skip or deny, within [remote] max_class, never on a floor), and stop a
// turn. Everything else (settings, grants, revealing a call's secrets, pairing or revoking devices, the
// model, sending the agent work) is only at the desk: a stolen phone can do no more than this.
import type { CoreEvent, OperationName } from '../../common/operations';
import type { RemoteCore } from './core-parts';
import type { Handlers } from '../../common/invoke';
import type { RemoteConfig } from '../config/remote-settings';
import { remoteMayChoose, remoteOffer } from './policy';

export const PHONE_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'app.get_info',
  'approval.list_pending',
  'approval.decide',
  'approval.list_decisions',
  'call.list',
  'call.get',
  'agent.get_info',
  'agent.list_sessions',
  'agent.get_transcript',
  'agent.stop',
  'settings.get',
  'question.list',
  'sandbox.list_offers',
  'grant.list',
  'model.get',
]);

const fail = (code: string, message: string) => ({ ok: false as const, error: { code, message } });

/** A card as the phone sees it: only the outcomes a phone may choose. */
function phoneCard<T extends { outcomes: string[]; class: string; floor: string | null }>(p: T, cfg: RemoteConfig): T {
  return { ...p, outcomes: remoteOffer(p as never, cfg, 'phone').outcomes };
}

/** Refused decisions of one phone audited per minute; past that they are counted once a minute. */
const REFUSALS_AUDITED_PER_MINUTE = 30;

export function phoneHandlers(base: Handlers, core: RemoteCore, cfg: RemoteConfig, deviceId: string): Handlers {
  let window = { minute: 0, count: 0, dropped: 0 };
  // A decision a phone was refused is told to it (the error) and audited, as a chat's is.
  const audited = (approvalId: string, reason: string, detail: string) => {
    const minute = Math.floor(Date.now() / 60_000);
    if (window.minute !== minute) {
      if (window.dropped) append('remote.refused_flood', null, { bridge: 'phone', device: deviceId, refused_unaudited: window.dropped });
      window = { minute, count: 0, dropped: 0 };
    }
    if (++window.count > REFUSALS_AUDITED_PER_MINUTE) window.dropped++;
    else append('remote.refused', approvalId, { bridge: 'phone', sender: deviceId, reason, detail });
  };
  const append = (kind: string, subject: string | null, data: Record<string, unknown>) => {
    try {
      core.store.transaction(() => core.store.audit.append({ at: Date.now(), kind, subject, session_id: subject ? (core.store.approvals.get(subject)?.session_id ?? null) : null, data: core.redactor.redactRecord(data) }));
    } catch {
      process.emitWarning(`Threshold could not write an audit entry (${kind}).`);
    }
  };
  const out = {} as Record<OperationName, (p: never) => unknown>;
  for (const name of Object.keys(base) as OperationName[]) {
    out[name] = PHONE_OPERATIONS.has(name)
      ? (base[name] as (p: never) => unknown)
      : () => fail('desk_only', `"${name}" is only at your desk: a paired phone sees cards and history, decides cards (approve once, skip, deny) and stops turns.`);
  }
  out['approval.list_pending'] = (async () => {
    const r = await base['approval.list_pending'](undefined);
    return r.ok ? { ok: true, value: r.value.map((p) => phoneCard(p, cfg)) } : r;
  }) as never;
  out['approval.decide'] = (async (p: Parameters<Handlers['approval.decide']>[0]) => {
    const pending = core.gate.listPending().find((a) => a.id === p.id);
    if (pending && (p.grant || !remoteMayChoose(p.outcome, pending, cfg, 'phone'))) {
      const offer = remoteOffer(pending, cfg, 'phone');
      const message = `"${p.outcome}" is not offered on a paired phone for this card (offered: ${offer.outcomes.join(', ')}).${offer.deskOnly ? ` ${offer.deskOnly}` : ' Always allow, approve for session and approve all are only at your desk.'}`;
      audited(p.id, 'not_offered', message);
      return fail('outcome_unavailable', message);
    }
    // Unknown, decided elsewhere, another hash: the gate says which, in its own words.
    const r = await base['approval.decide'](p);
    if (!r.ok) audited(p.id, r.error.code, r.error.message);
    return r;
  }) as never;
  return out as unknown as Handlers;
}

/** Events as a phone sees them: cards with only the outcomes it may choose. */
export function phoneView(event: CoreEvent, cfg: RemoteConfig): CoreEvent | null {
  if (event.name === 'approval.requested') return { name: event.name, payload: phoneCard(event.payload, cfg) };
  return event;
}
