// resolvePath, isInside and isOutsideJailCodePath skip work on the common shapes (already-normal paths,
// no prefix strings built); these tables hold them to the plain definitions on generated paths.
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCredentialPath, isInside, isOutsideJailCodePath, OUTSIDE_JAIL_CODE_PATHS, resolvePath, type PathContext } from './paths';

const ctx: PathContext = { home: '/home/user', workspace: '/home/user/project', appDirs: [] };

/** resolvePath as first written: join, normalize, drop a trailing slash. */
function resolveByDefinition(raw: string, cwd: string | null): string | null {
  let p = raw;
  if (p === '~' || p.startsWith('~/')) p = ctx.home + p.slice(1);
  else if (p.startsWith('~')) {
    const slash = p.indexOf('/');
    const user = slash === -1 ? p.slice(1) : p.slice(1, slash);
    p = (user === 'root' ? '/root' : `/home/${user}`) + (slash === -1 ? '' : p.slice(slash));
  }
  if (!p.startsWith('/')) {
    if (cwd === null) return null;
    p = posix.join(cwd, p);
  }
  const n = posix.normalize(p);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

function outsideJailByDefinition(path: string): boolean {
  if (!isInside(path, ctx.workspace) || path === ctx.workspace) return false;
  const parts = path.slice(ctx.workspace.length + 1).split('/');
  return parts.some((_, i) => {
    const tail = parts.slice(i).join('/');
    return OUTSIDE_JAIL_CODE_PATHS.some((p) => tail === p || tail.startsWith(p + '/'));
  });
}

/** Paths built from segments that exercise normalisation: empty, ., .., dot-names, hooks, tildes. */
function generatedPaths(count: number): string[] {
  const segments = ['', '.', '..', '...', '.git', 'hooks', 'config', '.envrc', 'a', 'b.txt', '~', '~root', '.vscode', 'x..y', '.a.'];
  let seed = 7;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  const out: string[] = ['', '/', '//', '.', '..', '~', '~/', '~user', '~root/x'];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(random() * 5);
    const parts = Array.from({ length: n }, () => segments[Math.floor(random() * segments.length)]!);
    const lead = random() < 0.4 ? '/' : '';
    const trail = random() < 0.15 ? '/' : '';
    out.push(lead + parts.join('/') + trail);
  }
  return out;
}

describe('the path helpers agree with their plain definitions', () => {
  const paths = generatedPaths(6000);
  it.each([
    ['the workspace', '/home/user/project'],
    ['the root', '/'],
    ['a cwd with a trailing slash', '/home/user/project/'],
    ['a cwd with . and ..', '/home/user/./project/../project'],
    ['no known cwd', null],
  ])('resolvePath from %s', (_what, cwd) => {
    expect(paths.map((p) => resolvePath(p, cwd, ctx))).toEqual(paths.map((p) => resolveByDefinition(p, cwd)));
  });
  it('isInside', () => {
    const dirs = ['/', '/home/user', '/home/user/project', '/home/use', '/home/user/'];
    const absolute = paths.map((p) => resolveByDefinition(p, '/home/user/project')!);
    expect(dirs.flatMap((d) => absolute.map((p) => isInside(p, d)))).toEqual(dirs.flatMap((d) => absolute.map((p) => p === d || p.startsWith(d === '/' ? '/' : d + '/'))));
  });
  it('isOutsideJailCodePath', () => {
    const inWorkspace = paths.map((p) => '/home/user/project/' + p);
    expect(inWorkspace.map((p) => isOutsideJailCodePath(p, ctx))).toEqual(inWorkspace.map(outsideJailByDefinition));
  });
  it('isCredentialPath judges key and .env file names anywhere, as the per-part patterns do', () => {
    const names = ['.env', '.env.local', '.env.example', '.envrc', 'x.env', 'id_rsa', 'id_rsa.pub', 'id_ed25519_sk', 'my_id_rsa', 'a.pem', 'a.pem.bak', 'A.PEM', 'b.p12', 'c.jks', 'd.kdbx', 'credentials.json', 'my-credentials.json', 'service-account-1.json', 'service-account.txt', 'readme.md', 'src'];
    let seed = 11;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const paths = Array.from({ length: 4000 }, () => '/work/' + Array.from({ length: 1 + Math.floor(random() * 3) }, () => names[Math.floor(random() * names.length)]).join('/'));
    const byParts = (path: string) =>
      path.split('/').some((part) => (/^\.env(\..+)?$/.test(part) && !/^\.env\.(example|sample|template|dist|defaults)$/.test(part)) || (/^(id_(rsa|dsa|ecdsa|ed25519)(_sk)?|.*\.(pem|p12|pfx|keystore|jks|kdbx)|credentials\.json|service-account.*\.json)$/.test(part) && !part.endsWith('.pub')));
    expect(paths.map((p) => isCredentialPath(p, ctx))).toEqual(paths.map(byParts));
  });
});
