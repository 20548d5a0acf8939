import { describe, expect, it } from 'vitest';
import { TEST_PATHS as ctx } from '../../test/support/policy';
import { CREDENTIAL_SYSTEM_LOCATIONS } from '../../common/credential-locations';
import { HOME_VISIBLE, globCouldReachCredential, isCredentialPath, isHiddenHomePath, isOutsideJailCodePath, isProtectedWriteTarget, resolvePath, secretReadReason } from './paths';

describe('resolvePath', () => {
  it.each([
    { raw: '~', cwd: '/x', want: '/home/user' },
    { raw: '~/a/../b', cwd: '/x', want: '/home/user/b' },
    { raw: '~root/.ssh', cwd: '/x', want: '/root/.ssh' },
    { raw: 'a/./b/', cwd: '/w', want: '/w/a/b' },
    { raw: '../..', cwd: '/a/b/c', want: '/a' },
    { raw: '/usr/../', cwd: '/x', want: '/' },
    { raw: '//etc', cwd: '/x', want: '/etc' },
    { raw: 'rel', cwd: null, want: null },
  ])('$raw in $cwd is $want', ({ raw, cwd, want }) => {
    expect(resolvePath(raw, cwd, ctx)).toBe(want);
  });
});

describe('credential locations', () => {
  it.each([
    { path: '/home/user/.ssh/id_ed25519', want: true },
    { path: '/home/user/.ssh', want: true },
    { path: '/home/user/.aws/credentials', want: true },
    { path: '/home/user/.config/gh/hosts.yml', want: true },
    { path: '/home/user/.netrc', want: true },
    { path: '/home/user/project/.env', want: true },
    { path: '/home/user/project/.env.production', want: true },
    { path: '/home/user/project/.env.example', want: false },
    { path: '/home/user/.mozilla/firefox/x/logins.json', want: true },
    { path: '/home/user/Library/Keychains/login.keychain-db', want: true },
    { path: '/home/user/.config/threshold/threshold.toml', want: true },
    { path: '/home/user/.local/share/threshold/threshold.db', want: true },
    { path: '/etc/shadow', want: true },
    { path: '/home/user/project/certs/server.pem', want: true },
    { path: '/home/user/.ssh-notes.txt', want: false },
    { path: '/home/user/project/src/ssh.ts', want: false },
    { path: '/home/user/.sshrc-backup', want: false },
  ])('$path → $want', ({ path, want }) => {
    expect(isCredentialPath(path, ctx)).toBe(want);
  });

  it.each([
    { glob: '/home/user/.ss*/id*', want: true },
    { glob: '/home/user/.*/credentials', want: true },
    { glob: '/home/user/*/x', want: false },
    { glob: '/home/user/project/.env*', want: true },
    { glob: '/home/user/project/*.ts', want: false },
    { glob: '/home/user/.*rc', want: true },
    { glob: '/home/user/.config/*/hosts.yml', want: true },
    { glob: '/home/user/project/certs/*.key', want: true },
    { glob: '/home/user/project/*token*', want: true },
    { glob: '/home/user/Documents/*.pdf', want: false },
  ])('the glob $glob can reach a credential: $want', ({ glob, want }) => {
    expect(globCouldReachCredential(glob, ctx)).toBe(want);
  });

  // The split credential list is kept per context object: a context changed after a first call must be
  // judged by its new home and app dirs, never by the list made before (a stale list misses them).
  it('judges a glob by the home and app dirs a context has now, after they changed in place', () => {
    const changing = { home: '/home/user', workspace: '/w', appDirs: ['/srv/a'] };
    const judge = () => [globCouldReachCredential('/srv/b/x?', changing), globCouldReachCredential('/data/me/snap/fire*', changing)];
    const before = judge();
    changing.appDirs[0] = '/srv/b';
    const appDirChanged = judge();
    changing.home = '/data/me';
    const homeChanged = judge();
    changing.appDirs.push('/srv/c');
    expect([before, appDirChanged, homeChanged, globCouldReachCredential('/srv/c/x?', changing)]).toEqual([[false, false], [true, false], [true, true], true]);
  });
});

describe('protected write targets', () => {
  it.each([
    { path: '/etc/passwd', want: true },
    { path: '/usr/local/bin/tool', want: true },
    { path: '/dev/sda', want: true },
    { path: '/home/user/.bashrc', want: true },
    { path: '/home/user/.config/autostart/x.desktop', want: true },
    { path: '/home/user/.local/bin/ls', want: true },
    { path: '/home/user/.gitconfig', want: true },
    { path: '/home/user/.ssh/authorized_keys', want: true },
    { path: '/home/user/project/src/a.ts', want: false },
    { path: '/tmp/out.txt', want: false },
    { path: '/home/user/notes.md', want: false },
  ])('$path → $want', ({ path, want }) => {
    expect(isProtectedWriteTarget(path, ctx)).toBe(want);
  });

  it('a workspace under /srv is the user\'s project, not the system', () => {
    expect(isProtectedWriteTarget('/srv/app/src/a.ts', { ...ctx, workspace: '/srv/app' })).toBe(false);
  });

  it.each([
    { path: '/home/user/project/.git/hooks/pre-commit', want: true },
    { path: '/home/user/project/.git/config', want: true },
    { path: '/home/user/project/.envrc', want: true },
    { path: '/home/user/project/.vscode/tasks.json', want: true },
    { path: '/home/user/project/.git/objects/ab/cd', want: false },
    { path: '/home/user/project/src/.vscode-notes', want: false },
  ])('$path holds code that runs outside the jail: $want', ({ path, want }) => {
    expect(isOutsideJailCodePath(path, ctx)).toBe(want);
  });
});

describe('hidden home paths: dot-entries and ~/Library, outside the workspace, not on the visible list', () => {
  it.each([
    { path: '/home/user/.npmrc', want: true },
    { path: '/home/user/.config/some-cli/auth.json', want: true },
    { path: '/home/user/.bash_history', want: true },
    { path: '/home/user/.cargo/credentials.toml', want: true },
    { path: '/home/user/.cargo', want: true },
    { path: '/home/user/Library/Application Support/Slack/Cookies', want: true },
    { path: '/home/user/.cargo/bin/cargo', want: false },
    { path: '/home/user/.gitconfig', want: false },
    { path: '/home/user/.rustup/toolchains/stable/bin/rustc', want: false },
    { path: '/home/user/.local/bin/tool', want: false },
    { path: '/home/user/.local/share/app/data', want: true },
    { path: '/home/user/Documents/taxes.pdf', want: false },
    { path: '/home/user/project/.github/workflows/ci.yml', want: false },
    { path: '/home/user', want: false },
    { path: '/etc/hosts', want: false },
  ])('$path → $want', ({ path, want }) => {
    expect(isHiddenHomePath(path, ctx)).toBe(want);
  });

  it.each([
    { name: 'a workspace under a dot-folder stays visible', workspace: '/home/user/.local/src/app', path: '/home/user/.local/src/app/main.c', want: false },
    { name: 'its siblings do not', workspace: '/home/user/.local/src/app', path: '/home/user/.local/src/other/main.c', want: true },
    { name: 'a workspace that is the home folder does not make its dot-entries visible', workspace: '/home/user', path: '/home/user/.npmrc', want: true },
  ])('$name', ({ workspace, path, want }) => {
    expect(isHiddenHomePath(path, { ...ctx, workspace })).toBe(want);
  });

  it('every visible entry says why it is safe', () => {
    expect(HOME_VISIBLE.filter((v) => v.why.length < 20 || v.path.startsWith('/'))).toEqual([]);
  });
});

describe('why a read needs a human (secret_read)', () => {
  it.each([
    { path: '/home/user/.aws/credentials', want: 'a credential location' },
    { path: '/home/user/.npmrc', want: 'a credential location' },
    { path: '/home/user/.config/stripe/config.toml', want: "a path hidden from commands (the home folder's dot-entries and ~/Library hold credentials)" },
    { path: '/home/user/project/deploy/id_deploy', want: 'an SSH private key by its name (id_*)' },
    { path: '/home/user/project/deploy/id_deploy.pub', want: null },
    { path: '/home/user/project/tls/server.key', want: 'a key or key store by its extension' },
    { path: '/home/user/project/android/release.jks', want: 'a credential location' },
    { path: '/home/user/Documents/Passwords.kdbx', want: 'a credential location' },
    { path: '/home/user/project/github_token', want: 'a file whose name says it holds a secret' },
    { path: '/home/user/project/config/credentials.yml.enc', want: 'a file whose name says it holds a secret' },
    { path: '/home/user/project/k8s/db-secret.yaml', want: 'a file whose name says it holds a secret' },
    { path: '/home/user/Downloads/wallet.dat', want: 'a credential file by its name' },
    { path: '/home/user/project/k8s/secrets/db.yaml', want: 'a file in a folder named secrets' },
    { path: '/home/user/project/src/tokenizer.ts', want: null },
    { path: '/home/user/project/src/secrets/index.ts', want: null },
    { path: '/home/user/project/docs/password-reset.md', want: null },
    { path: '/home/user/project/src/id_card.py', want: null },
    { path: '/home/user/project/README.md', want: null },
    { path: '/etc/passwd', want: null },
  ])('$path: $want', ({ path, want }) => {
    expect(secretReadReason(path, ctx)).toBe(want);
  });

  it('folders above the workspace do not count: a workspace inside ~/work/secrets is not all secret', () => {
    const inside = { ...ctx, workspace: '/home/user/work/secrets/app' };
    expect([secretReadReason('/home/user/work/secrets/app/src/main.c', inside), secretReadReason('/home/user/work/secrets/app/secrets/db.yaml', inside)]).toEqual([null, 'a file in a folder named secrets']);
  });

  it('a listing is judged by where it is, not by the names in it', () => {
    expect([secretReadReason('/home/user/project/secrets', ctx, { byName: false }), secretReadReason('/home/user/.ssh', ctx, { byName: false })]).toEqual([null, 'a credential location']);
  });
});

describe('system credential files (issue 26): the classifier and the jail use one list', () => {
  it.each(CREDENTIAL_SYSTEM_LOCATIONS.map((l) => [l.path, l.holds] as const))('%s is a credential location (%s), and what is inside it too', (path, holds) => {
    expect(isCredentialPath(path, ctx)).toBe(true);
    expect(isCredentialPath(`${path}/x`, ctx)).toBe(true);
    expect(secretReadReason(path, ctx)).toContain(holds);
  });
  it.each(['/etc/passwd', '/etc/group', '/etc/hosts', '/etc/ssh/ssh_config', '/etc/ssh/ssh_known_hosts', '/etc/ssh/ssh_host_ed25519_key.pub', '/etc/sudo.conf'])('%s holds no secret', (path) => {
    expect(isCredentialPath(path, ctx)).toBe(false);
  });
  it('a host key under another name or folder is secret by its name (ssh_host_*_key)', () => {
    expect(secretReadReason('/srv/box/etc/ssh/ssh_host_ed448_key', ctx)).toContain('SSH host private key');
  });
});

