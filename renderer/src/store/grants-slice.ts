import type { StateCreator } from 'zustand/vanilla';
import type { AppState, GrantsSlice, SliceDeps } from './types';

export const createGrantsSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], GrantsSlice> =>
  (set, get) => ({
    grants: [],
    grantFilter: 'active',
    grantsError: null,
    async loadGrants() {
      const r = await api.listGrants({ include_inactive: true });
      if (!r.ok) return set({ grantsError: r.error.message });
      set({ grants: r.value, grantsError: null });
    },
    setGrantFilter(f) {
      set({ grantFilter: f });
    },
    async revokeGrant(id) {
      const r = await api.revokeGrant({ id });
      if (!r.ok) return set({ grantsError: r.error.message });
      get().onGrantChanged(r.value);
    },
    async updateGrant(id, change) {
      const r = await api.updateGrant({ id, pattern: change.pattern, duration: change.duration, note: change.note });
      if (!r.ok) set({ grantsError: r.error.message });
      else get().onGrantChanged(r.value);
      return r;
    },
    previewGrant(req) {
      return api.previewGrant(req);
    },
    suggestions: [],
    async loadSuggestions() {
      const r = await api.listGrantSuggestions();
      if (!r.ok) return set({ grantsError: r.error.message });
      const dismissed = get().dismissedSuggestions;
      set({ suggestions: r.value.filter((x) => !dismissed.includes(x.hash)) });
    },
    async suggestionFor(approvalId) {
      const r = await api.listGrantSuggestions({ approval_id: approvalId });
      return r.ok ? (r.value.find((x) => !get().dismissedSuggestions.includes(x.hash)) ?? null) : null;
    },
    async acceptSuggestion(sg) {
      // One Always allow makes one grant (the server offers one pattern per suggestion).
      const [pattern, ...more] = sg.patterns;
      if (!pattern || more.length) {
        const error = { code: 'invalid_grant', message: 'A suggestion makes exactly one grant.' };
        set({ grantsError: error.message });
        return { ok: false, error };
      }
      const r = await api.createGrant({ tool: sg.tool, pattern, duration: 'always', note: `Suggested: approved ${sg.count} times` });
      if (!r.ok) {
        set({ grantsError: r.error.message });
        return r;
      }
      get().onGrantChanged(r.value);
      await get().loadSuggestions();
      return { ok: true, value: [r.value] };
    },
    dismissedSuggestions: [],
    dismissSuggestion(hash) {
      set((s) => ({ dismissedSuggestions: [...s.dismissedSuggestions, hash], suggestions: s.suggestions.filter((x) => x.hash !== hash) }));
    },
    onGrantChanged(g) {
      set((s) => ({ grants: s.grants.some((x) => x.id === g.id) ? s.grants.map((x) => (x.id === g.id ? g : x)) : [g, ...s.grants], grantsError: null }));
    },
  });
