// What the surfaces read from the store, as one service: decisions, every call, audit entries, sessions
// and their transcripts. Handlers and hosts ask this instead of reaching into core.store, so the store's shape
// can change behind it (only main/store knows SQL; only this file knows which repository answers).
import type { DecisionRecord, Outcome } from '../../common/approvals';
import type { CallPage } from '../../common/history';
import type { CheckpointView } from '../calls/checkpoints';
import type { ThresholdCore } from './core';
import type { CallHistoryDetail, CallQuery } from '../store/call-history-repo';
import type { AuditEntry } from '../store/audit-repo';
import type { SessionRow } from '../store/sessions-repo';
import type { TranscriptRow } from '../store/transcript-repo';

export interface History {
  decisions(filter: { limit: number; session_id?: string; outcome?: Outcome; tool?: string; since?: number }): DecisionRecord[];
  /** Every call the gate saw (throws CursorError for a cursor it did not give out). */
  calls(query: CallQuery): CallPage;
  /** One call in full, with its checkpoint and audit entries; null when there is no such call. */
  call(id: string): (CallHistoryDetail & { checkpoint: CheckpointView | null; audit: AuditEntry[] }) | null;
  audit(filter: { limit: number; before?: number; kind?: string }): AuditEntry[];
  sessions(limit: number): SessionRow[];
  /** A session's transcript, or null when there is no such session. */
  transcript(sessionId: string): TranscriptRow[] | null;
  hasSessions(): boolean;
}

export function historyOf(core: ThresholdCore): History {
  const store = core.store;
  return {
    decisions: (filter) => store.approvals.listDecisions(filter),
    calls: (query) => store.history.list(query),
    call: (id) => {
      const c = store.history.get(id);
      if (!c) return null;
      const checkpoint = c.checkpoint_id ? core.checkpoints.get(c.checkpoint_id) : null;
      const subjects = [c.id, ...(c.asked ? [c.asked.id] : []), ...(c.checkpoint_id ? [c.checkpoint_id] : [])];
      return { ...c, checkpoint, audit: store.audit.bySubjects(subjects) };
    },
    audit: (filter) => store.audit.list(filter),
    sessions: (limit) => store.sessions.list(limit),
    transcript: (sessionId) => (store.sessions.get(sessionId) ? store.transcripts.list(sessionId) : null),
    hasSessions: () => store.sessions.list(1).length > 0,
  };
}
