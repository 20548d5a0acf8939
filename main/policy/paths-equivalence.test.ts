// resolvePath, isInside and isOutsideJailCodePath skip work on the common shapes (already-normal paths,
// no prefix strings built); these tables hold them to the plain definitions on generated paths.
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_HOME_PATHS, CREDENTIAL_SYSTEM_PATHS, HOME_VISIBLE, isCredentialPath, isHarmlessDevice, isHiddenHomePath, isInside, isOutsideJailCodePath, isSystemPath, OUTSIDE_JAIL_CODE_PATHS, resolvePath, secretNameReason, SYSTEM_DIRS, type PathContext } from './paths';

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

/** secretNameReason as first written: split the path, find the deepest root, then test every folder part. */
function secretNameByDefinition(path: string, roots: readonly string[]): string | null {
  const parts = path.split('/').filter(Boolean);
  const name = parts[parts.length - 1] ?? '';
  const root = roots.filter((r) => r !== path && isInside(path, r)).sort((a, b) => b.length - a.length)[0];
  const below = root === undefined ? parts : path.slice(root === '/' ? 1 : root.length + 1).split('/');
  const folder = below.slice(0, -1).find((p) => /^\.?(secrets|credentials|keystore|wallets|private-keys)$/i.test(p));
  if (name === '' || name.endsWith('.pub')) return null;
  const source = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyi|rb|go|rs|java|kt|kts|scala|swift|c|cc|cpp|cxx|h|hh|hpp|cs|fs|php|pl|pm|lua|ex|exs|erl|hs|ml|clj|dart|vue|svelte|sh|bash|zsh|md|mdx|rst|html|css|scss|snap|map)$/i;
  if (folder && !source.test(name)) return `a file in a folder named ${folder}`;
  // The name patterns themselves are unchanged: only the folder search is skipped, so compare with a folder-free call.
  return secretNameReason(name, []);
}

/** Home paths that reach into (and just miss) every credential location and visible entry, with secret-looking names. */
function generatedHomePaths(count: number): string[] {
  const segments = [
    ...CREDENTIAL_HOME_PATHS, ...HOME_VISIBLE.map((v) => v.path), '.config', '.local', '.cargo', 'Library', 'snap', 'project', 'src',
    '.sshx', 'ssh', '.SSH', 'secrets', '.Secrets', 'credentials', 'wallets', 'private-keys', 'keystore', 'my-secrets', 'x.pub', 'id_rsa',
    'token.txt', 'a.ts', 'token.ts', '', '.', 'notes.md', 'server.key',
  ];
  let seed = 13;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  const out: string[] = ['/', '', '/home/user', '/home/user/', '//', 'id_rsa', 'secrets/x'];
  for (let i = 0; i < count; i++) {
    const parts = Array.from({ length: 1 + Math.floor(random() * 4) }, () => segments[Math.floor(random() * segments.length)]!);
    const base = random() < 0.8 ? '/home/user/' : random() < 0.5 ? '/work/' : '';
    out.push(base + parts.join('/') + (random() < 0.1 ? '/' : ''));
  }
  return out;
}

describe('the home and name checks agree with their plain definitions', () => {
  const paths = generatedHomePaths(8000);
  const contexts: [string, PathContext][] = [
    ['a workspace in the home folder', ctx],
    ['the home folder as the workspace', { home: '/home/user', workspace: '/home/user', appDirs: [] }],
  ];
  it.each(contexts)('isCredentialPath of home paths, in %s', (_what, c) => {
    const byDefinition = (path: string) => {
      const rel = path === c.home ? '' : path.startsWith(c.home + '/') ? path.slice(c.home.length + 1) : null;
      return (rel !== null && rel !== '' && CREDENTIAL_HOME_PATHS.some((p) => rel === p || rel.startsWith(p + '/'))) || isCredentialPath(path.replace(/^\/home\/user(?=\/|$)/, '/elsewhere'), { ...c, home: '/nowhere' });
    };
    expect(paths.map((p) => isCredentialPath(p, c))).toEqual(paths.map(byDefinition));
  });
  it.each(contexts)('isHiddenHomePath, in %s', (_what, c) => {
    const byDefinition = (path: string) => {
      const rel = path === c.home ? '' : path.startsWith(c.home + '/') ? path.slice(c.home.length + 1) : null;
      if (rel === null || rel === '') return false;
      const first = rel.split('/')[0]!;
      if (!((first.startsWith('.') && first !== '.' && first !== '..') || first === 'Library')) return false;
      if (c.workspace !== c.home && isInside(path, c.workspace)) return false;
      return !HOME_VISIBLE.some((v) => rel === v.path || rel.startsWith(v.path + '/'));
    };
    expect(paths.map((p) => isHiddenHomePath(p, c))).toEqual(paths.map(byDefinition));
  });
  it.each([
    ['no roots', []],
    ['the workspace and the home folder', ['/home/user/project', '/home/user']],
    ['the root and a folder named secrets', ['/', '/home/user/secrets']],
  ])('secretNameReason with %s', (_what, roots) => {
    expect(paths.map((p) => secretNameReason(p, roots))).toEqual(paths.map((p) => secretNameByDefinition(p, roots)));
  });
});

/** The file-name patterns of secretNameReason as first written: every one tried on every name. */
const SECRET_NAMES_BY_DEFINITION: readonly { re: RegExp; what: string; code?: boolean }[] = [
  { re: /^id_[a-z0-9_-]+$/i, what: 'an SSH private key by its name (id_*)', code: true },
  { re: /^ssh_host_[a-z0-9_-]*key$/i, what: 'an SSH host private key by its name (ssh_host_*_key)', code: true },
  { re: /\.(pem|key|p12|pfx|ppk|kdbx|kdb|keychain|keychain-db|jks|keystore|bks)$/i, what: 'a key or key store by its extension' },
  { re: /^(\.htpasswd|\.pgpass|\.netrc|_netrc|wallet\.dat)$/i, what: 'a credential file by its name' },
  { re: /wallet|keystore/i, what: 'a wallet or key store by its name', code: true },
  { re: /token|credential|secret|password/i, what: 'a file whose name says it holds a secret', code: true },
];
const SOURCE_BY_DEFINITION = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyi|rb|go|rs|java|kt|kts|scala|swift|c|cc|cpp|cxx|h|hh|hpp|cs|fs|php|pl|pm|lua|ex|exs|erl|hs|ml|clj|dart|vue|svelte|sh|bash|zsh|md|mdx|rst|html|css|scss|snap|map)$/i;

function secretFileNameByDefinition(name: string): string | null {
  if (name === '' || name.endsWith('.pub')) return null;
  for (const n of SECRET_NAMES_BY_DEFINITION) {
    if (!n.re.test(name)) continue;
    if (n.code && SOURCE_BY_DEFINITION.test(name)) continue;
    return n.what;
  }
  return null;
}

/** File names glued from the fragments every pattern looks for, near misses and source extensions, in mixed case. */
function generatedFileNames(count: number): string[] {
  const fragments = [
    'id_', 'ID_', 'id', '_', 'rsa', 'ed25519', '-', 'ssh_host_', 'SSH_HOST_', 'key', 'Key', 'ssh_host', '.', '.pem', '.PEM', '.key', '.p12', '.pfx', '.ppk',
    '.kdbx', '.kdb', '.keychain', '.keychain-db', '.jks', '.keystore', '.bks', '.htpasswd', '.pgpass', '.netrc', '_netrc', 'wallet.dat', 'Wallet',
    'keystore', 'KeyStore', 'token', 'TOKEN', 'credential', 'secret', 'Password', 'passwd', 'tok', 'en', 'wal', 'let', '.ts', '.py', '.md', '.pub',
    '.txt', 'x', '1', 'notes', ' ',
  ];
  let seed = 17;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  const out = ['id_rsa', 'id_', 'ssh_host_key', 'ssh_host_rsa_key', '.netrc', 'wallet.dat', 'token.ts', 'a.pem.pub', 'keychain', 'x.keychain-db'];
  for (let i = 0; i < count; i++) out.push(Array.from({ length: 1 + Math.floor(random() * 4) }, () => fragments[Math.floor(random() * fragments.length)]).join(''));
  return out;
}

describe('the quick pre-checks give the answers of the full lists', () => {
  it('secretNameReason judges every file name as trying each name pattern in turn does', () => {
    const names = generatedFileNames(20000);
    expect(names.map((n) => secretNameReason(`/work/${n}`))).toEqual(names.map(secretFileNameByDefinition));
  });

  /** Absolute paths at, inside, beside and above every listed location, with doubled and trailing slashes. */
  function pathsAround(locations: readonly string[]): string[] {
    const out = ['/', '//', '', 'etc/shadow', '/tmp/x', '/home/user/x', '/Users/me/x', '/dev/null', '/dev/shm/x', '/var/tmp/x'];
    for (const l of locations) {
      const parent = l.slice(0, l.lastIndexOf('/')) || '/';
      out.push(l, `${l}/`, `${l}/x`, `${l}/x/y`, `${l}x`, `${l}.bak`, parent, `${parent}/other`, `/${l}`, l.toUpperCase(), `${l.slice(0, -1)}`, `/x${l}`);
    }
    return out;
  }
  it('isCredentialPath finds the system credential locations as a walk of the list does', () => {
    const elsewhere: PathContext = { home: '/nowhere', workspace: '/nowhere/project', appDirs: [] };
    const paths = pathsAround([...CREDENTIAL_SYSTEM_PATHS, ...SYSTEM_DIRS]);
    const byDefinition = (p: string) => CREDENTIAL_SYSTEM_PATHS.some((c) => isInside(p, c)) || isCredentialPath(p.replace(/^\/+/, '/not-a-system-dir/'), elsewhere);
    expect(paths.map((p) => isCredentialPath(p, elsewhere))).toEqual(paths.map(byDefinition));
  });
  it('isSystemPath finds the system directories as a walk of the list does', () => {
    const paths = pathsAround([...SYSTEM_DIRS, ...CREDENTIAL_SYSTEM_PATHS]);
    const byDefinition = (p: string) => {
      if (isHarmlessDevice(p) || isInside(p, '/tmp') || isInside(p, '/var/tmp') || isInside(p, '/dev/shm')) return false;
      if (p.startsWith('/home/') || p.startsWith('/Users/')) return false;
      return SYSTEM_DIRS.some((d) => isInside(p, d));
    };
    expect(paths.map(isSystemPath)).toEqual(paths.map(byDefinition));
  });
});
