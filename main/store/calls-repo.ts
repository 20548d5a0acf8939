// Tool calls, with their redacted arguments and their state.
import type { Redacted } from '../redact/redactor';
import type { Db } from './db';

export interface CallRow {
  id: string;
  session_id: string;
  turn_id: string | null;
  tool: string;
  args_redacted: string;
  content_hash: string;
  cwd: string | null;
  class: string | null;
  effects: string | null;
  decision: string | null;
  decided_by: string | null;
  explanation: string | null;
  state: string;
  created_at: number;
  updated_at: number;
}

export class CallsRepo {
  constructor(private readonly db: Db) {}

  /** The arguments (as JSON), the working directory and the explanation come redacted. */
  insert(row: Omit<CallRow, 'updated_at' | 'args_redacted' | 'cwd' | 'explanation'> & { args_redacted: Redacted<string>; cwd: Redacted<string> | null; explanation: Redacted<string> | null }): void {
    this.db
      .prepare(
        `INSERT INTO tool_calls (id, session_id, turn_id, tool, args_redacted, content_hash, cwd, class, effects, decision, decided_by, explanation, state, created_at, updated_at)
         VALUES (@id, @session_id, @turn_id, @tool, @args_redacted, @content_hash, @cwd, @class, @effects, @decision, @decided_by, @explanation, @state, @created_at, @created_at)`,
      )
      .run(row);
  }

  setState(id: string, state: string, at: number, decision?: { decision: string; decided_by: string; explanation: string; class: string; effects: string }): void {
    if (decision) {
      this.db
        .prepare('UPDATE tool_calls SET state = ?, updated_at = ?, decision = ?, decided_by = ?, explanation = ?, class = ?, effects = ? WHERE id = ?')
        .run(state, at, decision.decision, decision.decided_by, decision.explanation, decision.class, decision.effects, id);
    } else this.db.prepare('UPDATE tool_calls SET state = ?, updated_at = ? WHERE id = ?').run(state, at, id);
  }

  get(id: string): CallRow | undefined {
    return this.db.prepare('SELECT * FROM tool_calls WHERE id = ?').get(id) as CallRow | undefined;
  }

  listForSession(sessionId: string): CallRow[] {
    return this.db.prepare('SELECT * FROM tool_calls WHERE session_id = ? ORDER BY created_at, rowid').all(sessionId) as CallRow[];
  }
}
