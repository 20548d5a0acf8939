// Builds the jail spec for a request: which credential locations exist (to hide), which .env files
// the workspace holds, which outside-jail code paths must stay read-only.
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CREDENTIAL_HOME_PATHS, OUTSIDE_JAIL_CODE_PATHS, isInside } from '../../main/policy/paths';
import { scrubEnv } from '../env';
import type { RunRequest } from '../types';
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

export function planJail(req: RunRequest, ctx: PlanContext, seccompFd?: number): JailSpec {
  const { workspace } = req.jail;
  const granted = new Set(req.jail.grantedReadable ?? []);
  const hiddenDirs: string[] = [];
  const hiddenFiles: string[] = [];
  const candidates = [...CREDENTIAL_HOME_PATHS.map((p) => join(ctx.home, p)), ...ctx.appDirs, '/etc/shadow', '/etc/gshadow', '/etc/ssh', '/root/.ssh'];
  for (const c of candidates) {
    if (granted.has(c) || !existsSync(c)) continue;
    // A credential folder that contains the workspace cannot be hidden without hiding the work.
    if (isInside(workspace, c)) continue;
    try {
      (statSync(c).isDirectory() ? hiddenDirs : hiddenFiles).push(c);
    } catch {
      // unreadable: nothing to hide
    }
  }
  for (const f of findEnvFiles(workspace)) if (!granted.has(f)) hiddenFiles.push(f);
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
  return {
    class: req.jail.class,
    workspace,
    cwd: req.cwd,
    home: ctx.home,
    extraWritable,
    hiddenDirs,
    hiddenFiles,
    readOnlyInWorkspace,
    absentProtected,
    emptyFile: ctx.emptyFile,
    env: scrubEnv(req.env, req.envAllow),
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
      const st = lstatSync(p);
      return st.isFile() || st.isDirectory();
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
