// Sessions and turns.
import type { Redacted } from '../redact/redactor';
import type { Db } from './db';

export interface SessionRow {
  id: string;
  title: string | null;
  workspace: string | null;
  created_at: number;
  approve_all_at: number | null;
  approve_all_approval: string | null;
  /** When the session last had a turn (null before the first). */
  updated_at: number | null;
}

export interface TurnRow {
  id: string;
  session_id: string;
  kind: 'reactive' | 'unattended';
  started_at: number;
  ended_at: number | null;
  end_reason: string | null;
}

export class SessionsRepo {
  constructor(private readonly db: Db) {}

  /** The title (the first words of the first message) and the workspace path come redacted. */
  ensure(id: string, at: number, fields: { title?: Redacted<string> | null; workspace?: Redacted<string> | null } = {}): void {
    this.db
      .prepare('INSERT INTO sessions (id, title, workspace, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO NOTHING')
      .run(id, fields.title ?? null, fields.workspace ?? null, at);
  }

  get(id: string): SessionRow | undefined {
    return this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
  }

  list(limit = 100): SessionRow[] {
    return this.db.prepare('SELECT * FROM sessions ORDER BY COALESCE(updated_at, created_at) DESC, created_at DESC LIMIT ?').all(limit) as SessionRow[];
  }

  setApproveAll(id: string, at: number, approvalId: string): void {
    this.db.prepare('UPDATE sessions SET approve_all_at = ?, approve_all_approval = ? WHERE id = ? AND approve_all_at IS NULL').run(at, approvalId, id);
  }

  /** Ends a session's approve-all; false when it had none (already ended, or never on). */
  endApproveAll(id: string): boolean {
    return this.db.prepare('UPDATE sessions SET approve_all_at = NULL, approve_all_approval = NULL WHERE id = ? AND approve_all_at IS NOT NULL').run(id).changes === 1;
  }

  /** Sessions in approve-all mode, the most recent first. */
  listApproveAll(): SessionRow[] {
    return this.db.prepare('SELECT * FROM sessions WHERE approve_all_at IS NOT NULL ORDER BY approve_all_at DESC').all() as SessionRow[];
  }

  startTurn(turn: Omit<TurnRow, 'ended_at' | 'end_reason'>): void {
    this.db.prepare('INSERT INTO turns (id, session_id, kind, started_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO NOTHING').run(turn.id, turn.session_id, turn.kind, turn.started_at);
  }

  endTurn(id: string, at: number, reason: string): void {
    this.db.prepare('UPDATE turns SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL').run(at, reason, id);
  }

  /** Turns a previous process left open (it died mid-turn): ended now with the reason given. */
  endOpenTurns(at: number, reason: string): number {
    return this.db.prepare('UPDATE turns SET ended_at = ?, end_reason = ? WHERE ended_at IS NULL').run(at, reason).changes;
  }

  getTurn(id: string): TurnRow | undefined {
    return this.db.prepare('SELECT * FROM turns WHERE id = ?').get(id) as TurnRow | undefined;
  }
}
