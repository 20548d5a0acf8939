import type { StateCreator } from 'zustand/vanilla';
import type { CallRecord } from '../../../common/history';
import { FINAL_CALL_STATES } from '../bridge/events';
import { advance } from '../model/call-status';
import { cannotSendNow } from '../model/connection';
import { summarizeCall } from '../model/describe';
import { chatItems } from '../model/transcript';
import { routeChatReply } from '../model/yes-no';
import type { AppState, ChatSlice, SliceDeps } from './types';

/** A session's stored calls are read 500 at a time, up to this many pages (older rows fall back to their results). */
const MAX_RECORD_PAGES = 20;

export const createChatSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], ChatSlice> =>
  (set, get) => {
    // Each transcript load drops only the streamed text it now holds (text streamed meanwhile stays).
    // The session's stored calls come with it: the rows of the chat read the record History reads. A
    // load for a call's own event skips them (the event carries its state; the card is on its way).
    const loadTranscript = async (sessionId: string, withRecords = true) => {
      const streamedBefore = get().streaming[sessionId]?.length ?? 0;
      const [r, records] = await Promise.all([api.getTranscript({ session_id: sessionId }), withRecords ? loadCallRecords(sessionId) : null]);
      if (!r.ok) return;
      set((s) => ({
        transcripts: { ...s.transcripts, [sessionId]: r.value },
        streaming: { ...s.streaming, [sessionId]: (s.streaming[sessionId] ?? '').slice(streamedBefore) },
        ...(records ? { callRecords: { ...s.callRecords, [sessionId]: records } } : {}),
      }));
    };
    /** The session's stored calls by the model's call id (the newest row when a model reused an id). */
    const loadCallRecords = async (sessionId: string): Promise<Record<string, CallRecord> | null> => {
      const byModelId: Record<string, CallRecord> = {};
      let cursor: string | undefined;
      for (let page = 0; page < MAX_RECORD_PAGES; page++) {
        const r = await api.listCalls({ session_id: sessionId, limit: 500, ...(cursor ? { cursor } : {}) });
        if (!r.ok) return page === 0 ? null : byModelId;
        for (const c of r.value.calls) if (c.model_call_id && !byModelId[c.model_call_id]) byModelId[c.model_call_id] = c;
        if (!r.value.next_cursor) break;
        cursor = r.value.next_cursor;
      }
      return byModelId;
    };
    return {
      sessions: [],
      currentSessionId: null,
      transcripts: {},
      streaming: {},
      calls: {},
      callRecords: {},
      toolCallOf: {},
      output: {},
      running: [],
      localNotes: {},
      sendError: null,
      async loadSessions() {
        const r = await api.listSessions();
        if (!r.ok) return;
        set({ sessions: r.value, running: r.value.filter((s) => s.running).map((s) => s.id) });
        const cur = get().currentSessionId;
        if (cur === null && r.value.length) await get().selectSession(r.value[0]!.id);
        else if (cur) await loadTranscript(cur);
      },
      async selectSession(id) {
        set({ currentSessionId: id, sendError: null });
        if (id) await loadTranscript(id);
      },
      loadTranscript: (sessionId) => loadTranscript(sessionId),
      async send(text) {
        const s = get();
        const offline = cannotSendNow(s.connection);
        if (offline) {
          set({ sendError: offline });
          return false;
        }
        const reply = routeChatReply(text, s.pending.filter((p) => p.session_id === s.currentSessionId));
        if (reply.kind === 'point_to_card') {
          // Nothing typed here decides a card (issue 20): say where the card is, send nothing.
          const card = s.pending.find((p) => p.id === reply.approvalId)!;
          get().addLocalNote(card.session_id, `Your "${text.trim()}" was not sent and decided nothing: a reply in the message box never decides a card. Use the buttons on the card above (${card.tool}: ${summarizeCall(card.tool, card.args)}).`);
          return true;
        }
        const r = await api.send({ message: text, ...(s.currentSessionId ? { session_id: s.currentSessionId } : {}) });
        if (!r.ok) {
          set({ sendError: r.error.message });
          return false;
        }
        set((st) => ({ sendError: null, currentSessionId: r.value.session_id, running: st.running.includes(r.value.session_id) ? st.running : [...st.running, r.value.session_id] }));
        await get().loadSessions();
        await loadTranscript(r.value.session_id);
        return true;
      },
      async stop() {
        const id = get().currentSessionId;
        if (!id) return;
        const r = await api.stop({ session_id: id });
        if (!r.ok) set({ sendError: r.error.message });
      },
      addLocalNote(sessionId, text) {
        // After the chat items shown now, so later messages come below it.
        set((s) => ({ localNotes: { ...s.localNotes, [sessionId]: [...(s.localNotes[sessionId] ?? []), { after: chatItems(s.transcripts[sessionId] ?? []).length, text }] } }));
      },
      onTurnStarted(e) {
        set((s) => ({ model: e.model || s.model, running: s.running.includes(e.session_id) ? s.running : [...s.running, e.session_id] }));
        if (!get().sessions.some((x) => x.id === e.session_id)) void get().loadSessions();
        if (get().currentSessionId === null) void get().selectSession(e.session_id);
      },
      onTurnText(e) {
        set((s) => ({ streaming: { ...s.streaming, [e.session_id]: (s.streaming[e.session_id] ?? '') + e.delta } }));
      },
      onTurnEnded(e) {
        set((s) => ({ running: s.running.filter((x) => x !== e.session_id) }));
        void loadTranscript(e.session_id);
        void get().loadSessions();
      },
      onCallState(e) {
        const known = get().calls[e.tool_call_id];
        const gateCallId = e.call_id !== e.tool_call_id ? e.call_id : (known?.gateCallId ?? null);
        // Reports of one call can cross (the gate's and the agent's): a call never moves back.
        const state = advance(known?.state, e.state);
        set((s) => ({
          calls: { ...s.calls, [e.tool_call_id]: { state, detail: state === e.state ? e.detail : (known?.detail ?? null), gateCallId } },
          toolCallOf: gateCallId ? { ...s.toolCallOf, [gateCallId]: e.tool_call_id } : s.toolCallOf,
        }));
        // The call's arguments are in the stored assistant message: load it when a call first shows, and its result at the end.
        if (!known || FINAL_CALL_STATES.has(e.state)) void loadTranscript(e.session_id, false);
      },
      onCallOutput(e) {
        set((s) => ({ output: { ...s.output, [e.call_id]: ((s.output[e.call_id] ?? '') + e.chunk).slice(-64 * 1024) } }));
      },
      onSessionNote(e) {
        if (e.session_id) void loadTranscript(e.session_id);
      },
    };
  };
