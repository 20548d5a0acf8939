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
    onGrantChanged(g) {
      set((s) => ({ grants: s.grants.some((x) => x.id === g.id) ? s.grants.map((x) => (x.id === g.id ? g : x)) : [g, ...s.grants], grantsError: null }));
    },
  });
