import { describe, expect, it } from 'vitest';
import { bwrapArgs } from './bwrap';
import type { JailSpec } from './spec';

const spec = (over: Partial<JailSpec> = {}): JailSpec => ({
  class: 'write',
  workspace: '/home/u/proj',
  cwd: '/home/u/proj',
  home: '/home/u',
  extraWritable: ['/home/u/out'],
  hiddenDirs: ['/home/u/.ssh'],
  hiddenFiles: ['/home/u/proj/.env'],
  emptiedFiles: ['/home/u/.gitconfig'],
  unreadableFile: '/tmp/unreadable',
  readOnlyInWorkspace: ['/home/u/proj/.git/hooks'],
  absentProtected: [{ path: '/home/u/proj/.envrc', dir: false }],
  emptyFile: '/tmp/empty',
  env: { PATH: '/usr/bin', HOME: '/home/u' },
  ...over,
});

const pairs = (a: string[], flag: string) => a.flatMap((x, i) => (x === flag ? [a[i + 1]] : []));

describe('bwrapArgs', () => {
  it.each([
    { cls: 'read' as const, workspace: '--ro-bind', extra: false },
    { cls: 'write' as const, workspace: '--bind', extra: true },
    { cls: 'network' as const, workspace: '--bind', extra: true },
  ])('a $cls call: its own network namespace, workspace mounted with $workspace, granted paths writable: $extra', ({ cls, workspace, extra }) => {
    const a = bwrapArgs(spec({ class: cls }), ['ls']);
    expect({
      unshareNet: a.includes('--unshare-net'),
      workspace: a[a.indexOf('/home/u/proj') - 1],
      extra: pairs(a, '--bind').includes('/home/u/out'),
      protectedRo: pairs(a, '--ro-bind').includes('/home/u/proj/.git/hooks'),
    }).toEqual({ unshareNet: true, workspace, extra, protectedRo: cls !== 'read' });
  });

  it.each([
    { cls: 'read' as const, waits: false },
    { cls: 'write' as const, waits: false },
    { cls: 'network' as const, waits: true },
  ])('a $cls call waits for the egress bridge before its argv: $waits', ({ cls, waits }) => {
    const a = bwrapArgs(spec({ class: cls }), ['curl', 'https://x']);
    const cmd = a.slice(a.lastIndexOf('--') + 1);
    expect({ shell: cmd[0] === '/bin/sh' && cmd[3] === 'threshold-egress', tail: cmd.slice(-2) }).toEqual({ shell: waits, tail: ['curl', 'https://x'] });
  });

  it('always isolates: user and PID namespaces, no nested user namespaces, dies with its parent, new session', () => {
    const a = bwrapArgs(spec(), ['ls']);
    for (const f of ['--unshare-user', '--unshare-pid', '--disable-userns', '--die-with-parent', '--new-session', '--clearenv']) expect(a).toContain(f);
  });

  it('drops every capability, so even as root the hiding mounts cannot be undone', () => {
    const a = bwrapArgs(spec(), ['ls']);
    expect(a.slice(a.indexOf('--cap-drop'), a.indexOf('--cap-drop') + 2)).toEqual(['--cap-drop', 'ALL']);
  });

  it('mounts the root read-only, then private /tmp and /run, then hides credentials last', () => {
    const a = bwrapArgs(spec(), ['ls']);
    expect(a.slice(a.indexOf('--ro-bind'), a.indexOf('--ro-bind') + 3)).toEqual(['--ro-bind', '/', '/']);
    expect(pairs(a, '--tmpfs')).toEqual(expect.arrayContaining(['/tmp', '/run', '/home/u/.ssh']));
    expect(a.indexOf('/home/u/.ssh')).toBeGreaterThan(a.indexOf('/home/u/proj'));
    expect(a[a.indexOf('/home/u/proj/.env') - 1]).toBe('/tmp/unreadable');
    expect(a[a.indexOf('/home/u/.gitconfig') - 1]).toBe('/dev/null');
    expect(a[a.indexOf('/home/u/proj/.envrc') - 1]).toBe('/tmp/empty');
  });

  it('passes argv after --, never through a shell', () => {
    const a = bwrapArgs(spec(), ['bash', '-c', 'echo "$HOME"; rm x']);
    expect(a.slice(a.indexOf('--') + 1)).toEqual(['bash', '-c', 'echo "$HOME"; rm x']);
  });

  it('sets only the given environment', () => {
    expect(pairs(bwrapArgs(spec(), ['env']), '--setenv')).toEqual(['HOME', 'PATH']);
  });

  it('renders the home view: one tmpfs with the home mode, its entries in order (files on fds 4, 5), no mount for what it covers, read-only after every mount in it', () => {
    const homeView = {
      home: '/home/u',
      mode: 0o700,
      ops: [
        { op: 'file' as const, path: '/home/u/.npmrc' },
        { op: 'dir' as const, path: '/home/u/.ssh', mode: 0o755 },
        { op: 'dir' as const, path: '/home/u/.cargo', mode: 0o750 },
        { op: 'bind' as const, path: '/home/u/.cargo/bin' },
        { op: 'file' as const, path: '/home/u/.cargo/env' },
        { op: 'symlink' as const, path: '/home/u/docs', target: '.ssh' },
      ],
      covered: ['/home/u/.npmrc', '/home/u/.ssh', '/home/u/.cargo/env'],
    };
    const a = bwrapArgs(spec({ homeView, hiddenFiles: ['/home/u/.npmrc', '/home/u/.cargo/env', '/home/u/proj/.env'] }), ['true']);
    const from = a.indexOf('--perms', a.indexOf('/dev/shm'));
    expect({
      view: a.slice(from, a.indexOf('--bind', from)),
      workspaceAfterView: a.indexOf('/home/u/proj') > from,
      mounted: { dirs: pairs(a, '--tmpfs').filter((d) => d?.startsWith('/home/u/')), files: pairs(a, '--ro-bind').filter((p) => p === '/tmp/unreadable').length },
      last: a.slice(a.lastIndexOf('--remount-ro'), a.lastIndexOf('--remount-ro') + 3),
    }).toEqual({
      view: ['--perms', '0700', '--tmpfs', '/home/u', '--perms', '0000', '--file', '4', '/home/u/.npmrc', '--perms', '0755', '--dir', '/home/u/.ssh', '--perms', '0750', '--dir', '/home/u/.cargo', '--ro-bind-try', '/home/u/.cargo/bin', '/home/u/.cargo/bin', '--perms', '0000', '--file', '5', '/home/u/.cargo/env', '--symlink', '.ssh', '/home/u/docs'],
      workspaceAfterView: true,
      mounted: { dirs: [], files: 1 },
      last: ['--remount-ro', '/home/u', '--clearenv'],
    });
  });
});
