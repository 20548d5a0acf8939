// A fingerprint of a whole workspace for restore tests: every file's bytes (ignored and oversized ones
// included), and the repository's history as git sees it (refs, HEAD, stash, each reflog, the index,
// every reachable object, and whether they are all intact).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface Fingerprint {
  files: Record<string, string>;
  git: Record<string, string> | null;
}

const GIT_ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C', HOME: '/nonexistent' };

export function userGit(ws: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.invalid', ...args], { cwd: ws, env: GIT_ENV, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

function sha(b: Buffer | string): string {
  return createHash('sha256').update(b).digest('hex').slice(0, 16);
}

function walk(root: string, rel: string, out: Record<string, string>): void {
  for (const name of readdirSync(join(root, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (r === '.git') continue;
    const p = join(root, r);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) out[r] = `link:${readlinkSync(p)}`;
    else if (st.isDirectory()) {
      out[r + '/'] = 'dir';
      walk(root, r, out);
    } else out[r] = `${(st.mode & 0o111) !== 0 ? 'x' : '-'}${st.size}:${sha(readFileSync(p))}`;
  }
}

function gitState(ws: string): Record<string, string> | null {
  try {
    lstatSync(join(ws, '.git'));
  } catch {
    return null;
  }
  const g = (...a: string[]) => {
    try {
      return userGit(ws, ...a);
    } catch (e) {
      return `error: ${(e as { stderr?: string }).stderr ?? (e as Error).message}`;
    }
  };
  const logs: Record<string, string> = {};
  const logDir = join(ws, '.git', 'logs');
  const readLogs = (rel: string) => {
    let entries: string[];
    try {
      entries = readdirSync(join(logDir, rel));
    } catch {
      return;
    }
    for (const n of entries.sort()) {
      const r = rel ? `${rel}/${n}` : n;
      if (lstatSync(join(logDir, r)).isDirectory()) readLogs(r);
      else logs[`reflog ${r}`] = sha(readFileSync(join(logDir, r)));
    }
  };
  readLogs('');
  return {
    HEAD: existsSync(join(ws, '.git', 'HEAD')) ? readFileSync(join(ws, '.git', 'HEAD'), 'utf8') : 'none',
    index: existsSync(join(ws, '.git', 'index')) ? sha(readFileSync(join(ws, '.git', 'index'))) : 'none',
    refs: g('for-each-ref', '--format=%(refname) %(objectname)'),
    reachable: sha(g('rev-list', '--objects', '--all', '--reflog').split('\n').sort().join('\n')),
    ...logs,
  };
}

/** Whether every object the repository holds is intact (run once, after a restore). */
export function repositoryIntact(ws: string): string {
  try {
    return userGit(ws, 'fsck', '--full', '--no-dangling', '--no-progress').trim() || 'intact';
  } catch (e) {
    return `fsck: ${(e as { stdout?: string }).stdout ?? ''}${(e as { stderr?: string }).stderr ?? (e as Error).message}`;
  }
}

export function fingerprint(ws: string): Fingerprint {
  const files: Record<string, string> = {};
  walk(ws, '', files);
  return { files, git: gitState(ws) };
}
