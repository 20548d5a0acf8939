// Checkpoints as the user sees them: taken before any call that may change the workspace, listed,
// diffed (what a call changed) and restored (itself recorded in the audit history, and undoable:
// a restore first checkpoints the state it replaces, and restoring that checkpoint undoes it).
// Before a restore, `plan` names everything it will undo: a restore puts back the state before the
// call, so it reverts that call and every change made in the workspace after it (later calls, and
// edits made outside Threshold), each listed with its files and diff. The restore then checks that
// the workspace is still the one the plan showed.
import { ShadowGit, WorkspaceChanged, type DiffResult } from '../../executor/checkpoints';
import type { CheckpointRow } from '../store/checkpoints-repo';
import { Redactor } from '../redact/redactor';
import { newId } from '../store/ids';
import type { Store } from '../store/store';
import { existsSync } from 'node:fs';
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
  /** A checkpoint taken before a restore: which checkpoint was restored (restoring this one undoes that). */
  restore_of: string | null;
  /** After this checkpoint was restored: the checkpoint taken just before, which undoes that restore, and when it was used. */
  undo: { id: string; created_at: number; restored_at: number | null } | null;
}

export type FileChange = { path: string; change: 'added' | 'modified' | 'deleted' };

/** Everything a restore would undo, shown before the person confirms. */
export interface RestorePlan {
  checkpoint: CheckpointView;
  /** The workspace as the plan saw it: the restore refuses to run on anything else. */
  tree: string;
  /** What changed since the checkpoint, file by file (Restore deletes what was added, puts back the rest). */
  files: FileChange[];
  /** The changes grouped by the checkpoint that came before them (this call first, then each later one), oldest first. */
  steps: { checkpoint: CheckpointView; files: FileChange[]; patch: string; truncated: boolean }[];
  /** Later checkpoints beyond the ones listed. */
  more_steps: number;
  /** Paths no checkpoint holds (ignored by .gitignore, or too large): Restore leaves them as they are. */
  left_alone: string[];
  left_alone_more: number;
}

const PLAN_STEPS = 50;
const STEP_PATCH_BYTES = 24 * 1024;
const LEFT_ALONE_SHOWN = 50;
const CHANGE_WORD = { A: 'added', M: 'modified', D: 'deleted' } as const;

/** A checkpoint just taken, with what it does not hold (absolute paths; not stored). */
export interface TakenCheckpoint extends CheckpointView {
  /** Ignored or over-the-cap paths outside the regenerable folders: read-only for the call that follows. */
  unheld: string[];
  /** Whether the workspace repository's history (refs, stash, reflogs, objects) is in the checkpoint. */
  history: boolean;
}

export class CheckpointError extends Error {
  constructor(
    readonly code: 'not_found' | 'failed' | 'changed' | 'busy',
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
    return (await this.take(workspace, ctx)).taken;
  }

  private async take(workspace: string, ctx: { sessionId: string | null; callId: string | null; kind?: CheckpointRow['kind'] }): Promise<{ taken: TakenCheckpoint; tree: string }> {
    const snap = await this.repo(workspace).snapshot(`before ${ctx.callId ?? ctx.kind ?? 'call'}`);
    const row: Omit<CheckpointRow, 'restored_at' | 'restore_of'> = {
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
    return { taken: { ...this.view({ ...row, restored_at: null, restore_of: null }), unheld: snap.unheld.map((rel) => join(workspace, rel)), history: snap.history !== null }, tree: snap.tree };
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

  /** Everything restoring this checkpoint would undo, for the person to read before confirming. */
  async plan(id: string): Promise<RestorePlan> {
    const r = this.row(id);
    const g = this.repo(r.workspace);
    const tree = await g.treeNow();
    // What was ignored when the checkpoint was taken, the restore leaves as it is (executor/checkpoints.ts
    // keepWhatWasIgnored), even if it is no longer ignored: never listed as undone.
    const thenIgnored = await g.ignoredAt(r.commit_sha);
    const wasIgnored = (path: string) => thenIgnored.some((i) => (i.endsWith('/') ? path.startsWith(i) : path === i));
    const undone = (files: { path: string; change: 'A' | 'M' | 'D' }[]) => files.filter((f) => !wasIgnored(f.path)).map(word);
    const later = this.store.checkpoints.after(r, PLAN_STEPS);
    const points = [r, ...later];
    const steps: RestorePlan['steps'] = [];
    for (let i = 0; i < points.length; i++) {
      const from = points[i]!.commit_sha;
      const to = points[i + 1]?.commit_sha ?? tree;
      const files = undone(await g.changedFiles(from, to));
      if (!files.length) continue;
      const d = await g.diff(from, to, STEP_PATCH_BYTES);
      steps.push({ checkpoint: this.view(points[i]!), files, patch: d.patch, truncated: d.truncated });
    }
    const leftOut = [...new Set([...(await g.leftOutNow()), ...thenIgnored.filter((p) => existsSync(join(r.workspace, p)))])].sort();
    return {
      checkpoint: this.view(r),
      tree,
      files: undone(await g.changedFiles(r.commit_sha, tree)),
      steps,
      more_steps: Math.max(0, this.store.checkpoints.countAfter(r) - later.length),
      left_alone: leftOut.slice(0, LEFT_ALONE_SHOWN),
      left_alone_more: Math.max(0, leftOut.length - LEFT_ALONE_SHOWN),
    };
  }

  /**
   * Restores the workspace to the state before the checkpoint's call; returns the checkpoint taken first
   * (restoring it undoes this restore). With `expectedTree` (the plan's `tree`), a workspace that changed
   * since the plan was shown is not restored: the person would undo what they never saw.
   */
  async restore(id: string, by: string, expectedTree?: string): Promise<{ restored: CheckpointView; safety: CheckpointView }> {
    const r = this.row(id);
    // A command still running could write while the workspace is put back: then neither the restore nor
    // its undo would hold what it wrote.
    const running = this.store.calls.listInFlight().find((c) => c.state === 'executing');
    if (running) throw new CheckpointError('busy', `A call is still running (${running.tool}, ${running.id}), so nothing was restored: restore once it has finished, or stop it first (if Threshold stopped while it ran, start Threshold again: it ends such calls at start).`);
    const { taken: safety, tree } = await this.take(r.workspace, { sessionId: r.session_id, callId: null, kind: 'before_restore' });
    if (expectedTree !== undefined && tree !== expectedTree) throw new CheckpointError('changed', 'The workspace changed since the list of what Restore undoes was shown, so nothing was restored. Look at the list again.');
    try {
      // The safety checkpoint must hold exactly what the restore replaces, or the restore could not be undone.
      await this.repo(r.workspace).restore(r.commit_sha, tree);
    } catch (err) {
      if (err instanceof WorkspaceChanged) throw new CheckpointError('changed', `${err.message} Look at the list of what Restore undoes again.`);
      // Part of the workspace may have changed: the safety checkpoint puts it back.
      this.store.transaction(() => this.store.checkpoints.linkRestore(safety.id, id));
      throw new CheckpointError('failed', `The restore failed part way (${(err as Error).message}). Undo it to put back what was there: it is kept in checkpoint ${safety.id}.`);
    }
    const at = this.now();
    this.store.transaction(() => {
      this.store.checkpoints.linkRestore(safety.id, id);
      this.store.checkpoints.markRestored(id, at);
      this.store.audit.append({ at, kind: 'checkpoint.restored', session_id: r.session_id, subject: id, data: this.redactor.redactRecord({ workspace: r.workspace, commit: r.commit_sha, by, undo_checkpoint: safety.id }, ['commit']) });
    });
    return { restored: this.get(id), safety: this.get(safety.id) };
  }

  private row(id: string): CheckpointRow {
    const r = this.store.checkpoints.get(id);
    if (!r) throw new CheckpointError('not_found', `There is no checkpoint ${id}.`);
    return r;
  }

  private view(r: CheckpointRow): CheckpointView {
    const call = r.call_id ? this.store.calls.get(r.call_id) : undefined;
    const undo = this.store.checkpoints.undoPointOf(r.id);
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
      restore_of: r.restore_of,
      undo: undo ? { id: undo.id, created_at: undo.created_at, restored_at: undo.restored_at } : null,
    };
  }
}

function word(f: { path: string; change: 'A' | 'M' | 'D' }): FileChange {
  return { path: f.path, change: CHANGE_WORD[f.change] };
}
