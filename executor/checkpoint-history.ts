// The repository's own history in a checkpoint. Object files are content-addressed and never changed
// once written, so the checkpoint store keeps its own reference to each: a hard link for a pack (no
// copy, no space while the user still has it; the write jail keeps existing packs read-only, so the
// shared inode cannot be rewritten in place) and a copy for a loose object (small, and writable in the
// jail's object folders). Only files not already in the store are added, so later snapshots cost a
// directory listing. Refs, HEAD, packed-refs, reflogs, the stash and the index are staged into the
// shadow repository by ./checkpoints.ts through a second index.
import { copyFileSync, constants, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Paths of the user's .git (glob pathspecs) left out of the staged history: objects (mirrored
 *  separately), nested repositories, lock files, and the files the jail never lets a command change
 *  (hooks, config, info), which a restore must not turn back either. */
export const HISTORY_EXCLUDES: readonly string[] = ['objects/**', 'modules/**', 'lfs/objects/**', 'hooks/**', 'info/**', 'config', '**/*.lock', 'gc.log', 'fsmonitor--daemon/**'];

export function historyDir(shadowGitDir: string): string {
  return join(shadowGitDir, 'threshold-history');
}

/** The workspace's own repository, when it is a .git directory (a .git file points elsewhere). */
export function userGitDir(workspace: string): string | null {
  const p = join(workspace, '.git');
  try {
    return lstatSync(p).isDirectory() && existsSync(join(p, 'objects')) ? p : null;
  } catch {
    return null;
  }
}

const LOOSE_DIR = /^[0-9a-f]{2}$/;
/** Pack folder entries that are finished files (git writes tmp_* and .tmp-* first, then renames). */
const PACK_FILE = /^pack-[0-9a-f]+\.(pack|idx|rev|bitmap|mtimes|keep|promisor)$/;

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    // Another filesystem (or links refused): a copy, a clone where the filesystem can.
    copyFileSync(from, to, constants.COPYFILE_FICLONE);
  }
}

/** Adds to the store every object file it does not hold yet; returns how many were added. */
export function mirrorObjects(src: string, dst: string): { added: number } {
  let added = 0;
  for (const sub of names(src)) {
    const isPack = sub === 'pack';
    if (!isPack && !LOOSE_DIR.test(sub)) continue;
    const have = new Set(names(join(dst, sub)));
    for (const name of names(join(src, sub))) {
      if (have.has(name) || (isPack ? !PACK_FILE.test(name) : name.startsWith('tmp'))) continue;
      const from = join(src, sub, name);
      if (!lstatSync(from).isFile()) continue;
      mkdirSync(join(dst, sub), { recursive: true, mode: 0o700 });
      if (isPack) linkOrCopy(from, join(dst, sub, name));
      else copyFileSync(from, join(dst, sub, name), constants.COPYFILE_FICLONE);
      added++;
    }
  }
  return { added };
}

/**
 * Puts back every object file of the store that the repository lost or that was altered (a loose
 * object whose bytes differ, a pack that is no longer the same file). Objects made since stay: they
 * are unreachable from the restored refs and harmless.
 */
export function restoreObjects(store: string, objects: string): { restored: number } {
  let restored = 0;
  for (const sub of names(store)) {
    mkdirSync(join(objects, sub), { recursive: true });
    for (const name of names(join(store, sub))) {
      const kept = join(store, sub, name);
      const target = join(objects, sub, name);
      if (existsSync(target)) {
        const same = sub === 'pack' ? lstatSync(target).ino === lstatSync(kept).ino : readFileSync(target).equals(readFileSync(kept));
        if (same) continue;
      }
      const temp = join(objects, sub, `.threshold-restore-${name}`);
      rmSync(temp, { force: true });
      if (sub === 'pack') linkOrCopy(kept, temp);
      else copyFileSync(kept, temp);
      renameSync(temp, target);
      restored++;
    }
  }
  return { restored };
}

/** git needs these folders to recognise a repository; a restore may have emptied them away. */
export function ensureRepositoryShape(gitDir: string): void {
  for (const d of ['refs/heads', 'refs/tags', 'objects/info', 'objects/pack']) mkdirSync(join(gitDir, d), { recursive: true });
}
