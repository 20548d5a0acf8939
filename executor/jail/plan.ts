// Builds the jail spec for a request: which credential locations exist (to hide), which .env files
// the workspace holds, which outside-jail code paths must stay read-only.
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
  return {
    class: req.jail.class,
    workspace,
    cwd: req.cwd,
    home: ctx.home,
    extraWritable: [...(req.jail.extraWritable ?? [])].filter((p) => existsSync(p)),
    hiddenDirs,
    hiddenFiles,
    readOnlyInWorkspace,
    absentProtected,
    emptyFile: ctx.emptyFile,
    env: scrubEnv(req.env, req.envAllow),
    ...(seccompFd !== undefined ? { seccompFd } : {}),
  };
}
