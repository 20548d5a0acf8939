// Session grants: sessions in approve-all mode (the chat's banner, Settings → Grants) and approvals for
// the session (Settings → Grants). Ending or revoking one here does so for every surface (the daemon
// announces approve_all.ended and approval.session_revoked to all of them).
import type { StateCreator } from 'zustand/vanilla';
import type { AppState, ApproveAllSlice, SliceDeps } from './types';

export const createApproveAllSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], ApproveAllSlice> =>
  (set, get) => ({
    approveAll: [],
    approveAllError: null,
    async loadApproveAll() {
      const r = await api.listApproveAll();
      if (!r.ok) return set({ approveAllError: r.error.message });
      set({ approveAll: r.value, approveAllError: null });
    },
    async endApproveAll(sessionId) {
      const r = await api.endApproveAll({ session_id: sessionId });
      if (!r.ok) {
        set({ approveAllError: r.error.message });
        // Ended elsewhere meanwhile: what is still on is what the daemon lists.
        if (r.error.code === 'not_found') await get().loadApproveAll();
        return r;
      }
      get().onApproveAllEnded(r.value);
      return r;
    },
    onApproveAllStarted(v) {
      set((s) => ({ approveAll: [v, ...s.approveAll.filter((x) => x.session_id !== v.session_id)], approveAllError: null }));
    },
    onApproveAllEnded(e) {
      set((s) => ({ approveAll: s.approveAll.filter((x) => x.session_id !== e.session_id), announcement: `Approve all ended in session ${e.session_id}: its calls ask you again.`, announcementSeq: s.announcementSeq + 1 }));
    },
    sessionApprovals: [],
    async loadSessionApprovals() {
      const r = await api.listSessionApprovals();
      if (!r.ok) return set({ approveAllError: r.error.message });
      set({ sessionApprovals: r.value });
    },
    async revokeSessionApproval(id) {
      const r = await api.revokeSessionApproval({ id });
      if (!r.ok) {
        set({ approveAllError: r.error.message });
        if (r.error.code === 'not_found') await get().loadSessionApprovals();
        return r;
      }
      get().onSessionApprovalRevoked(r.value);
      return r;
    },
    onSessionApprovalRevoked(r) {
      set((s) => ({ sessionApprovals: s.sessionApprovals.filter((x) => x.approval_id !== r.approval_id) }));
    },
    onApproveAllUsed(sessionId, at) {
      set((s) => ({ approveAll: s.approveAll.map((x) => (x.session_id === sessionId && at >= x.since ? { ...x, uses: x.uses + 1, last_used_at: at } : x)) }));
    },
  });
