// The History screen's state: the filters, the pages of calls loaded so far (by offset under the first
// page's `upto`, so calls made meanwhile never shift what is on screen), the open call's detail, the
// audit chain's verification and the export.
import type { StateCreator } from 'zustand/vanilla';
import type { CallFilter, CallRecord } from '../../../common/history';
import { pagesToEvict, toJsonl } from '../model/history';
import type { AppState, HistorySlice, SliceDeps } from './types';

export const HISTORY_PAGE = 200;
/** Pages kept in memory (the rest are fetched again when scrolled back to). */
const KEEP_PAGES = 60;

const inFlight = new Set<string>();

export const createHistorySlice =
  ({ api, now }: SliceDeps): StateCreator<AppState, [], [], HistorySlice> =>
  (set, get) => ({
    historyFilter: {},
    historyTotal: null,
    historyUpto: null,
    historyPages: {},
    historyGeneration: 0,
    historyError: null,
    openCall: null,
    openCallError: null,
    verify: { state: 'idle' },
    exportStatus: null,

    setHistoryFilter(change) {
      const merged: Record<string, unknown> = { ...get().historyFilter, ...change };
      for (const k of Object.keys(merged)) if (merged[k] === undefined || merged[k] === '') delete merged[k];
      set({ historyFilter: merged as CallFilter });
      void get().reloadHistory();
    },

    async reloadHistory() {
      const generation = get().historyGeneration + 1;
      set({ historyGeneration: generation, historyPages: {}, historyTotal: null, historyUpto: null, historyError: null });
      const r = await api.listCalls({ ...get().historyFilter, limit: HISTORY_PAGE, with_total: true });
      if (get().historyGeneration !== generation) return;
      if (!r.ok) return set({ historyError: r.error.message, historyTotal: 0 });
      set({ historyPages: { 0: r.value.calls }, historyTotal: r.value.total ?? r.value.calls.length, historyUpto: r.value.upto });
    },

    async ensureHistoryPages(pages) {
      const s = get();
      const { historyGeneration: generation, historyUpto: upto } = s;
      if (upto === null) return;
      const missing = pages.filter((p) => !s.historyPages[p] && !inFlight.has(`${generation}:${p}`));
      await Promise.all(
        missing.map(async (p) => {
          const key = `${generation}:${p}`;
          inFlight.add(key);
          try {
            const r = await api.listCalls({ ...get().historyFilter, limit: HISTORY_PAGE, offset: p * HISTORY_PAGE, upto });
            if (get().historyGeneration !== generation) return;
            if (!r.ok) return set({ historyError: r.error.message });
            set((st) => {
              const next: Record<number, CallRecord[]> = { ...st.historyPages, [p]: r.value.calls };
              for (const old of pagesToEvict(Object.keys(next).map(Number), p, KEEP_PAGES)) delete next[old];
              return { historyPages: next };
            });
          } finally {
            inFlight.delete(key);
          }
        }),
      );
    },

    async openHistoryCall(id) {
      set({ openCallError: null });
      const r = await api.getCall({ id });
      if (!r.ok) return set({ openCall: null, openCallError: r.error.message });
      set({ openCall: r.value });
    },
    closeHistoryCall() {
      set({ openCall: null, openCallError: null });
    },
    getCheckpointDiff(id) {
      return api.getCheckpointDiff({ id });
    },
    planRestore(id) {
      return api.planRestore({ id });
    },
    async restoreCheckpoint(id, expectedTree) {
      const r = await api.restoreCheckpoint({ id, ...(expectedTree ? { expected_tree: expectedTree } : {}) });
      // The open call's checkpoint now carries its restore and undo point; the list's states may have moved too.
      const open = get().openCall;
      if (open) await get().openHistoryCall(open.id);
      return r;
    },

    async verifyNow() {
      set({ verify: { state: 'running' } });
      const r = await api.verifyAudit();
      if (!r.ok) return set({ verify: { state: 'error', message: r.error.message, at: now() } });
      const v = r.value;
      set({ verify: v.ok ? { state: 'ok', entries: v.entries, at: now() } : { state: 'broken', entries: v.entries, brokenAt: v.broken_at, reason: v.reason, at: now() } });
    },

    async exportHistory(save) {
      set({ exportStatus: 'Exporting…' });
      const rows: CallRecord[] = [];
      let cursor: string | undefined;
      const upto = get().historyUpto ?? undefined;
      for (;;) {
        const r = await api.listCalls({ ...get().historyFilter, limit: 500, ...(upto ? { upto } : {}), ...(cursor ? { cursor } : {}) });
        if (!r.ok) return set({ exportStatus: `Export failed: ${r.error.message}` });
        rows.push(...r.value.calls);
        if (!r.value.next_cursor) break;
        cursor = r.value.next_cursor;
      }
      save(toJsonl(rows), rows.length);
      set({ exportStatus: `Exported ${rows.length} call${rows.length === 1 ? '' : 's'} as JSONL.` });
    },
  });
