// Checkpoints as the user sees them: taken before any call that may change the workspace, listed,
// diffed (what a call changed) and restored (itself recorded in the audit history, and undoable:
// a restore first checkpoints the state it replaces).
import { ShadowGit, type DiffResult } from '../../executor/checkpoints';
import type { CheckpointRow } from '../store/checkpoints-repo';
import { Redactor } from '../redact/redactor';
import { newId } from '../store/ids';
import type { Store } from '../store/store';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface CheckpointView {
  id: string;
  workspace: string;
  session_id: string | null;
  call_id: string | null;
  kind: CheckpointRow['kind'];
  commit: string;
  files: number;
  /** Left out by the size cap (ignored files are left out by .gitignore). */
  excluded: string[];
  created_at: number;
  restored_at: number | null;
  /** What the call did, when known: the tool and its redacted arguments. */
  call: { tool: string; args: unknown } | null;
}

/** A checkpoint just taken, with what it does not hold (absolute paths; not stored). */
export interface TakenCheckpoint extends CheckpointView {
  /** Ignored or over-the-cap paths outside the regenerable folders: read-only for the call that follows. */
  unheld: string[];
  /** Whether the workspace repository's history (refs, stash, reflogs, objects) is in the checkpoint. */
  history: boolean;
}

export class CheckpointError extends Error {
  constructor(
    readonly code: 'not_found' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

export class CheckpointService {
  private readonly repos = new Map<string, ShadowGit>();

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly now: () => number = Date.now,
    private readonly maxFileBytes?: number,
    /** Audit data passes it (the workspace path names the home folder). */
    private readonly redactor: Redactor = new Redactor({ home: homedir() }),
  ) {}

  private repo(workspace: string): ShadowGit {
    let g = this.repos.get(workspace);
    if (!g) this.repos.set(workspace, (g = new ShadowGit(workspace, join(this.dataDir, 'checkpoints'), this.maxFileBytes)));
    return g;
  }

  /** Snapshots the workspace before a call that may change it. */
  async before(workspace: string, ctx: { sessionId: string | null; callId: string | null; kind?: CheckpointRow['kind'] }): Promise<TakenCheckpoint> {
    const snap = await this.repo(workspace).snapshot(`before ${ctx.callId ?? ctx.kind ?? 'call'}`);
    const row: Omit<CheckpointRow, 'restored_at'> = {
      id: newId('cp'),
      workspace,
      session_id: ctx.sessionId,
      call_id: ctx.callId,
      kind: ctx.kind ?? 'before_call',
      commit_sha: snap.commit,
      tree_sha: snap.tree,
      files: snap.files,
      excluded: snap.excluded,
      created_at: this.now(),
    };
    this.store.transaction(() => {
      this.store.checkpoints.insert(row);
      this.store.audit.append({ at: row.created_at, kind: 'checkpoint.created', session_id: ctx.sessionId, subject: row.id, data: this.redactor.redactRecord({ workspace, call_id: ctx.callId, commit: snap.commit, files: snap.files, excluded: snap.excluded.length, kind: row.kind, history: snap.history !== null, unheld: snap.unheld.length }, ['commit']) });
    });
    return { ...this.view({ ...row, restored_at: null }), unheld: snap.unheld.map((rel) => join(workspace, rel)), history: snap.history !== null };
  }

  list(workspace?: string, limit = 100): CheckpointView[] {
    return this.store.checkpoints.list(workspace, limit).map((r) => this.view(r));
  }

  get(id: string): CheckpointView {
    const r = this.store.checkpoints.get(id);
    if (!r) throw new CheckpointError('not_found', `There is no checkpoint ${id}.`);
    return this.view(r);
  }

  /** What the call after this checkpoint changed: to the next checkpoint, or to the workspace as it is now. */
  async diff(id: string): Promise<DiffResult> {
    const r = this.store.checkpoints.get(id);
    if (!r) throw new CheckpointError('not_found', `There is no checkpoint ${id}.`);
    const g = this.repo(r.workspace);
    const next = this.store.checkpoints.next(r);
    return g.diff(r.commit_sha, next ? next.commit_sha : await g.currentTree());
  }

  /** Restores the workspace to the state before the checkpoint's call; returns the checkpoint taken first. */
  async restore(id: string, by: string): Promise<{ restored: CheckpointView; safety: CheckpointView }> {
    const r = this.store.checkpoints.get(id);
    if (!r) throw new CheckpointError('not_found', `There is no checkpoint ${id}.`);
    const safety = await this.before(r.workspace, { sessionId: r.session_id, callId: null, kind: 'before_restore' });
    await this.repo(r.workspace).restore(r.commit_sha);
    const at = this.now();
    this.store.transaction(() => {
      this.store.checkpoints.markRestored(id, at);
      this.store.audit.append({ at, kind: 'checkpoint.restored', session_id: r.session_id, subject: id, data: this.redactor.redactRecord({ workspace: r.workspace, commit: r.commit_sha, by, undo_checkpoint: safety.id }, ['commit']) });
    });
    return { restored: this.get(id), safety };
  }

  private view(r: CheckpointRow): CheckpointView {
    const call = r.call_id ? this.store.calls.get(r.call_id) : undefined;
    return {
      id: r.id,
      workspace: r.workspace,
      session_id: r.session_id,
      call_id: r.call_id,
      kind: r.kind,
      commit: r.commit_sha,
      files: r.files,
      excluded: r.excluded,
      created_at: r.created_at,
      restored_at: r.restored_at,
      call: call ? { tool: call.tool, args: JSON.parse(call.args_redacted) as unknown } : null,
    };
  }
}
