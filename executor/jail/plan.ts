// Builds the jail spec for a request: what to hide (the home folder's dot-entries, credential locations,
// the workspace's .env files), which outside-jail code paths must stay read-only, and (auto-edit) what a
// checkpoint does not hold, kept read-only.
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CREDENTIAL_HOME_PATHS, HOME_VISIBLE, JAIL_HIDDEN_SYSTEM_PATHS, OUTSIDE_JAIL_CODE_PATHS, isInside } from '../../common/credential-locations';
import { proxyEnv } from '../egress/bridge';
import { scrubEnv } from '../env';
import type { RunRequest } from '../types';
import { planHomeView, type HiddenPaths } from './home-view';
import type { JailSpec } from './spec';

export interface PlanContext {
  home: string;
  /** An empty regular file, for read-only placeholders. */
  emptyFile: string;
  /** Threshold's config and data directories: always hidden. */
  appDirs: readonly string[];
}

const ENV_FILE = /^\.env(\..+)?$/;
const ENV_EXAMPLE = /^\.env\.(example|sample|template|dist|defaults)$/;
const SKIP_DIRS = new Set(['node_modules', '.git', '.venv', 'venv', 'target', 'dist', 'build', '.next', '.cache']);

/** .env files in the workspace, up to a few levels deep (they hold secrets; hidden unless granted). */
export function findEnvFiles(root: string, maxDepth = 4, budget = { entries: 20_000 }): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (--budget.entries < 0) return;
      const p = join(dir, name);
      if (ENV_FILE.test(name) && !ENV_EXAMPLE.test(name)) {
        try {
          if (lstatSync(p).isFile()) out.push(p);
        } catch {
          // vanished
        }
        continue;
      }
      if (depth < maxDepth && !SKIP_DIRS.has(name)) {
        try {
          const st = lstatSync(p);
          if (st.isDirectory()) walk(p, depth + 1);
        } catch {
          // vanished
        }
      }
    }
  };
  walk(root, 0);
  return out;
}

// ── What the jail hides ──────────────────────────────────────────────────────────────────────────────
// Every dot-entry of the home folder and ~/Library, the listed credential locations, Threshold's own
// directories and the system's secrets, except what must stay visible: the workspace, the home entries on
// the visible list (paths.ts HOME_VISIBLE) and what the user granted. A folder that holds something
// visible is not hidden whole: its other entries are, one by one, so the visible path stays reachable.


/** Start-up configuration that a program fails on when it cannot read it: hidden as an empty file. */
const READ_AS_EMPTY = new Set(['.gitconfig', '.config/git/config']);

/** A git config that carries a credential: a token or password in a URL, an extra HTTP header. */
const GIT_CONFIG_CREDENTIAL = /extraheader|https?:\/\/[^\s/@]+@|password\s*=|token\s*=/i;

function homeVisible(home: string): string[] {
  const out: string[] = [];
  for (const v of HOME_VISIBLE) {
    const p = join(home, v.path);
    if (!existsSync(p)) continue;
    if (READ_AS_EMPTY.has(v.path)) {
      try {
        if (GIT_CONFIG_CREDENTIAL.test(readFileSync(p, 'utf8'))) continue;
      } catch {
        continue;
      }
    }
    out.push(p);
  }
  return out;
}

export function planHiddenPaths(o: { home: string; workspace: string; keep: readonly string[]; candidates: readonly string[] }): HiddenPaths {
  const keep = [o.workspace, ...o.keep];
  const out: HiddenPaths = { dirs: [], files: [], emptied: [] };
  const covered = (p: string) => out.dirs.some((d) => isInside(p, d)) || out.files.includes(p) || out.emptied.includes(p);
  const hide = (p: string, depth: number) => {
    if (covered(p) || keep.some((k) => isInside(p, k))) return;
    let st;
    try {
      // Most candidates do not exist: without the exception Node would build for each, planning a
      // jail took about 2 ms instead of 0.3.
      st = lstatSync(p, { throwIfNoEntry: false });
    } catch {
      return; // not reachable (a file where a folder was expected): nothing to hide
    }
    if (!st) return; // not there: nothing to hide
    // A symbolic link is not mounted over: its target is judged by its own path.
    if (st.isSymbolicLink()) return;
    if (keep.some((k) => isInside(k, p))) {
      // Holds something visible: hide its other entries instead (bounded: a path is only so deep).
      if (!st.isDirectory() || depth > 32) return;
      let names: string[];
      try {
        names = readdirSync(p);
      } catch {
        return;
      }
      for (const n of names) hide(join(p, n), depth + 1);
      return;
    }
    if (st.isDirectory()) out.dirs.push(p);
    else if (READ_AS_EMPTY.has(p.startsWith(o.home + '/') ? p.slice(o.home.length + 1) : '')) out.emptied.push(p);
    else out.files.push(p);
  };
  let entries: string[] = [];
  try {
    entries = readdirSync(o.home).filter((n) => (n.startsWith('.') && n !== '.' && n !== '..') || n === 'Library');
  } catch {
    // no home folder: nothing of it to hide
  }
  for (const n of entries.sort()) hide(join(o.home, n), 0);
  for (const c of o.candidates) hide(c, 0);
  return out;
}

/** An empty file nobody may read, next to the empty placeholder: what a hidden file looks like inside. */
function unreadableFile(emptyFile: string): string {
  const p = join(dirname(emptyFile), 'unreadable');
  if (!existsSync(p)) writeFileSync(p, '', { mode: 0o000 });
  return p;
}

export function planJail(req: RunRequest, ctx: PlanContext, seccompFd?: number): JailSpec {
  const { workspace } = req.jail;
  const granted = [...(req.jail.grantedReadable ?? [])];
  const hidden = planHiddenPaths({
    home: ctx.home,
    workspace,
    keep: [...homeVisible(ctx.home), ...granted, ...(req.jail.extraWritable ?? [])],
    candidates: [...CREDENTIAL_HOME_PATHS.map((p) => join(ctx.home, p)), ...ctx.appDirs, ...JAIL_HIDDEN_SYSTEM_PATHS],
  });
  const hiddenDirs = hidden.dirs;
  const hiddenFiles = hidden.files;
  const grantedSet = new Set(granted);
  for (const f of findEnvFiles(workspace)) if (!grantedSet.has(f) && !hiddenFiles.includes(f)) hiddenFiles.push(f);
  const grantedCode = new Set(req.jail.grantedCodePaths ?? []);
  const readOnlyInWorkspace: string[] = [];
  const absentProtected: { path: string; dir: boolean }[] = [];
  const hasGit = existsSync(join(workspace, '.git'));
  for (const rel of OUTSIDE_JAIL_CODE_PATHS) {
    const p = join(workspace, rel);
    if (grantedCode.has(p)) continue;
    if (existsSync(p)) readOnlyInWorkspace.push(p);
    else if (rel.startsWith('.git/')) {
      if (hasGit && (rel === '.git/hooks' || rel === '.git/info')) absentProtected.push({ path: p, dir: true });
    } else absentProtected.push({ path: p, dir: !/\.(ya?ml)$|^\.envrc$|^\.gitmodules$/.test(rel) });
  }
  // Without a repository, a new one could be created with hooks in it: .git stays unwritable too.
  if (!hasGit && !grantedCode.has(join(workspace, '.git'))) absentProtected.push({ path: join(workspace, '.git'), dir: true });
  const extraWritable = [...(req.jail.extraWritable ?? [])].filter((p) => existsSync(p));
  if (req.jail.class !== 'read') {
    const undo = undoBinds(workspace, req.jail.unheld ?? [], extraWritable);
    extraWritable.push(...undo.keepInPlace);
    readOnlyInWorkspace.unshift(...undo.readOnly);
  }
  // The home view renders the same hidden paths; the workspace and the writable grants are bound after it.
  const homeView = planHomeView({ home: ctx.home, hidden: { dirs: hiddenDirs, files: hiddenFiles, emptied: hidden.emptied }, mountedLater: [workspace, ...(req.jail.class !== 'read' ? extraWritable : [])] });
  return {
    class: req.jail.class,
    workspace,
    cwd: req.cwd,
    home: ctx.home,
    extraWritable,
    hiddenDirs,
    hiddenFiles,
    emptiedFiles: hidden.emptied,
    unreadableFile: unreadableFile(ctx.emptyFile),
    readOnlyInWorkspace,
    absentProtected,
    ...(grantedCode.size ? { grantedCodePaths: [...grantedCode] } : {}),
    emptyFile: ctx.emptyFile,
    // The proxy variables are set last, so an allowed variable of the same name cannot point elsewhere.
    env: { ...scrubEnv(req.env, req.envAllow), ...(req.jail.class === 'network' ? proxyEnv() : {}) },
    ...(homeView ? { homeView } : {}),
    ...(seccompFd !== undefined ? { seccompFd } : {}),
  };
}

// ── What a checkpoint cannot restore stays unchanged ───────────────────────────────────────────────
// A write jail keeps read-only what the checkpoint before the run does not hold (ignored files and
// folders outside the regenerable list, files over the size cap) and the repository's pack files,
// which the checkpoint store shares by hard link. A read-only bind refuses writes (EROFS) and, being a
// mount point, deletion and renaming (EBUSY). Every folder above such a path is bound onto itself, so
// it cannot be renamed or removed with the path inside (its contents stay writable; a rename across
// two of these folders fails with EXDEV, which mv handles by copying). bwrap's cost grows with the
// square of the number of mounts (about 3 ms per mount at 1,000), so past a budget the entries are
// folded into their nearest common folders: wider, never narrower.

/** Read-only mounts beyond which entries are folded into their folders (about 0.2 s of bwrap start). */
export const UNHELD_BIND_BUDGET = 160;

const PACK_FILE = /^pack-[0-9a-f]+\.(pack|idx|rev|bitmap|mtimes|keep|promisor)$/;

export interface UndoBinds {
  /** Folders bound onto themselves, so they cannot be moved or removed. */
  keepInPlace: string[];
  /** Read-only binds. */
  readOnly: string[];
}

export function undoBinds(workspace: string, unheld: readonly string[], granted: readonly string[], budget = UNHELD_BIND_BUDGET): UndoBinds {
  const keep = (p: string) => !granted.some((g) => isInside(p, g) || isInside(g, p));
  const existing = (p: string) => {
    try {
      const st = lstatSync(p, { throwIfNoEntry: false });
      return !!st && (st.isFile() || st.isDirectory());
    } catch {
      return false;
    }
  };
  const files = fold(
    unheld.map((p) => p.replace(/\/+$/, '')).filter((p) => isInside(p, workspace) && p !== workspace && keep(p) && existing(p)),
    workspace,
    budget,
  );
  const packDir = join(workspace, '.git', 'objects', 'pack');
  let packs = safeNames(packDir).filter((n) => PACK_FILE.test(n)).map((n) => join(packDir, n)).filter(keep);
  if (packs.length > budget) packs = [packDir];
  const readOnly = [...files, ...packs];
  const dirs = new Set<string>();
  for (const p of readOnly) for (let d = dirname(p); d !== workspace && isInside(d, workspace); d = dirname(d)) dirs.add(d);
  // Shallow first: a folder's own bind must not cover the binds made inside it.
  const keepInPlace = [...dirs].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
  return { keepInPlace, readOnly };
}

/** Folds paths into their parent folders (most entries first, then the deepest) until within budget. */
function fold(paths: string[], workspace: string, budget: number): string[] {
  let set = [...new Set(paths)];
  while (set.length > budget) {
    const counts = new Map<string, number>();
    for (const p of set) {
      const d = dirname(p);
      if (d !== workspace && isInside(d, workspace)) counts.set(d, (counts.get(d) ?? 0) + 1);
    }
    if (counts.size === 0) break; // only top-level entries left: each keeps its own bind
    const [dir] = [...counts].sort((a, b) => b[1] - a[1] || depth(b[0]) - depth(a[0]))[0]!;
    set = [...set.filter((p) => !isInside(p, dir)), dir];
  }
  return set;
}

function depth(p: string): number {
  return p.split('/').length;
}

function safeNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
