import { describe, expect, it } from 'vitest';
import { TEST_PATHS as ctx } from '../../test/support/policy';
import { globCouldReachCredential, isCredentialPath, isOutsideJailCodePath, isProtectedWriteTarget, resolvePath } from './paths';

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
  ])('the glob $glob can reach a credential: $want', ({ glob, want }) => {
    expect(globCouldReachCredential(glob, ctx)).toBe(want);
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
