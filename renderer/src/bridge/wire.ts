// The bridge wiring: core events into slice actions, and a full reload whenever the connection
// (re)opens, so a page that lived through a daemon restart shows what is still pending.
import type { AppApi, CoreEventMessage } from '../../../common/contract';
import type { AppStore } from '../store/store';
import type { RendererEvents } from './events';

type Handlers = { [K in keyof RendererEvents]: (p: RendererEvents[K]) => void };

export function wireEvents(api: AppApi, store: AppStore): () => void {
  const s = () => store.getState();
  const handlers: Handlers = {
    'approval.requested': (p) => s().onRequested(p),
    'approval.decided': (p) => s().onDecided(p),
    'grant.created': (p) => s().onGrantChanged(p),
    'grant.updated': (p) => s().onGrantChanged(p),
    'grant.revoked': (p) => s().onGrantChanged(p),
    'sandbox.denied': (p) => s().onOffer(p),
    'call.output': (p) => s().onCallOutput(p),
    'turn.started': (p) => s().onTurnStarted(p),
    'turn.text': (p) => s().onTurnText(p),
    'turn.ended': (p) => s().onTurnEnded(p),
    'call.state': (p) => s().onCallState(p),
    'question.asked': (p) => s().onQuestionAsked(p),
    'question.closed': (p) => s().onQuestionClosed(p.id),
    'notification.sent': (p) => s().onNotification(p),
    'session.note': (p) => s().onSessionNote(p),
  };
  return api.onEvent((e: CoreEventMessage) => {
    const h = (handlers as Record<string, ((p: unknown) => void) | undefined>)[e.name];
    if (h && e.payload && typeof e.payload === 'object') h(e.payload);
  });
}
