import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShadowGit } from './checkpoints';

function workspace() {
  const ws = mkdtempSync(join(tmpdir(), 'threshold-cp-ws-'));
  const data = mkdtempSync(join(tmpdir(), 'threshold-cp-data-'));
  writeFileSync(join(ws, 'a.txt'), 'a1\n');
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'b.ts'), 'export const b = 1;\n');
  writeFileSync(join(ws, '.gitignore'), 'node_modules/\n*.log\n');
  mkdirSync(join(ws, 'node_modules'));
  writeFileSync(join(ws, 'node_modules', 'dep.js'), 'dep\n');
  writeFileSync(join(ws, 'debug.log'), 'log\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } }).toString();
  git('init', '-q');
  git('add', 'a.txt');
  git('-c', 'user.name=u', '-c', 'user.email=e', 'commit', '-qm', 'user commit');
  git('stash', 'list');
  return { ws, data, git };
}

describe('shadow-git checkpoints', () => {
  it('snapshot, diff and restore, honouring .gitignore, leaving the user repository alone', async () => {
    const { ws, data, git } = workspace();
    const before = { head: git('rev-parse', 'HEAD'), index: readFileSync(join(ws, '.git', 'index')), status: git('status', '--porcelain') };
    const g = new ShadowGit(ws, data);
    const s1 = await g.snapshot('before call 1');
    expect({ files: s1.files, unchanged: s1.unchanged }).toEqual({ files: 3, unchanged: false });
    // The call changes, adds and deletes files, and touches an ignored one.
    writeFileSync(join(ws, 'a.txt'), 'a2\n');
    writeFileSync(join(ws, 'new.txt'), 'new\n');
    rmSync(join(ws, 'src', 'b.ts'));
    writeFileSync(join(ws, 'debug.log'), 'changed log\n');
    const s2 = await g.snapshot('before call 2');
    const diff = await g.diff(s1.commit, s2.commit);
    expect(diff.stat).toMatch(/a\.txt[\s\S]*new\.txt[\s\S]*src\/b\.ts/);
    expect(diff.patch).not.toContain('debug.log');
    await g.restore(s1.commit);
    expect({ a: readFileSync(join(ws, 'a.txt'), 'utf8'), added: existsSync(join(ws, 'new.txt')), restored: existsSync(join(ws, 'src', 'b.ts')), ignored: readFileSync(join(ws, 'debug.log'), 'utf8'), deps: existsSync(join(ws, 'node_modules', 'dep.js')) }).toEqual({
      a: 'a1\n',
      added: false,
      restored: true,
      ignored: 'changed log\n',
      deps: true,
    });
    expect({ head: git('rev-parse', 'HEAD'), index: readFileSync(join(ws, '.git', 'index')), status: git('status', '--porcelain') }).toEqual(before);
    expect(git('stash', 'list')).toBe('');
  });

  it('is incremental: an unchanged workspace makes no new commit', async () => {
    const { ws, data } = workspace();
    const g = new ShadowGit(ws, data);
    const a = await g.snapshot('one');
    const b = await g.snapshot('two');
    expect({ same: a.commit === b.commit, unchanged: b.unchanged }).toEqual({ same: true, unchanged: true });
  });

  it('leaves out files above the size cap, and says so', async () => {
    const { ws, data } = workspace();
    writeFileSync(join(ws, 'model.bin'), Buffer.alloc(2048));
    const g = new ShadowGit(ws, data, 1024);
    const s = await g.snapshot('cap');
    expect({ excluded: s.excluded, unheld: s.unheld }).toEqual({ excluded: ['model.bin'], unheld: ['debug.log', 'model.bin'] });
  });

  it('writes objects and the ref that git itself accepts: fsck --strict passes, and the commit reads back', async () => {
    const { ws, data } = workspace();
    const g = new ShadowGit(ws, data);
    const first = await g.snapshot('one');
    writeFileSync(join(ws, 'c.txt'), 'c\n');
    const second = await g.snapshot('two');
    const shadow = (...args: string[]) => execFileSync('git', ['--git-dir', g.gitDir, ...args], { env: { PATH: process.env['PATH'], GIT_CONFIG_GLOBAL: '/dev/null' } }).toString();
    const [tree, parents] = shadow('log', '-1', '--format=%T%n%P', 'refs/heads/checkpoints').trim().split('\n');
    expect({ fsck: shadow('fsck', '--strict', '--no-dangling'), tree, firstParent: parents!.split(' ')[0], head: shadow('rev-parse', 'refs/heads/checkpoints').trim(), files: shadow('ls-tree', '-r', '--name-only', second.commit).trim().split('\n') }).toEqual({
      fsck: '',
      tree: second.tree,
      firstParent: first.commit,
      head: second.commit,
      files: ['.gitignore', 'a.txt', 'c.txt', 'src/b.ts'],
    });
    expect(shadow('log', '-1', '--format=%B', second.commit)).toMatch(/^two\n\nThreshold-History: [0-9a-f]{40}\nThreshold-History-Tree: [0-9a-f]{40}\nThreshold-Ignored: [0-9a-f]{40}\n/);
  });

  it('a new instance (a restarted daemon) reads the previous checkpoint from disk and sees nothing changed', async () => {
    const { ws, data } = workspace();
    const a = await new ShadowGit(ws, data).snapshot('one');
    const b = await new ShadowGit(ws, data).snapshot('two');
    expect({ same: b.commit === a.commit, unchanged: b.unchanged }).toEqual({ same: true, unchanged: true });
  });

  it('snapshots asked for at once run one after the other (they share the shadow index)', async () => {
    const { ws, data } = workspace();
    const g = new ShadowGit(ws, data);
    const all = await Promise.all(['one', 'two', 'three'].map((m, i) => (writeFileSync(join(ws, `n${i}.txt`), m), g.snapshot(m))));
    expect(all.map((s) => s.unchanged)).toEqual([false, true, true]);
  });

  it('makes the same checkpoints whether git runs through the runner or straight from the daemon', async () => {
    const one = workspace();
    const two = workspace();
    const via = await new ShadowGit(one.ws, one.data).snapshot('m');
    const direct = await new ShadowGit(two.ws, two.data, undefined, null).snapshot('m');
    expect({ tree: direct.tree, files: direct.files, unheld: direct.unheld }).toEqual({ tree: via.tree, files: via.files, unheld: via.unheld });
  });
});

/** A repository with history worth losing: commits on two branches, a tag, two stashes, reflogs, a pack. */
function repoWithHistory() {
  const { ws, data, git } = workspace();
  const g = (...args: string[]) => git('-c', 'user.name=u', '-c', 'user.email=e', ...args);
  g('checkout', '-qb', 'feature');
  writeFileSync(join(ws, 'f.txt'), 'feature work\n');
  g('add', 'f.txt');
  g('commit', '-qm', 'feature commit');
  g('checkout', '-q', 'master');
  g('tag', 'v1');
  g('gc', '-q');
  writeFileSync(join(ws, 'a.txt'), 'stashed one\n');
  g('stash', 'push', '-q', '-m', 'first');
  writeFileSync(join(ws, 'a.txt'), 'stashed two\n');
  g('stash', 'push', '-q', '-m', 'second');
  return { ws, data, git: g };
}

function history(git: (...a: string[]) => string, ws: string) {
  return {
    refs: git('for-each-ref', '--format=%(refname) %(objectname)'),
    stash: git('stash', 'list', '--format=%H %gs'),
    reflog: git('log', '-g', '--format=%H %gs', 'master'),
    head: readFileSync(join(ws, '.git', 'HEAD'), 'utf8'),
    reachable: git('rev-list', '--objects', '--all', '--reflog').split('\n').sort().join('\n'),
    fsck: git('fsck', '--full', '--no-dangling'),
  };
}

describe('checkpoints hold the repository history', () => {
  it.each([
    { name: 'a force-deleted branch and its commits after a prune', run: ['branch -D feature', 'reflog expire --expire=now --all', 'gc -q --prune=now'] },
    { name: 'a dropped stash', run: ['stash drop -q'] },
    { name: 'a cleared stash after gc', run: ['stash clear', 'gc -q --prune=now'] },
    { name: 'expired reflogs', run: ['reflog expire --expire=now --all'] },
    { name: 'a deleted tag', run: ['tag -d v1'] },
    { name: 'a hard reset of the branch to its root', run: ['reset -q --hard HEAD', 'update-ref refs/heads/master refs/tags/v1~0', 'reflog expire --expire=now --all', 'gc -q --prune=now --aggressive'] },
    { name: 'a detached HEAD and a new branch', run: ['checkout -q --detach feature', 'branch extra'] },
  ])('restores $name', async ({ run }) => {
    const { ws, data, git } = repoWithHistory();
    const cp = new ShadowGit(ws, data);
    const before = history(git, ws);
    const snap = await cp.snapshot('before');
    for (const cmd of run) git(...cmd.split(' '));
    expect(history(git, ws)).not.toEqual(before);
    await cp.restore(snap.commit);
    expect(history(git, ws)).toEqual(before);
  });

  it('is incremental: a second snapshot adds no object files, and a new ref alone makes a new checkpoint', async () => {
    const { ws, data, git } = repoWithHistory();
    const cp = new ShadowGit(ws, data);
    const first = await cp.snapshot('one');
    const second = await cp.snapshot('two');
    git('branch', 'another');
    const third = await cp.snapshot('three');
    expect({ firstAdded: first.history!.objectsAdded > 0, second: [second.unchanged, second.history!.objectsAdded], third: third.unchanged }).toEqual({ firstAdded: true, second: [true, 0], third: false });
  });

  it('restores a deleted .git folder (objects, refs, stash and all)', async () => {
    const { ws, data, git } = repoWithHistory();
    const cp = new ShadowGit(ws, data);
    const before = history(git, ws);
    const config = readFileSync(join(ws, '.git', 'config'));
    const snap = await cp.snapshot('before');
    for (const name of ['objects', 'refs', 'logs', 'packed-refs', 'HEAD', 'index']) rmSync(join(ws, '.git', name), { recursive: true, force: true });
    await cp.restore(snap.commit);
    expect({ ...history(git, ws), config: readFileSync(join(ws, '.git', 'config')) }).toEqual({ ...before, config });
  });
});

describe('a restore never deletes what the snapshot did not hold', () => {
  it.each([
    { name: '.gitignore deleted', change: (ws: string) => rmSync(join(ws, '.gitignore')) },
    { name: '.gitignore emptied', change: (ws: string) => writeFileSync(join(ws, '.gitignore'), '') },
  ])('keeps ignored files when $name before the restore', async ({ change }) => {
    const { ws, data } = workspace();
    const g = new ShadowGit(ws, data);
    const s = await g.snapshot('before');
    change(ws);
    await g.restore(s.commit);
    expect({ log: readFileSync(join(ws, 'debug.log'), 'utf8'), dep: readFileSync(join(ws, 'node_modules', 'dep.js'), 'utf8'), gitignore: readFileSync(join(ws, '.gitignore'), 'utf8') }).toEqual({ log: 'log\n', dep: 'dep\n', gitignore: 'node_modules/\n*.log\n' });
  });
});
