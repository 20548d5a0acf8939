import type { StateCreator } from 'zustand/vanilla';
import type { AppState, PromptsSlice, SliceDeps } from './types';

const TOAST_LIMIT = 5;

export const createPromptsSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], PromptsSlice> =>
  (set, get) => ({
    questions: [],
    offers: [],
    toasts: [],
    promptError: null,
    async loadQuestions() {
      const r = await api.listQuestions();
      if (r.ok) set({ questions: r.value });
    },
    async loadOffers() {
      const r = await api.listConsentOffers();
      if (r.ok) set({ offers: r.value });
    },
    async answer(id, answer) {
      const r = await api.answerQuestion({ id, answer });
      if (!r.ok) {
        set({ promptError: r.error.message });
        return false;
      }
      get().onQuestionClosed(id);
      get().focusComposer();
      return true;
    },
    async dismissQuestion(id) {
      const r = await api.dismissQuestion({ id });
      if (!r.ok) return set({ promptError: r.error.message });
      get().onQuestionClosed(id);
      get().focusComposer();
    },
    async decideOffer(id, choice) {
      const r = await api.decideConsent({ id, choice });
      if (!r.ok) return set({ promptError: r.error.message });
      get().onOfferClosed(id);
      set({ promptError: null });
      get().focusComposer();
    },
    onQuestionAsked(q) {
      set((s) => ({ questions: [...s.questions.filter((x) => x.id !== q.id), q], announcement: 'The agent asks you a question.' }));
    },
    onQuestionClosed(id) {
      set((s) => ({ questions: s.questions.filter((q) => q.id !== id) }));
    },
    onOffer(o) {
      set((s) => ({ offers: [...s.offers.filter((x) => x.id !== o.id), o], announcement: `The sandbox blocked writing ${o.path}.` }));
    },
    onOfferClosed(id) {
      set((s) => ({ offers: s.offers.filter((o) => o.id !== id) }));
    },
    onNotification(n) {
      set((s) => ({ toasts: [...s.toasts.filter((t) => t.id !== n.id), n].slice(-TOAST_LIMIT) }));
    },
    dismissToast(id) {
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
  });
