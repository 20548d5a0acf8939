// Checkpoints taken of workspaces, and the jail paths the user granted after a sandbox denial.
import type { Db } from './db';

export interface CheckpointRow {
  id: string;
  workspace: string;
  session_id: string | null;
  call_id: string | null;
  kind: 'before_call' | 'before_restore' | 'manual';
  commit_sha: string;
  tree_sha: string;
  files: number;
  excluded: string[];
  created_at: number;
  restored_at: number | null;
  /** A before_restore checkpoint: the checkpoint whose restore it was taken for (restoring it undoes that restore). */
  restore_of: string | null;
}

export interface JailPathRow {
  path: string;
  access: 'write' | 'read' | 'code';
  scope: 'session' | 'always';
  session_id: string | null;
  created_at: number;
}

export class CheckpointsRepo {
  constructor(private readonly db: Db) {}

  insert(c: Omit<CheckpointRow, 'restored_at' | 'restore_of'> & { restore_of?: string | null }): void {
    this.db
      .prepare('INSERT INTO checkpoints (id, workspace, session_id, call_id, kind, commit_sha, tree_sha, files, excluded, created_at, restore_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(c.id, c.workspace, c.session_id, c.call_id, c.kind, c.commit_sha, c.tree_sha, c.files, JSON.stringify(c.excluded), c.created_at, c.restore_of ?? null);
  }

  get(id: string): CheckpointRow | undefined {
    const r = this.db.prepare('SELECT * FROM checkpoints WHERE id = ?').get(id) as (Omit<CheckpointRow, 'excluded'> & { excluded: string }) | undefined;
    return r ? { ...r, excluded: JSON.parse(r.excluded) as string[] } : undefined;
  }

  list(workspace?: string, limit = 100): CheckpointRow[] {
    const rows = (
      workspace
        ? this.db.prepare('SELECT * FROM checkpoints WHERE workspace = ? ORDER BY created_at DESC, rowid DESC LIMIT ?').all(workspace, limit)
        : this.db.prepare('SELECT * FROM checkpoints ORDER BY created_at DESC, rowid DESC LIMIT ?').all(limit)
    ) as (Omit<CheckpointRow, 'excluded'> & { excluded: string })[];
    return rows.map((r) => ({ ...r, excluded: JSON.parse(r.excluded) as string[] }));
  }

  /** The checkpoint taken after this one in the same workspace: the state right after its call. */
  next(c: CheckpointRow): CheckpointRow | undefined {
    const r = this.db
      .prepare('SELECT * FROM checkpoints WHERE workspace = ? AND (created_at > ? OR (created_at = ? AND rowid > (SELECT rowid FROM checkpoints WHERE id = ?))) ORDER BY created_at, rowid LIMIT 1')
      .get(c.workspace, c.created_at, c.created_at, c.id) as (Omit<CheckpointRow, 'excluded'> & { excluded: string }) | undefined;
    return r ? { ...r, excluded: JSON.parse(r.excluded) as string[] } : undefined;
  }

  /** Every checkpoint taken after this one in the same workspace, oldest first (at most `limit`). */
  after(c: CheckpointRow, limit: number): CheckpointRow[] {
    const rows = this.db
      .prepare('SELECT * FROM checkpoints WHERE workspace = ? AND (created_at > ? OR (created_at = ? AND rowid > (SELECT rowid FROM checkpoints WHERE id = ?))) ORDER BY created_at, rowid LIMIT ?')
      .all(c.workspace, c.created_at, c.created_at, c.id, limit) as (Omit<CheckpointRow, 'excluded'> & { excluded: string })[];
    return rows.map((r) => ({ ...r, excluded: JSON.parse(r.excluded) as string[] }));
  }

  /** How many checkpoints were taken after this one in the same workspace. */
  countAfter(c: CheckpointRow): number {
    return (
      this.db
        .prepare('SELECT count(*) AS n FROM checkpoints WHERE workspace = ? AND (created_at > ? OR (created_at = ? AND rowid > (SELECT rowid FROM checkpoints WHERE id = ?)))')
        .get(c.workspace, c.created_at, c.created_at, c.id) as { n: number }
    ).n;
  }

  /** The checkpoint taken just before the last restore of this one: restoring it undoes that restore. */
  undoPointOf(id: string): CheckpointRow | undefined {
    const r = this.db.prepare("SELECT * FROM checkpoints WHERE restore_of = ? AND kind = 'before_restore' ORDER BY created_at DESC, rowid DESC LIMIT 1").get(id) as (Omit<CheckpointRow, 'excluded'> & { excluded: string }) | undefined;
    return r ? { ...r, excluded: JSON.parse(r.excluded) as string[] } : undefined;
  }

  /** Records that a before_restore checkpoint is the undo point of a restore of `restoredId`. */
  linkRestore(safetyId: string, restoredId: string): void {
    this.db.prepare("UPDATE checkpoints SET restore_of = ? WHERE id = ? AND kind = 'before_restore'").run(restoredId, safetyId);
  }

  markRestored(id: string, at: number): void {
    this.db.prepare('UPDATE checkpoints SET restored_at = ? WHERE id = ?').run(at, id);
  }

  grantPath(p: JailPathRow): void {
    this.db
      .prepare('INSERT INTO jail_paths (path, access, scope, session_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
      .run(p.path, p.access, p.scope, p.session_id ?? '', p.created_at);
  }

  /** Paths granted for this session or always. */
  grantedPaths(access: JailPathRow['access'], sessionId: string | null): string[] {
    const rows = this.db
      .prepare("SELECT path FROM jail_paths WHERE access = ? AND revoked_at IS NULL AND (scope = 'always' OR (scope = 'session' AND session_id = ?))")
      .all(access, sessionId ?? '') as { path: string }[];
    return [...new Set(rows.map((r) => r.path))];
  }
}
