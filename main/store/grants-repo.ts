// Grants the user made (from an approval card, the UI or the control API). Config grants live in the
// config file and are not stored.
import type { GrantRecord } from '../../common/approvals';
import type { Grant, GrantPattern, GrantScope } from '../../common/domain';
import { normaliseGrantPattern } from '../../common/grant-pattern';
import type { Redacted } from '../redact/redactor';
import type { Db } from './db';

interface GrantRow extends Omit<GrantRecord, 'pattern'> {
  pattern: string;
}

/** A grant to store: its pattern and note have passed the redactor (a pattern with a secret is refused before). */
export type NewGrant = Omit<GrantRecord, 'last_used_at' | 'use_count' | 'revoked_at' | 'pattern' | 'note'> & { pattern: Redacted<GrantPattern>; note: Redacted<string> | null };

export class GrantsRepo {
  constructor(private readonly db: Db) {}

  insert(g: NewGrant): void {
    this.db
      .prepare(
        `INSERT INTO grants (id, tool, pattern, scope, session_id, expires_at, source, source_session_id, source_call_id, created_at, note)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(g.id, g.tool, JSON.stringify(g.pattern), g.scope, g.session_id, g.expires_at, g.source, g.source_session_id, g.source_call_id, g.created_at, g.note);
  }

  get(id: string): GrantRecord | undefined {
    const row = this.db.prepare('SELECT * FROM grants WHERE id = ?').get(id) as GrantRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Every grant, newest first; `active` leaves out revoked and expired ones. */
  list(opts: { active?: boolean; now?: number } = {}): GrantRecord[] {
    const rows = (
      opts.active
        ? this.db.prepare('SELECT * FROM grants WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC').all(opts.now ?? Date.now())
        : this.db.prepare('SELECT * FROM grants ORDER BY created_at DESC').all()
    ) as GrantRow[];
    return rows.map(toRecord);
  }

  update(id: string, fields: { pattern?: Redacted<GrantPattern>; scope?: GrantScope; session_id?: string | null; expires_at?: number | null; note?: Redacted<string> | null }): boolean {
    const current = this.get(id);
    if (!current || current.revoked_at !== null) return false;
    const next = { ...current, ...fields };
    return (
      this.db
        .prepare('UPDATE grants SET pattern = ?, scope = ?, session_id = ?, expires_at = ?, note = ? WHERE id = ? AND revoked_at IS NULL')
        .run(JSON.stringify(next.pattern), next.scope, next.session_id, next.expires_at, next.note, id).changes === 1
    );
  }

  revoke(id: string, at: number): boolean {
    return this.db.prepare('UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id).changes === 1;
  }

  recordUse(ids: readonly string[], at: number): void {
    const stmt = this.db.prepare('UPDATE grants SET last_used_at = ?, use_count = use_count + 1 WHERE id = ?');
    for (const id of ids) stmt.run(at, id);
  }
}

function toRecord(r: GrantRow): GrantRecord {
  return { ...r, pattern: JSON.parse(r.pattern) as GrantPattern };
}

/** The policy's view of a stored grant. */
export function toPolicyGrant(g: GrantRecord): Grant {
  return {
    id: g.id,
    tool: g.tool,
    // As the matcher and the width judge read it (common/grant-pattern.ts), whatever version wrote the row.
    pattern: normaliseGrantPattern(g.pattern),
    scope: g.scope,
    sessionId: g.session_id,
    expiresAt: g.expires_at,
    provenance: { source: g.source, sessionId: g.source_session_id, callId: g.source_call_id },
    createdAt: g.created_at,
    lastUsedAt: g.last_used_at,
    useCount: g.use_count,
    note: g.note,
  };
}
