// The macOS jail's profile, tested as decisions: an interpreter of the SBPL the profile uses
// (test/support/sbpl.ts) answers "may this call do that?" for every class, under both ways of ranking
// rules that the peers' notes describe, so a rule that only holds under one of them fails here.
import { describe, expect, it } from 'vitest';
import { decide, namesUsed, parseSbpl, rulesOf, type Precedence, type SbplRequest } from '../../test/support/sbpl';
import type { JailClass } from '../types';
import { anyCase, ancestors, sandboxExecArgs, SBPL_STRING_MAX, sbplString, seatbeltProfile, seatbeltRules, SeatbeltPathError, type SeatbeltContext } from './seatbelt';
import { canonicalSpec, entryPath, resolvedPath } from './seatbelt-paths';
import type { JailSpec } from './spec';

const H = '/Users/u';
const W = `${H}/proj`;
const T = '/private/var/folders/ab/cd/T';
const RUN_TMP = `${T}/threshold-jail-x/run-1`;

const spec = (cls: JailClass, over: Partial<JailSpec> = {}): JailSpec => ({
  class: cls,
  workspace: W,
  cwd: W,
  home: H,
  extraWritable: [`${H}/out`],
  hiddenDirs: [`${H}/.ssh`, `${H}/.aws`, `${H}/Library`, `${H}/.config/threshold`],
  hiddenFiles: [`${W}/.env`, `${H}/.npmrc`, `${W}/sub/.env.local`],
  emptiedFiles: [`${H}/.gitconfig`],
  unreadableFile: '/x/unreadable',
  readOnlyInWorkspace: [`${W}/dist/big.bin`, `${W}/.git/objects/pack/pack-1.pack`, `${W}/.git/hooks`, `${W}/.git/config`],
  absentProtected: [
    { path: `${W}/.envrc`, dir: false },
    { path: `${W}/.vscode`, dir: true },
  ],
  emptyFile: '/x/empty',
  env: { PATH: '/usr/bin:/bin', HOME: H },
  ...over,
});

const ctx = (over: Partial<SeatbeltContext> = {}): SeatbeltContext => ({ tempDir: RUN_TMP, sharedTemp: ['/private/tmp', '/private/var/tmp', T], proxyPort: 50123, ...over });

const MODELS: { precedence: Precedence; linkIsWrite: boolean }[] = [
  { precedence: 'last-match', linkIsWrite: false },
  { precedence: 'specific-first', linkIsWrite: false },
  { precedence: 'last-match', linkIsWrite: true },
  { precedence: 'specific-first', linkIsWrite: true },
];

/** The decision under every model of the rules we could not check on a Mac; one that depends on the model reads as "differs". */
function ask(profile: string, r: SbplRequest): 'allow' | 'deny' | 'differs' {
  const answers = new Set(MODELS.map((m) => decide(profile, r, m.precedence, { linkIsWrite: m.linkIsWrite })));
  return answers.size === 1 ? [...answers][0]! : 'differs';
}

const file = (op: string, path: string, spelled?: string): SbplRequest => ({ op, path, ...(spelled ? { spelled } : {}), vnode: 'REGULAR-FILE' });

type Want = { read: 'allow' | 'deny'; write: 'allow' | 'deny'; network: 'allow' | 'deny' };
const all = (d: 'allow' | 'deny'): Want => ({ read: d, write: d, network: d });
const writers: Want = { read: 'deny', write: 'allow', network: 'allow' };

const cases: [string, SbplRequest, Want][] = [
  // Reading
  ['reads a workspace file', file('file-read-data', `${W}/src/a.ts`), all('allow')],
  ['reads a system file', file('file-read-data', '/usr/lib/libSystem.B.dylib'), all('allow')],
  ['reads an ordinary file in the home folder', file('file-read-data', `${H}/Documents/notes.txt`), all('allow')],
  ['reads ~/.ssh/id_ed25519', file('file-read-data', `${H}/.ssh/id_ed25519`), all('deny')],
  ['reads ~/.SSH/id_ed25519 (another letter case of the same folder)', file('file-read-data', `${H}/.SSH/id_ed25519`), all('deny')],
  ['lists ~/.aws', { op: 'file-read-data', path: `${H}/.aws`, vnode: 'DIRECTORY' }, all('deny')],
  ['reads the login keychain', file('file-read-data', `${H}/Library/Keychains/login.keychain-db`), all('deny')],
  ['reads application data under ~/Library', file('file-read-data', `${H}/Library/Application Support/Slack/Cookies`), all('deny')],
  ["reads Threshold's own config", file('file-read-data', `${H}/.config/threshold/threshold.toml`), all('deny')],
  ['reads the workspace .env', file('file-read-data', `${W}/.env`), all('deny')],
  ['reads a nested .env.local', file('file-read-data', `${W}/sub/.env.local`), all('deny')],
  ['reads ~/.gitconfig that carries a token', file('file-read-data', `${H}/.gitconfig`), all('deny')],
  ["reads another program's file in /tmp", file('file-read-data', '/private/tmp/com.apple.launchd.x/Listeners'), all('deny')],
  ["reads another program's file in the user's temp folder", file('file-read-data', `${T}/other-app/cache.db`), all('deny')],
  ["reads another run's temp folder", file('file-read-data', `${T}/threshold-jail-x/run-2/out.txt`), all('deny')],
  // Writing
  ['creates a workspace file', file('file-write-create', `${W}/src/new.ts`), writers],
  ['overwrites a workspace file', file('file-write-data', `${W}/src/a.ts`), writers],
  ['deletes a workspace file', file('file-write-unlink', `${W}/src/a.ts`), writers],
  ['writes a granted folder', file('file-write-create', `${H}/out/report.txt`), writers],
  ['writes its own temp folder', file('file-write-create', `${RUN_TMP}/tmp.123`), writers],
  ['writes elsewhere in the home folder', file('file-write-create', `${H}/Documents/x`), all('deny')],
  ['writes a shell start-up file', file('file-write-data', `${H}/.zshrc`), all('deny')],
  ['plants a launch agent', file('file-write-create', `${H}/Library/LaunchAgents/evil.plist`), all('deny')],
  ['writes /usr/local/bin', file('file-write-create', '/usr/local/bin/evil'), all('deny')],
  ['writes /tmp directly', file('file-write-create', '/private/tmp/x'), all('deny')],
  ['overwrites the workspace .env', file('file-write-data', `${W}/.env`), all('deny')],
  ['deletes the workspace .env', file('file-write-unlink', `${W}/.env`), all('deny')],
  ['commits: a new object in .git/objects', file('file-write-create', `${W}/.git/objects/ab/cdef`), writers],
  ["commits: git's index", file('file-write-data', `${W}/.git/index`), writers],
  ['writes a git hook', file('file-write-create', `${W}/.git/hooks/pre-commit`), all('deny')],
  ['writes .git/config', file('file-write-data', `${W}/.git/config`), all('deny')],
  // Seatbelt judges the path a symbolic link leads to: a link made in the workspace is the hook itself.
  ['writes a git hook through a symbolic link made in the workspace', file('file-write-data', `${W}/.git/hooks/pre-commit`, `${W}/innocent-link`), all('deny')],
  ['moves a file onto a git hook', file('file-write-create', `${W}/.git/hooks/pre-push`), all('deny')],
  ['removes the hooks folder', { op: 'file-write-unlink', path: `${W}/.git/hooks`, vnode: 'DIRECTORY' }, all('deny')],
  ['creates .envrc that was not there', file('file-write-create', `${W}/.envrc`), all('deny')],
  ['creates .vscode/tasks.json that was not there', file('file-write-create', `${W}/.vscode/tasks.json`), all('deny')],
  ["creates a sub-folder's .envrc", file('file-write-create', `${W}/sub/.envrc`), all('deny')],
  ["writes a nested repository's hook", file('file-write-create', `${W}/vendor/lib/.git/hooks/post-checkout`), all('deny')],
  ["writes a nested repository's hook spelled .GIT/Hooks", file('file-write-create', `${W}/vendor/lib/.git/hooks/x`, `${W}/vendor/lib/.GIT/Hooks/x`), all('deny')],
  ['writes .Envrc in another letter case', file('file-write-create', `${W}/.envrc`, `${W}/.Envrc`), all('deny')],
  ['writes a file the checkpoint does not hold', file('file-write-data', `${W}/dist/big.bin`), all('deny')],
  ['writes next to it', file('file-write-create', `${W}/dist/other.js`), writers],
  ["rewrites a pack file the checkpoint store shares", file('file-write-data', `${W}/.git/objects/pack/pack-1.pack`), all('deny')],
  ['writes .gitignored output elsewhere', file('file-write-create', `${W}/.gitignored-cache/x`), writers],
  // Moving protected things away from their rules
  ['renames the folder holding an unheld file', { op: 'file-write-unlink', path: `${W}/dist`, vnode: 'DIRECTORY' }, all('deny')],
  ['renames .git (its hooks would go with it)', { op: 'file-write-unlink', path: `${W}/.git`, vnode: 'DIRECTORY' }, all('deny')],
  ['renames the workspace itself', { op: 'file-write-unlink', path: W, vnode: 'DIRECTORY' }, all('deny')],
  ['renames the folder holding a hidden .env', { op: 'file-write-unlink', path: `${W}/sub`, vnode: 'DIRECTORY' }, all('deny')],
  ['renames the granted folder', { op: 'file-write-unlink', path: `${H}/out`, vnode: 'DIRECTORY' }, all('deny')],
  ['hard-links the workspace .env to a readable name', file('file-link', `${W}/.env`), all('deny')],
  ['hard-links a git hook to write it through another name', file('file-link', `${W}/.git/hooks/pre-commit`), all('deny')],
  ['clones ~/.ssh/id_ed25519', file('file-clone', `${H}/.ssh/id_ed25519`), all('deny')],
  ['hard-links an ordinary workspace file (no second names at all)', file('file-link', `${W}/src/a.ts`), all('deny')],
  // Devices and terminals
  ['writes /dev/null', { op: 'file-write-data', path: '/dev/null', vnode: 'CHARACTER-DEVICE' }, all('allow')],
  ['writes /dev/stderr through /dev/fd/2', { op: 'file-write-data', path: '/dev/fd/2', vnode: 'CHARACTER-DEVICE' }, all('allow')],
  ['writes a disk device', { op: 'file-write-data', path: '/dev/disk0', vnode: 'CHARACTER-DEVICE' }, all('deny')],
  ["opens the user's terminal window to type into it", { op: 'file-write-data', path: '/dev/ttys003', vnode: 'CHARACTER-DEVICE' }, all('deny')],
  ['opens a terminal it made itself', { op: 'file-write-data', path: '/dev/ttys009', vnode: 'CHARACTER-DEVICE', extensions: ['com.apple.sandbox.pty'] }, all('allow')],
  // Network
  ['connects to the egress proxy on 127.0.0.1', { op: 'network-outbound', remote: { host: '127.0.0.1', port: 50123 } }, { read: 'deny', write: 'deny', network: 'allow' }],
  ['connects to the egress proxy on ::1', { op: 'network-outbound', remote: { host: '::1', port: 50123 } }, { read: 'deny', write: 'deny', network: 'allow' }],
  ["connects to another loopback port (the host's own services)", { op: 'network-outbound', remote: { host: '127.0.0.1', port: 5432 } }, all('deny')],
  ['connects to a host directly', { op: 'network-outbound', remote: { host: '93.184.216.34', port: 443 } }, all('deny')],
  ['connects to the name resolver socket', { op: 'network-outbound', path: '/private/var/run/mDNSResponder' }, all('deny')],
  ["connects to Threshold's control socket", { op: 'network-outbound', path: `${H}/.local/share/threshold/control.sock` }, all('deny')],
  ["binds the proxy's port to pose as the proxy", { op: 'network-bind', remote: { host: '::1', port: 50123 } }, all('deny')],
  ['listens on a loopback port', { op: 'network-inbound', remote: { host: '127.0.0.1', port: 8080 } }, all('deny')],
  // System services and information
  ['looks up a user name', { op: 'mach-lookup', service: 'com.apple.system.opendirectoryd.libinfo' }, all('allow')],
  ['asks the keychain service', { op: 'mach-lookup', service: 'com.apple.SecurityServer' }, all('deny')],
  ['opens an application (Launch Services)', { op: 'mach-lookup', service: 'com.apple.coreservices.launchservicesd' }, all('deny')],
  ['reads the pasteboard', { op: 'mach-lookup', service: 'com.apple.pasteboard.1' }, all('deny')],
  ['reads preferences through cfprefsd', { op: 'mach-lookup', service: 'com.apple.cfprefsd.agent' }, all('deny')],
  ['asks trustd (it fetches certificates on the network)', { op: 'mach-lookup', service: 'com.apple.trustd.agent' }, all('deny')],
  ['reads the CPU count', { op: 'sysctl-read', sysctl: 'hw.ncpu' }, all('allow')],
  ['lists every process of the machine', { op: 'sysctl-read', sysctl: 'kern.proc.all' }, all('deny')],
  ["reads another process's arguments and environment", { op: 'sysctl-read', sysctl: 'kern.procargs2' }, all('deny')],
  ['changes a kernel setting', { op: 'sysctl-write', sysctl: 'kern.tcsm_enable' }, all('deny')],
  ['inspects its own child', { op: 'process-info-pidinfo', sameSandbox: true }, all('allow')],
  ["inspects the user's other programs", { op: 'process-info-pidinfo', sameSandbox: false }, all('deny')],
  ["signals the user's other programs", { op: 'signal', sameSandbox: false }, all('deny')],
  ["opens another program's shared memory", { op: 'ipc-posix-shm-read-data', ipcName: '/com.example.app.shm' }, all('deny')],
  ["registers OpenMP's segment", { op: 'ipc-posix-shm-write-create', ipcName: '/__KMP_REGISTERED_LIB_4242' }, all('allow')],
  ['sends Apple Events to another app', { op: 'appleevent-send' }, all('deny')],
];

describe('the macOS profile decides as the Linux jail does, per class', () => {
  const profiles = { read: seatbeltProfile(spec('read'), ctx()), write: seatbeltProfile(spec('write'), ctx()), network: seatbeltProfile(spec('network'), ctx()) };
  it.each(cases)('a call that %s: %o', (_name, request, want) => {
    expect({ read: ask(profiles.read, request), write: ask(profiles.write, request), network: ask(profiles.network, request) }).toEqual(want);
  });
});

describe('edges of the profile', () => {
  it('a workspace under /tmp is readable and writable, its neighbours there are not, and its folders can be looked up', () => {
    const p = seatbeltProfile(spec('write', { workspace: '/private/tmp/ws', cwd: '/private/tmp/ws', hiddenFiles: [], readOnlyInWorkspace: [], absentProtected: [] }), ctx());
    expect({
      write: ask(p, file('file-write-create', '/private/tmp/ws/a')),
      neighbour: ask(p, file('file-read-data', '/private/tmp/other/a')),
      stat: ask(p, { op: 'file-read-metadata', path: '/private/tmp', vnode: 'DIRECTORY' }),
      list: ask(p, { op: 'file-read-data', path: '/private/tmp', vnode: 'DIRECTORY' }),
      renameWorkspace: ask(p, { op: 'file-write-unlink', path: '/private/tmp/ws', vnode: 'DIRECTORY' }),
    }).toEqual({ write: 'allow', neighbour: 'deny', stat: 'allow', list: 'deny', renameWorkspace: 'deny' });
  });

  it('a workspace that is the home folder cannot write its hidden dot-folders', () => {
    const p = seatbeltProfile(spec('write', { workspace: H, cwd: H }), ctx());
    expect([ask(p, file('file-write-create', `${H}/.ssh/authorized_keys`)), ask(p, file('file-write-create', `${H}/notes.txt`))]).toEqual(['deny', 'allow']);
  });

  it('an outside-jail code path the user granted is writable; the same name elsewhere is not', () => {
    const p = seatbeltProfile(spec('write', { absentProtected: [], grantedCodePaths: [`${W}/.envrc`] }), ctx());
    expect([ask(p, file('file-write-create', `${W}/.envrc`)), ask(p, file('file-write-create', `${W}/sub/.envrc`))]).toEqual(['allow', 'deny']);
  });

  it('without a repository, .git cannot be created (git init needs a grant), while other folders can', () => {
    const p = seatbeltProfile(spec('write', { readOnlyInWorkspace: [], absentProtected: [{ path: `${W}/.git`, dir: true }] }), ctx());
    expect([ask(p, { op: 'file-write-create', path: `${W}/.git`, vnode: 'DIRECTORY' }), ask(p, file('file-write-create', `${W}/.git/HEAD`)), ask(p, { op: 'file-write-create', path: `${W}/src`, vnode: 'DIRECTORY' })]).toEqual(['deny', 'deny', 'allow']);
  });

  it('granting .git lets git init create its hooks', () => {
    const p = seatbeltProfile(spec('write', { readOnlyInWorkspace: [], absentProtected: [], grantedCodePaths: [`${W}/.git`] }), ctx());
    expect(ask(p, file('file-write-create', `${W}/.git/hooks/pre-commit.sample`))).toBe('allow');
  });

  it('a read call gets no temp folder and no write rule at all', () => {
    const rules = seatbeltRules(spec('read'), ctx()).map((r) => r.rule);
    expect(rules.filter((r) => /^\(allow [^(]*file-write\*/.test(r) && !r.includes('/dev/'))).toEqual([]);
  });

  it('a network call without the proxy port is refused, not opened up', () => {
    expect(() => seatbeltRules(spec('network'), ctx({ proxyPort: null }))).toThrow('egress proxy port');
  });

  it('no class allows the network by a wildcard', () => {
    for (const cls of ['read', 'write', 'network'] as const) {
      const rules = rulesOf(seatbeltProfile(spec(cls), ctx())).rules;
      expect(rules.filter((r) => r.action === 'allow' && r.ops.some((o) => o.startsWith('network')) && !JSON.stringify(r.filters).includes('localhost:50123'))).toEqual([]);
    }
  });

  it('every rule carries a reason, written above it in the profile', () => {
    const rules = seatbeltRules(spec('network'), ctx());
    expect(rules.every((r) => r.why.length > 10 && !r.why.includes('\n'))).toBe(true);
    const text = seatbeltProfile(spec('network'), ctx());
    for (const r of rules) expect(text).toContain(`; ${r.why}\n${r.rule}\n`);
  });

  it('uses only operations and filters that the peers\' profiles use on macOS (a misspelt name makes sandbox-exec refuse the profile)', () => {
    // Each name below appears in @anthropic-ai/sandbox-runtime's or Codex's macOS profile, except
    // file-link and file-clone, which other projects' Seatbelt profiles deny the same way.
    const KNOWN_OPERATIONS = ['default', 'file-clone', 'file-ioctl', 'file-link', 'file-read*', 'file-read-metadata', 'file-write*', 'file-write-data', 'file-write-unlink', 'ipc-posix-sem', 'ipc-posix-shm-read-data', 'ipc-posix-shm-write-create', 'ipc-posix-shm-write-unlink', 'mach-lookup', 'network*', 'network-outbound', 'process-exec', 'process-fork', 'process-info*', 'pseudo-tty', 'signal', 'sysctl-read', 'sysctl-write'];
    const KNOWN_FILTERS = ['extension', 'global-name', 'ipc-posix-name-regex', 'literal', 'regex', 'remote', 'require-all', 'require-any', 'require-not', 'subpath', 'sysctl-name', 'sysctl-name-prefix', 'target', 'vnode-type'];
    for (const cls of ['read', 'write', 'network'] as const) {
      const used = namesUsed(seatbeltProfile(spec(cls, { grantedCodePaths: [`${W}/.idea`] }), ctx()));
      expect(used.operations.filter((o) => !KNOWN_OPERATIONS.includes(o))).toEqual([]);
      expect(used.filters.filter((f) => !KNOWN_FILTERS.includes(f))).toEqual([]);
    }
  });

  it('passes argv after --, never through a shell', () => {
    const a = sandboxExecArgs(spec('write'), ctx(), ['bash', '-c', 'echo "$HOME"; rm x']);
    expect({ flag: a[0], parses: parseSbpl(a[1]!).length > 10, rest: a.slice(2) }).toEqual({ flag: '-p', parses: true, rest: ['--', 'bash', '-c', 'echo "$HOME"; rm x'] });
  });
});

describe('paths in the profile', () => {
  it.each([
    ['a double quote', '/w/a"b', '"/w/a\\"b"'],
    ['a backslash', '/w/a\\b', '"/w/a\\\\b"'],
    ['spaces and Unicode', '/Users/u/Mes Documents/çà', '"/Users/u/Mes Documents/çà"'],
  ])('a path holding %s is quoted so it reads back as itself', (_n, path, quoted) => {
    expect(sbplString(path)).toBe(quoted);
    const profile = seatbeltProfile(spec('write', { workspace: path, cwd: path, hiddenFiles: [], readOnlyInWorkspace: [], absentProtected: [] }), ctx());
    expect(ask(profile, file('file-write-create', `${path}/x`))).toBe('allow');
  });

  it.each([
    ['a newline', '/w/a\nb'],
    ['a NUL', '/w/a\0b'],
    ['an escape character', '/w/a\u001bb'],
  ])('a path holding %s is refused: no profile is built, nothing runs', (_n, path) => {
    expect(() => seatbeltProfile(spec('write', { workspace: path }), ctx())).toThrow(SeatbeltPathError);
  });

  it('a path too long for one of its rules is refused rather than cut', () => {
    const long = '/w/' + 'a'.repeat(SBPL_STRING_MAX);
    expect(() => seatbeltProfile(spec('write', { workspace: long }), ctx())).toThrow(/longer than/);
  });

  it('the any-depth rule of a long workspace path splits into several regular expressions, each within the limit', () => {
    const long = '/Users/u/' + 'project-with-a-rather-long-name/'.repeat(5) + 'app';
    const rules = seatbeltRules(spec('write', { workspace: long, cwd: long }), ctx()).filter((r) => r.why.startsWith(`outside-jail code at any depth below ${long} `));
    expect(rules.length).toBeGreaterThan(1);
    for (const r of rules) for (const m of r.rule.matchAll(/\(regex ("(?:[^"\\]|\\.)*")\)/g)) expect(Buffer.byteLength(m[1]!)).toBeLessThanOrEqual(SBPL_STRING_MAX);
  });

  it('anyCase matches every spelling of a name and nothing else', () => {
    const re = new RegExp(`^${anyCase('.git/hooks')}$`);
    expect(['.git/hooks', '.GIT/HOOKS', '.Git/hOoks', 'xgit/hooks', '.git/hook'].map((s) => re.test(s))).toEqual([true, true, true, false, false]);
  });

  it('lists the folders above a path, nearest first', () => {
    expect(ancestors('/Users/u/proj/.git/hooks')).toEqual(['/Users/u/proj/.git', '/Users/u/proj', '/Users/u', '/Users']);
  });
});

describe('real paths (Seatbelt compares the paths the kernel sees)', () => {
  // A made-up macOS: /tmp, /var and /etc are links into /private; the workspace's .envrc links elsewhere.
  const links: Record<string, string> = { '/tmp': '/private/tmp', '/var': '/private/var', '/etc': '/private/etc', '/private/tmp/ws/.envrc': '/tmp/shared/envrc', '/Users/u/proj-link': '/Users/u/proj' };
  const exists = new Set(['/private', '/private/tmp', '/private/var', '/private/etc', '/private/etc/ssh', '/private/tmp/ws', '/private/tmp/shared', '/private/tmp/shared/envrc', '/Users', '/Users/u', '/Users/u/proj']);
  const realpath = (p: string): string => {
    let out = '';
    for (const part of p.split('/').filter(Boolean)) {
      let next = `${out}/${part}`;
      if (links[next]) next = realpath(links[next]!);
      else if (!exists.has(next)) throw Object.assign(new Error(`ENOENT ${p}`), { code: 'ENOENT' });
      out = next;
    }
    return out || '/';
  };

  it.each([
    ['a folder under /tmp', '/tmp/ws', '/private/tmp/ws', '/private/tmp/ws'],
    ['a file not there yet, under /tmp', '/tmp/ws/new.txt', '/private/tmp/ws/new.txt', '/private/tmp/ws/new.txt'],
    ['a system folder under /etc', '/etc/ssh', '/private/etc/ssh', '/private/etc/ssh'],
    ['a link in the workspace', '/tmp/ws/.envrc', '/private/tmp/shared/envrc', '/private/tmp/ws/.envrc'],
    ['a linked workspace', '/Users/u/proj-link', '/Users/u/proj', '/Users/u/proj-link'],
  ])('%s: its contents are reached at the first path, the entry itself is the second', (_n, p, resolved, asEntry) => {
    expect([resolvedPath(p, realpath), entryPath(p, realpath)]).toEqual([resolved, asEntry]);
  });

  it('a protected path that is a link is denied under both names, so deleting and re-creating the link does not free it', () => {
    const s = canonicalSpec(spec('write', { workspace: '/tmp/ws', cwd: '/tmp/ws', readOnlyInWorkspace: ['/tmp/ws/.envrc'], absentProtected: [{ path: '/tmp/ws/.vscode', dir: true }], hiddenDirs: ['/etc/ssh'], hiddenFiles: [], emptiedFiles: [], extraWritable: [] }), realpath);
    expect({ workspace: s.workspace, readOnly: s.readOnlyInWorkspace, absent: s.absentProtected, hidden: s.hiddenDirs }).toEqual({
      workspace: '/private/tmp/ws',
      readOnly: ['/private/tmp/ws/.envrc', '/private/tmp/shared/envrc'],
      absent: [{ path: '/private/tmp/ws/.vscode', dir: true }],
      hidden: ['/private/etc/ssh'],
    });
    const p = seatbeltProfile(s, ctx());
    expect([ask(p, file('file-write-unlink', '/private/tmp/ws/.envrc')), ask(p, file('file-write-data', '/private/tmp/shared/envrc'))]).toEqual(['deny', 'deny']);
  });
});
