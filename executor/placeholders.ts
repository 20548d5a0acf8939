// Placeholders: where a protected name (.envrc, .git, a hook folder…) is absent from the workspace, bwrap
// makes an empty file or folder there to bind it read-only, so the command cannot create it. They are
// Threshold's, not the user's, and must not outlive the runs that made them:
// - one is removed only when no running jail mounts it any more (Linux lets a mount point in another
//   mount namespace be removed and detaches the mount there: removing it at the end of one run while a
//   run beside it had bound it read-only let that run create the file after all);
// - the ones that exist are written to a journal in the data directory before the jail starts, so a core
//   that was killed (-9, a crash, a second Ctrl+C in an older version) has them removed at its next start.
import { lstatSync, readFileSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { OUTSIDE_JAIL_CODE_PATHS } from '../common/credential-locations';

/** The journal of a data directory's core. */
export function placeholderJournalPath(dataDir: string): string {
  return join(dataDir, 'jail-placeholders.json');
}

export class Placeholders {
  /** Protected paths running jails mount over, with how many do. */
  private readonly inUse = new Map<string, number>();
  /** Placeholders this process made that still exist (the journal's content). */
  private readonly ours = new Set<string>();
  /** Placeholders an earlier run of this data directory left behind, removed at start. */
  readonly recovered: readonly string[];

  /** `journal`: the file that lists the placeholders in existence (null: kept in memory only). */
  constructor(private readonly journal: string | null) {
    this.recovered = journal ? removeLeftBehind(journal) : [];
  }

  /** A run is about to mount `mounted`; of them, `created` are absent now and its jail will make them. */
  mount(mounted: readonly string[], created: readonly string[]): void {
    for (const p of mounted) this.inUse.set(p, (this.inUse.get(p) ?? 0) + 1);
    if (!created.length) return;
    for (const p of created) this.ours.add(p);
    this.save();
  }

  /** The run that mounted `mounted` ended: every placeholder no running jail mounts any more goes. */
  release(mounted: readonly string[]): void {
    for (const p of mounted) {
      const n = (this.inUse.get(p) ?? 1) - 1;
      if (n > 0) this.inUse.set(p, n);
      else this.inUse.delete(p);
    }
    let changed = false;
    for (const p of [...this.ours]) {
      if (this.inUse.has(p)) continue;
      // Removed, or no longer empty (then it is the user's now): either way no longer ours.
      removeIfEmpty(p);
      this.ours.delete(p);
      changed = true;
    }
    if (changed) this.save();
  }

  private save(): void {
    if (!this.journal) return;
    try {
      const tmp = `${this.journal}.tmp`;
      writeFileSync(tmp, JSON.stringify([...this.ours]), { mode: 0o600 });
      renameSync(tmp, this.journal);
    } catch {
      // The data directory went away: the placeholders are still removed at the end of their runs.
    }
  }
}

/** Removes the placeholders a journal lists (each only while still empty), then the journal. */
function removeLeftBehind(journal: string): string[] {
  let listed: unknown;
  try {
    listed = JSON.parse(readFileSync(journal, 'utf8'));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const p of Array.isArray(listed) ? listed : []) {
    if (typeof p === 'string' && isAbsolute(p) && isPlaceholderName(p) && removeIfEmpty(p)) removed.push(p);
  }
  try {
    unlinkSync(journal);
  } catch {
    // already gone
  }
  return removed;
}

/** Whether a path ends in a name the jail makes placeholders for (a journal can only name those). */
function isPlaceholderName(p: string): boolean {
  return [...OUTSIDE_JAIL_CODE_PATHS, '.git'].some((rel) => p.endsWith(`/${rel}`));
}

/** Removes an empty file or an empty folder (never one with something in it); true when it did. */
export function removeIfEmpty(p: string): boolean {
  try {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st?.isDirectory()) rmdirSync(p); // refused (ENOTEMPTY) when something was put in it
    else if (st?.isFile() && st.size === 0) unlinkSync(p);
    else return false;
    return true;
  } catch {
    return false;
  }
}
