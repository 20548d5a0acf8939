import type { StateCreator } from 'zustand/vanilla';
import { arrivalAnnouncement } from '../../../common/attention';
import type { DecisionRecord } from '../../../common/approvals';
import { cannotActNow } from '../model/connection';
import { OUTCOME_WORDS, decidedByWords, decisionLine, oneLine } from '../model/describe';
import type { ApprovalsSlice, AppState, SliceDeps } from './types';

/** Cards in call order: the order the gate parked them. */
function inCallOrder<T extends { created_at: number; id: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
}

export const createApprovalsSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], ApprovalsSlice> =>
  (set, get) => {
    // Decisions this page has asked for and not heard back about: the broadcast may come first, and
    // only the answer says whether this page or another surface decided.
    const inFlight = new Set<string>();
    const heardWhileInFlight = new Map<string, DecisionRecord>();
    /** A card leaves: its line goes into its chat, and a card decided elsewhere says so in its place. */
    const settle = (d: DecisionRecord, here: boolean) => {
      const line = decisionLine(d, here);
      get().addLocalNote(d.session_id, line);
      set((s) => ({
        pending: s.pending.filter((p) => p.id !== d.id),
        decisionError: null,
        settled: here ? s.settled : [...s.settled.filter((x) => x.id !== d.id), { id: d.id, session_id: d.session_id, text: line }].slice(-20),
        announcement: `${oneLine(d.tool)} ${OUTCOME_WORDS[d.outcome]} by ${oneLine(decidedByWords(d))}.`,
        announcementSeq: s.announcementSeq + 1,
      }));
    };
    return {
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
      inFlight.add(id);
      const r = await api.decide({ id, hash: card.hash, outcome, ...(extras.note ? { note: extras.note } : {}), ...(extras.grant ? { grant: extras.grant } : {}) }).finally(() => inFlight.delete(id));
      const heard = heardWhileInFlight.get(id);
      heardWhileInFlight.delete(id);
      if (!r.ok) {
        // Someone else decided first: say so where the card was.
        if (heard) settle(heard, false);
        set({ decisionError: r.error.message });
        if (r.error.code === 'already_decided' || r.error.code === 'not_found') await get().loadPending();
        return r;
      }
      if (get().pending.some((p) => p.id === id)) settle(r.value, true);
      // The grant editor's note belongs to the grant the decision made.
      if (extras.grantNote) for (const id of r.value.grant_ids) await api.updateGrant({ id, note: extras.grantNote });
      return r;
    },
    // The answer goes straight back to the card that asked: a secret is never kept in shared state.
    reveal(id) {
      return api.revealArgs({ id });
    },
    onRequested(p) {
      // A card already shown (a reconnect's reload, a repeated event) is not announced again.
      const known = get().pending.some((x) => x.id === p.id);
      // A card for a session the sidebar does not list yet (a ctl request): list it, with its count.
      if (!get().sessions.some((x) => x.id === p.session_id)) void get().loadSessions();
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
      if (inFlight.has(d.id)) {
        // This page's own answer says who won; until then the card stays (its buttons are busy).
        heardWhileInFlight.set(d.id, d);
        return;
      }
      settle(d, false);
    },
    settled: [],
    dismissSettled(id) {
      set((s) => ({ settled: s.settled.filter((x) => x.id !== id) }));
    },
  };
  };
