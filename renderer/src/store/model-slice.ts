import type { StateCreator } from 'zustand/vanilla';
import type { AppState, ModelSlice, SliceDeps } from './types';

export const createModelSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], ModelSlice> =>
  (set) => ({
    modelView: null,
    modelError: null,
    async loadModel() {
      const r = await api.getModel();
      set(r.ok ? { modelView: r.value, modelError: null } : { modelError: r.error.message });
    },
    async saveModel(input) {
      const r = await api.setModel(input);
      if (r.ok) set({ modelView: r.value, modelError: null, model: r.value.label });
      return r;
    },
    testModel(input) {
      return api.testModel(input);
    },
    // The key goes straight to the window's keychain (Electron only); nothing keeps it here.
    async storeApiKey(key) {
      const r = await api.setApiKey({ key });
      if (r.ok) {
        const view = await api.getModel();
        if (view.ok) set({ modelView: view.value });
      }
      return r;
    },
  });
