// Session transcripts: the conversation as the model sees it (redacted before it is stored), plus notes
// for the user (provider problems, restarts) that are never sent to the model.
import type { Redacted } from '../redact/redactor';
import type { Db } from './db';

export interface TranscriptRow {
  session_id: string;
  seq: number;
  turn_id: string | null;
  role: 'user' | 'assistant' | 'tool' | 'note';
  content: unknown;
  created_at: number;
  /**
   * Who wrote a `user` message: null for the person (any surface), 'threshold' for a message the product
   * itself sent the model (after a restart, say). The model reads both as user turns; a person must not.
   */
  origin: 'threshold' | null;
}

export class TranscriptRepo {
  constructor(private readonly db: Db) {}

  append(row: Omit<TranscriptRow, 'seq' | 'content' | 'origin'> & { content: Redacted<unknown>; origin?: 'threshold' | null }): number {
    const next = (this.db.prepare('SELECT coalesce(max(seq), 0) + 1 AS n FROM messages WHERE session_id = ?').get(row.session_id) as { n: number }).n;
    this.db
      .prepare('INSERT INTO messages (session_id, seq, turn_id, role, content, created_at, origin) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(row.session_id, next, row.turn_id, row.role, JSON.stringify(row.content), row.created_at, row.origin ?? null);
    this.db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?').run(row.created_at, row.session_id);
    return next;
  }

  list(sessionId: string): TranscriptRow[] {
    const rows = this.db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY seq').all(sessionId) as RawRow[];
    return rows.map(parse);
  }

  /** Sessions whose conversation (notes aside) ends with an assistant message: the one message each. */
  endingWithAssistant(): TranscriptRow[] {
    const rows = this.db
      .prepare(
        `SELECT m.* FROM messages m
         JOIN (SELECT session_id, max(seq) AS seq FROM messages WHERE role != 'note' GROUP BY session_id) last
           ON last.session_id = m.session_id AND last.seq = m.seq
         WHERE m.role = 'assistant'`,
      )
      .all() as RawRow[];
    return rows.map(parse);
  }
}

type RawRow = Omit<TranscriptRow, 'content'> & { content: string };

function parse(r: RawRow): TranscriptRow {
  return { ...r, content: JSON.parse(r.content) as unknown, origin: r.origin === 'threshold' ? 'threshold' : null };
}
