import type { StateCreator } from 'zustand/vanilla';
import { arrivalAnnouncement } from '../../../common/attention';
import { cannotActNow } from '../model/connection';
import { OUTCOME_WORDS, decidedByWords } from '../model/describe';
import type { ApprovalsSlice, AppState, SliceDeps } from './types';

/** Cards in call order: the order the gate parked them. */
function inCallOrder<T extends { created_at: number; id: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
}

export const createApprovalsSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], ApprovalsSlice> =>
  (set, get) => ({
    pending: [],
    shownAt: {},
    classOf: {},
    decisionError: null,
    announcement: '',
    reviews: [],
    dismissedReviews: [],
    announcementSeq: 0,
    lastArrival: null,
    async loadPending() {
      const r = await api.listPending();
      if (!r.ok) return set({ decisionError: r.error.message });
      set((s) => ({ pending: inCallOrder(r.value), classOf: { ...s.classOf, ...Object.fromEntries(r.value.map((p) => [p.call_id, p.class])) } }));
    },
    markShown(id, at) {
      if (get().shownAt[id] === undefined) set((s) => ({ shownAt: { ...s.shownAt, [id]: at } }));
    },
    async decide(id, outcome, extras = {}) {
      const card = get().pending.find((p) => p.id === id);
      if (!card) return { ok: false, error: { code: 'not_found', message: 'That approval is no longer pending.' } };
      // Refused here, with the reason, rather than sent into a connection that is down.
      const offline = cannotActNow(get().connection);
      if (offline) return { ok: false, error: { code: 'disconnected', message: offline } };
      const r = await api.decide({ id, hash: card.hash, outcome, ...(extras.note ? { note: extras.note } : {}), ...(extras.grant ? { grant: extras.grant } : {}) });
      if (!r.ok) {
        set({ decisionError: r.error.message });
        // Someone else may have decided it: the list says what is still pending.
        if (r.error.code === 'already_decided' || r.error.code === 'not_found') await get().loadPending();
        return r;
      }
      get().onDecided(r.value);
      // The grant editor's note belongs to the grant the decision made.
      if (extras.grantNote) for (const id of r.value.grant_ids) await api.updateGrant({ id, note: extras.grantNote });
      get().focusComposer();
      return r;
    },
    // The answer goes straight back to the card that asked: a secret is never kept in shared state.
    reveal(id) {
      return api.revealArgs({ id });
    },
    onRequested(p) {
      // A card already shown (a reconnect's reload, a repeated event) is not announced again.
      const known = get().pending.some((x) => x.id === p.id);
      set((s) => {
        const pending = inCallOrder([...s.pending.filter((x) => x.id !== p.id), p]);
        const said = known ? {} : { announcement: arrivalAnnouncement(p, pending.length), announcementSeq: s.announcementSeq + 1, lastArrival: { id: p.id, n: (s.lastArrival?.n ?? 0) + 1 } };
        return { pending, classOf: { ...s.classOf, [p.call_id]: p.class }, ...said };
      });
    },
    onReview(r) {
      const words = r.outcome === 'approved' ? `${r.tool} approved by the reviewer: ${r.reason}` : `${r.tool} needs you: the reviewer did not approve it.`;
      set((s) => ({ reviews: [...s.reviews.filter((x) => x.approval_id !== r.approval_id), r].slice(-100), announcement: words }));
    },
    dismissReview(approvalId) {
      set((s) => ({ dismissedReviews: [...s.dismissedReviews, approvalId] }));
    },
    onDecided(d) {
      if (!get().pending.some((p) => p.id === d.id)) return;
      set((s) => ({ pending: s.pending.filter((p) => p.id !== d.id), decisionError: null, announcement: `${d.tool} ${OUTCOME_WORDS[d.outcome]} by ${decidedByWords(d.decided_by)}.`, announcementSeq: s.announcementSeq + 1 }));
    },
  });
