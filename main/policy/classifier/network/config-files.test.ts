import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readNetworkFile } from '../../../gate/network-files';
import { NetworkFiles, parseGitConfig, parseIni, resolveSshAlias, rewriteGitUrl } from './config-files';

describe('git config', () => {
  const repo = parseGitConfig(`[remote "origin"]
\turl = "https://github.com/a/b.git" ; a comment
[url "git@github.com:"]
\tinsteadOf = https://github.com/
\tpushInsteadOf = https://push.example/
[url "https://mirror.example/"]
\tinsteadOf = https://github.com/a/
[Remote "Up"] url = git@example.org:up.git
`);

  it('reads sections, quoted values and one-line sections', () => {
    expect([...repo.entries()]).toEqual([
      ['remote.origin.url', ['https://github.com/a/b.git']],
      ['url.git@github.com:.insteadof', ['https://github.com/']],
      ['url.git@github.com:.pushinsteadof', ['https://push.example/']],
      ['url.https://mirror.example/.insteadof', ['https://github.com/a/']],
      ['remote.Up.url', ['git@example.org:up.git']],
    ]);
  });

  it.each([
    { url: 'https://github.com/a/b.git', push: false, want: 'https://mirror.example/b.git' },
    { url: 'https://github.com/c/d.git', push: false, want: 'git@github.com:c/d.git' },
    { url: 'https://push.example/x.git', push: true, want: 'git@github.com:x.git' },
    { url: 'https://push.example/x.git', push: false, want: 'https://push.example/x.git' },
    { url: 'https://other.example/x', push: false, want: 'https://other.example/x' },
  ])('rewrites $url (push: $push) by the longest insteadOf', ({ url, push, want }) => {
    expect(rewriteGitUrl(url, [repo], push)).toEqual(want);
  });
});

describe('ini and ssh config', () => {
  it('reads pip.conf lists across continuation lines', () => {
    expect([...parseIni('[global]\nindex-url = https://idx.example/simple\nextra-index-url =\n  https://a.example/\n  https://b.example/\n').entries()]).toEqual([
      ['global.index-url', ['https://idx.example/simple']],
      ['global.extra-index-url', ['https://a.example/', 'https://b.example/']],
    ]);
  });

  it.each([
    { alias: 'box', want: { hostname: 'box.example.com', port: 2222, proxy: null } },
    { alias: 'db.corp', want: { hostname: 'db.corp', port: 2200, proxy: null } },
    { alias: 'hop', want: { hostname: 'inner.example.com', port: null, proxy: 'ProxyJump bastion.example.com' } },
    { alias: 'plain', want: { hostname: 'plain', port: null, proxy: null } },
    { alias: 'not-me', want: { hostname: 'not-me', port: null, proxy: null } },
  ])('resolves the ssh alias $alias (first value wins, negated patterns exclude)', ({ alias, want }) => {
    const text = 'Host box\n  HostName box.example.com\n  Port 2222\nHost hop\n  HostName inner.example.com\n  ProxyJump bastion.example.com\nHost *.corp !not-me\n  Port 2200\nHost *\n  Port 2201\n  HostName %h\n';
    expect(resolveSshAlias(text, alias)).toEqual({ ...want, port: want.port ?? 2201 });
  });
});

describe('NetworkFiles on real files', () => {
  const root = mkdtempSync(join(tmpdir(), 'threshold-netfiles-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, 'home');
  const project = join(home, 'project');
  mkdirSync(join(project, 'pkg'), { recursive: true });
  execFileSync('git', ['init', '-q', project]);
  execFileSync('git', ['-C', project, 'remote', 'add', 'origin', 'https://github.com/acme/app.git']);
  execFileSync('git', ['-C', project, 'remote', 'add', 'up', 'git@example.org:up.git']);
  execFileSync('git', ['-C', project, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'first']);
  execFileSync('git', ['-C', project, 'worktree', 'add', '-q', '-b', 'side', join(root, 'side')]);
  writeFileSync(join(project, 'pkg', '.npmrc'), 'registry=https://npm.example/\n@acme:registry=https://npm.pkg.github.com/\n');
  const reads: string[] = [];
  const files = new NetworkFiles((p) => {
    reads.push(p);
    return readNetworkFile(p);
  }, home);

  it('finds the repository from a sub-folder and reads its remotes', () => {
    expect(files.repoConfig(join(project, 'pkg'))?.get('remote.up.url')).toEqual(['git@example.org:up.git']);
  });

  it('finds the shared config of a linked worktree through its .git file', () => {
    expect(files.repoConfig(join(root, 'side'))?.get('remote.origin.url')).toEqual(['https://github.com/acme/app.git']);
  });

  it('reads the project .npmrc before the defaults', () => {
    expect(files.npmRegistries(join(project, 'pkg'))).toEqual(['https://npm.example/', 'https://npm.pkg.github.com/']);
  });

  it('reads each file once per classification', () => {
    const before = reads.length;
    files.repoConfig(join(project, 'pkg'));
    expect(reads.length).toEqual(before);
  });

  it('treats a folder, a missing file and a FIFO as unreadable', () => {
    execFileSync('mkfifo', [join(root, 'fifo')]);
    expect([readNetworkFile(project), readNetworkFile(join(root, 'missing')), readNetworkFile(join(root, 'fifo'))]).toEqual([null, null, null]);
  });
});
