// What the agent keeps of its conversations: sessions and turns, the transcript the model is sent again
// at every step (redacted before it is stored, notes for the person kept apart), the audit of its
// questions, and, after a restart, how each call the model never got a result for ended. The agent gets
// this narrow view instead of the store.
import type { ModelMessage } from 'ai';
import type { ExecutionOutcome } from '../../common/approvals';
import type { CallState } from '../../common/call-state';
import { clip, type Redactor } from '../redact/redactor';
import type { Store } from '../store/store';

export type ConversationStore = Pick<Store, 'sessions' | 'transcripts' | 'calls' | 'outcomes' | 'audit' | 'transaction'>;

/** A session whose last message is the model's, with calls that never got their results (the process died mid-turn). */
export interface Unanswered {
  sessionId: string;
  turnId: string | null;
  calls: { toolCallId: string; toolName: string; state: CallState | null; outcome: ExecutionOutcome | undefined }[];
}

export class Conversations {
  constructor(
    private readonly store: ConversationStore,
    private readonly redactor: Redactor,
    private readonly now: () => number = Date.now,
  ) {}

  /** A turn begins: its session is made on the first one, titled by the first words (redacted before they are cut). */
  startTurn(sessionId: string, turnId: string, kind: 'reactive' | 'unattended', firstText: string, workspace: string): void {
    this.store.sessions.ensure(sessionId, this.now(), { title: clip(this.redactor.redactTextSync(firstText), 80), workspace: this.redactor.redactTextSync(workspace) });
    this.store.sessions.startTurn({ id: turnId, session_id: sessionId, kind, started_at: this.now() });
  }

  endTurn(turnId: string, reason: string): void {
    this.store.sessions.endTurn(turnId, this.now(), reason);
  }

  async append(sessionId: string, turnId: string | null, role: 'user' | 'assistant' | 'tool' | 'note', content: unknown, origin: 'threshold' | null = null): Promise<void> {
    const redacted = await this.redactor.redactValue(content);
    this.store.transcripts.append({ session_id: sessionId, turn_id: turnId, role, content: redacted, created_at: this.now(), origin });
  }

  /** The same, at once (the repair after a restart runs before any turn). */
  appendNow(sessionId: string, turnId: string | null, role: 'tool' | 'note', content: unknown): void {
    this.store.transcripts.append({ session_id: sessionId, turn_id: turnId, role, content: this.redactor.redactValueSync(content), created_at: this.now() });
  }

  /** What the model is sent again: the session's messages, without the notes for the person. */
  history(sessionId: string): ModelMessage[] {
    return this.store.transcripts
      .list(sessionId)
      .filter((r) => r.role !== 'note')
      .map((r) => r.content as ModelMessage);
  }

  /** A question asked or closed, in the audit history. */
  audit(kind: 'question.asked' | 'question.closed', sessionId: string, subject: string, data: Record<string, unknown>): void {
    this.store.transaction(() => this.store.audit.append({ at: this.now(), kind, session_id: sessionId, subject, data: this.redactor.redactRecord(data) }));
  }

  /**
   * After a restart (no turn runs yet in this process): any turn still open was cut short, and each
   * session whose last message is the model's lists the calls it never got results for, with how each ended.
   */
  unanswered(): Unanswered[] {
    this.store.sessions.endOpenTurns(this.now(), 'crashed');
    const out: Unanswered[] = [];
    // Only the sessions whose last message is the model's (with calls) need a look, not every transcript.
    for (const last of this.store.transcripts.endingWithAssistant()) {
      const content = (last.content as ModelMessage).content;
      const calls = Array.isArray(content) ? (content as { type: string; toolCallId?: string; toolName?: string }[]).filter((p) => p.type === 'tool-call') : [];
      if (!calls.length) continue;
      const rows = new Map(this.store.calls.byModelCallIds(last.session_id, calls.map((c) => c.toolCallId!)).map((r) => [r.model_call_id, r]));
      out.push({
        sessionId: last.session_id,
        turnId: last.turn_id,
        calls: calls.map((c) => {
          const row = rows.get(c.toolCallId!);
          return { toolCallId: c.toolCallId!, toolName: c.toolName!, state: row?.state ?? null, outcome: row ? this.store.outcomes.get(row.id) : undefined };
        }),
      });
    }
    return out;
  }
}
