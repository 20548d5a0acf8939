// The renderer's one store, made of slices. Created over an AppApi (the Electron preload's or the web
// bridge's); components read it with useApp and change it only through slice actions.
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import type { AppApi } from '../../../common/operations';
import { createApprovalsSlice } from './approvals-slice';
import { createApproveAllSlice } from './approve-all-slice';
import { createChatSlice } from './chat-slice';
import { createDevicesSlice } from './devices-slice';
import { createGrantsSlice } from './grants-slice';
import { createHistorySlice } from './history-slice';
import { createModelSlice } from './model-slice';
import { createPromptsSlice } from './prompts-slice';
import { createSettingsSlice } from './settings-slice';
import type { AppState, ConnectionSlice, SliceDeps, UiSlice } from './types';

const createConnectionSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], ConnectionSlice> =>
  (set, get) => ({
    connection: 'connecting',
    info: null,
    model: null,
    workspace: null,
    problem: null,
    coreMessage: null,
    setConnection(c) {
      set({ connection: c });
    },
    onCoreStatus({ state, message }) {
      const was = get().connection;
      const connection = state === 'open' ? 'open' : state === 'stopped' ? 'stopped' : state === 'restarting' ? 'reconnecting' : 'connecting';
      set({ connection, coreMessage: message });
      // A core that answers again (restarted, or started late): show what it holds now.
      if (connection === 'open' && was !== 'open') void get().reloadAll();
    },
    async reloadAll() {
      const [info, agent, settings] = await Promise.all([api.getInfo(), api.getAgentInfo(), api.getSettings()]);
      set({
        info: info.ok ? info.value : null,
        model: agent.ok ? agent.value.model : null,
        workspace: settings.ok ? settings.value.workspace : null,
        settings: settings.ok ? settings.value : null,
        problem: info.ok ? (agent.ok ? null : agent.error.message) : info.error.message,
      });
      const s = get();
      await Promise.all([s.loadPending(), s.loadQuestions(), s.loadOffers(), s.loadSessions(), s.loadGrants(), s.loadApproveAll(), s.loadSessionApprovals()]);
    },
  });

const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set, get) => ({
  view: 'chat',
  settingsTab: 'access',
  composerFocus: 0,
  showRequest: null,
  setView(v) {
    set({ view: v });
  },
  showApproval(id) {
    const card = get().pending.find((p) => p.id === id);
    if (card && card.session_id !== get().currentSessionId) void get().selectSession(card.session_id);
    set((s) => ({ view: 'chat', showRequest: { id, n: (s.showRequest?.n ?? 0) + 1 } }));
  },
  setSettingsTab(t) {
    set({ settingsTab: t });
  },
  focusComposer() {
    set((s) => ({ composerFocus: s.composerFocus + 1, view: 'chat' }));
  },
});

export type AppStore = StoreApi<AppState>;

export function createAppStore(api: AppApi, now: () => number = Date.now): AppStore {
  const deps: SliceDeps = { api, now };
  return createStore<AppState>()((...a) => ({
    ...createConnectionSlice(deps)(...a),
    ...createChatSlice(deps)(...a),
    ...createApprovalsSlice(deps)(...a),
    ...createApproveAllSlice(deps)(...a),
    ...createPromptsSlice(deps)(...a),
    ...createGrantsSlice(deps)(...a),
    ...createHistorySlice(deps)(...a),
    ...createModelSlice(deps)(...a),
    ...createSettingsSlice(deps)(...a),
    ...createDevicesSlice(deps)(...a),
    ...createUiSlice(...a),
  }));
}

export const StoreContext = createContext<AppStore | null>(null);

export function useApp<T>(selector: (s: AppState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useApp needs a StoreContext provider.');
  return useStore(store, selector);
}
