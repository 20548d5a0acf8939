// The bridge wiring: core events into slice actions (the union narrows each payload).
import { isCoreStatusSignal, isShowApprovalSignal } from '../../../common/contract';
import type { AppApi, CoreEvent } from '../../../common/operations';
import type { AppStore } from '../store/store';

export function wireEvents(api: AppApi, store: AppStore): () => void {
  return api.onEvent((e: CoreEvent) => {
    const s = store.getState();
    // The desktop's main process: its OS notification for a card was clicked.
    const signal: unknown = e;
    if (isShowApprovalSignal(signal)) return s.showApproval(signal.payload.id);
    // The desktop's main process: its core stopped, restarts, cannot start, or answers again.
    if (isCoreStatusSignal(signal)) return s.onCoreStatus(signal.payload);
    switch (e.name) {
      case 'approval.requested':
        return s.onRequested(e.payload);
      case 'approval.decided':
        if (e.payload.by?.kind === 'session_approve_all') s.onApproveAllUsed(e.payload.session_id, e.payload.decided_at);
        if (e.payload.outcome === 'approve_session') void s.loadSessionApprovals();
        return s.onDecided(e.payload);
      case 'approve_all.started':
        return s.onApproveAllStarted(e.payload);
      case 'approve_all.ended':
        return s.onApproveAllEnded(e.payload);
      case 'approval.session_revoked':
        return s.onSessionApprovalRevoked(e.payload);
      case 'review.approved':
      case 'review.escalated':
        return s.onReview(e.payload);
      case 'grant.created':
      case 'grant.updated':
      case 'grant.revoked':
        return s.onGrantChanged(e.payload);
      case 'sandbox.denied':
        return s.onOffer(e.payload);
      case 'sandbox.decided':
        return s.onOfferClosed(e.payload.id);
      case 'call.output':
        return s.onCallOutput(e.payload);
      case 'call.state':
        return s.onCallState(e.payload);
      case 'turn.started':
        return s.onTurnStarted(e.payload);
      case 'turn.text':
        return s.onTurnText(e.payload);
      case 'turn.ended':
        return s.onTurnEnded(e.payload);
      case 'question.asked':
        return s.onQuestionAsked(e.payload);
      case 'question.closed':
        return s.onQuestionClosed(e.payload.id);
      case 'notification.sent':
        return s.onNotification(e.payload);
      case 'session.note':
        return s.onSessionNote(e.payload);
      case 'device.paired':
        return s.onDevicePaired(e.payload);
      case 'device.revoked':
        return s.onDeviceRevoked(e.payload);
      case 'settings.changed':
        // Any surface may have changed the layer (ctl, another window): show what is in force now.
        return void s.loadSettings();
    }
  });
}
