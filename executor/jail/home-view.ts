// The home folder as the jail shows it, built without a mount per hidden entry. bubblewrap 0.8 reads the
// whole mount table again for every bind and read-only remount (about 0.3-0.5 ms each here), and hiding
// each dot-entry took one of those (a folder: a tmpfs and its remount; a file: a bind of the unreadable
// placeholder), so a home with 40 dot-entries cost 40 of them. Instead, one tmpfs goes over the home
// folder, what stays visible is bound back read-only, a hidden folder is created there as an empty
// folder and a hidden file as an empty file with no permissions, symbolic links are recreated as they
// are (a config that must read as empty keeps its bind of /dev/null), and the tmpfs is remounted
// read-only last: creating, writing, chmod-ing or renaming anything in
// it then fails with "Read-only file system", and with every capability dropped a mode 000 file stays
// unreadable. What the jail sees and may write is what the mounts per entry gave: the hidden paths come
// from planHiddenPaths unchanged, this only renders them.
import { lstatSync, readdirSync, readlinkSync, realpathSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { isInside } from '../../common/credential-locations';

export interface HiddenPaths {
  /** Folders: an empty read-only tmpfs over each. */
  dirs: string[];
  /** Files: an unreadable placeholder over each (a read fails with "Permission denied"). */
  files: string[];
  /** Files that programs read on their own at start (git's global config): they read as empty. */
  emptied: string[];
}

export type HomeOp =
  /** Visible as on the host, read-only (a recursive bind: its own mounts come along; skipped if it is gone by then). */
  | { op: 'bind'; path: string }
  /** A folder on the tmpfs: a hidden one (empty, mode 755 like the tmpfs that hid it) or one holding visible entries (its host mode). */
  | { op: 'dir'; path: string; mode: number }
  /** A hidden file: empty and unreadable (mode 000). */
  | { op: 'file'; path: string }
  /** A symbolic link, recreated with the same target: its target is judged by its own path, as before. */
  | { op: 'symlink'; path: string; target: string };

export interface HomeView {
  home: string;
  /** The home folder's own mode, given to the tmpfs. */
  mode: number;
  /** In order: a folder before what is inside it. */
  ops: HomeOp[];
  /** The hidden paths these ops render: no mount is made for them. */
  covered: string[];
}

/** Where the jail mounts an empty tmpfs of its own: a home folder inside one is not visible at all. */
const PRIVATE_IN_JAIL = ['/tmp', '/var/tmp', '/run', '/dev/shm'];

function dotLike(name: string): boolean {
  return (name.startsWith('.') && name !== '.' && name !== '..') || name === 'Library';
}

/**
 * The home view for these hidden paths, or null where the mounts per entry stay: they would be fewer
 * (more entries to bind back than hidden ones), nothing hidden in the home folder, the workspace is the
 * home folder or holds it, the home folder is not a plain folder at
 * its own path (a symbolic link on the way), or the jail does not show it anyway (under /tmp).
 * `mountedLater`: paths bound by the jail after the view (the workspace, writable grants), left out of it.
 */
export function planHomeView(o: { home: string; hidden: HiddenPaths; mountedLater: readonly string[] }): HomeView | null {
  const { home } = o;
  if (!home.startsWith('/') || home === '/' || o.mountedLater.some((m) => isInside(home, m))) return null;
  if (PRIVATE_IN_JAIL.some((d) => isInside(home, d))) return null;
  let mode: number;
  try {
    if (realpathSync(home) !== home) return null;
    const st = lstatSync(home);
    if (!st.isDirectory()) return null;
    mode = st.mode & 0o7777;
  } catch {
    return null;
  }
  const inHome = (p: string) => isInside(p, home) && p !== home;
  const dirs = new Set(o.hidden.dirs.filter(inHome));
  const files = new Set(o.hidden.files.filter(inHome));
  const emptied = new Set(o.hidden.emptied.filter(inHome));
  const all = [...dirs, ...files, ...emptied];
  if (all.length === 0) return null;
  const later = new Set(o.mountedLater);
  const ops: HomeOp[] = [];
  const covered: string[] = [];
  const holdsHidden = (p: string) => all.some((h) => h !== p && isInside(h, p));
  /** Renders one folder's entries; `hiding`: inside a dot-entry, where entries not visible are hidden. */
  const walk = (dir: string, hiding: boolean, depth: number): boolean => {
    let entries: Dirent[];
    try {
      // The entry types come with the listing (no lstat each); a folder walked into is lstat-ed for its mode.
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return false;
    }
    for (const entry of entries) {
      const name = entry.name;
      const p = join(dir, name);
      if (later.has(p)) continue;
      // The planned hidden paths first, whatever they have become since: a hidden name stays hidden.
      if (dirs.has(p)) {
        ops.push({ op: 'dir', path: p, mode: 0o755 });
        covered.push(p);
      } else if (files.has(p)) {
        ops.push({ op: 'file', path: p });
        covered.push(p);
      } else if (emptied.has(p)) {
        // Reads as empty: /dev/null stays bound over it (a mount point bwrap creates here), as before.
        continue;
      } else if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = readlinkSync(p);
        } catch {
          continue; // gone since it was listed: not there for the jail either
        }
        ops.push({ op: 'symlink', path: p, target });
      } else if (entry.isDirectory() && (hiding || (depth === 0 && dotLike(name))) && holdsHidden(p) && depth < 32) {
        // A dot-folder holding something visible: its entries one by one, as planHiddenPaths hid them.
        const st = lstatSync(p, { throwIfNoEntry: false });
        if (!st?.isDirectory()) continue; // gone or replaced since it was listed
        ops.push({ op: 'dir', path: p, mode: st.mode & 0o7777 });
        if (!walk(p, true, depth + 1)) {
          // Not listable now (walk pushed nothing): bound as it is, its hidden paths mounted over as before.
          ops.pop();
          ops.push({ op: 'bind', path: p });
        }
      } else ops.push({ op: 'bind', path: p });
    }
    return true;
  };
  if (!walk(home, false, 0)) return null;
  // Each bind back and the final remount read the mount table once, as each mount per hidden entry did:
  // a home folder with more to show than to hide keeps the mounts per entry (the cheaper of the two).
  const binds = ops.filter((op) => op.op === 'bind').length + 1;
  if (binds >= covered.length) return null;
  return { home, mode, ops, covered };
}
