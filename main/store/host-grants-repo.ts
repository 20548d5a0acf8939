// Hosts the user allowed the egress proxy to reach after it refused them: for one session, until a time,
// or always. Patterns as common/hosts.ts reads them; revoking keeps the row (it is history).
import type { Db } from './db';

export interface HostGrantRow {
  pattern: string;
  scope: 'session' | 'until' | 'always';
  session_id: string | null;
  expires_at: number | null;
  created_at: number;
}

export class HostGrantsRepo {
  constructor(private readonly db: Db) {}

  insert(g: HostGrantRow): void {
    this.db
      .prepare('INSERT INTO host_grants (pattern, scope, session_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(g.pattern, g.scope, g.session_id ?? '', g.expires_at, g.created_at);
  }

  /** Patterns in force for a session at a time: always, this session's, and those not yet expired. */
  patterns(sessionId: string | null, now: number): string[] {
    const rows = this.db
      .prepare("SELECT pattern FROM host_grants WHERE revoked_at IS NULL AND (scope = 'always' OR (scope = 'session' AND session_id = ?) OR (scope = 'until' AND expires_at > ?)) ORDER BY rowid")
      .all(sessionId ?? '', now) as { pattern: string }[];
    return [...new Set(rows.map((r) => r.pattern))];
  }

  revoke(pattern: string, at: number): number {
    return this.db.prepare('UPDATE host_grants SET revoked_at = ? WHERE pattern = ? AND revoked_at IS NULL').run(at, pattern).changes;
  }
}
