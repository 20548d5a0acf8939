// Settings → Agent access: the effective settings with where each value comes from, the page's unsaved
// draft, its policy preview, and Save (a validated layer over the config file; the file is never written).
import type { StateCreator } from 'zustand/vanilla';
import { draftIsEmpty, mergeDraft } from '../model/access';
import type { AppState, SettingsSlice, SliceDeps } from './types';

export const createSettingsSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], SettingsSlice> =>
  (set, get) => ({
    settings: null,
    draft: {},
    policyPreview: null,
    previewing: false,
    settingsError: null,
    settingsSaved: null,
    async loadSettings() {
      const r = await api.getSettings();
      if (!r.ok) return set({ settingsError: r.error.message });
      set({ settings: r.value });
    },
    editDraft(edit) {
      // A preview of an older draft would answer a question no longer asked.
      set((s) => ({ draft: mergeDraft(s.draft, edit), policyPreview: null, settingsSaved: null, settingsError: null }));
    },
    discardDraft() {
      set({ draft: {}, policyPreview: null, settingsError: null });
    },
    async previewDraft() {
      set({ previewing: true });
      const r = await api.previewPolicy({ changes: get().draft, limit: 50 });
      set(r.ok ? { policyPreview: r.value, previewing: false, settingsError: null } : { previewing: false, settingsError: r.error.message });
    },
    async saveDraft() {
      const draft = get().draft;
      if (draftIsEmpty(draft)) return;
      const r = await api.updateSettings({ changes: draft });
      if (!r.ok) return set({ settingsError: r.error.message });
      set({ settings: r.value, draft: {}, policyPreview: null, settingsError: null, settingsSaved: 'Saved. The next call is decided by these settings.' });
    },
  });
