import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readIndexEntries, treesOf } from './index-tree';

const roots: string[] = [];
// rm, not rmSync: one fixture's path is longer than a path Node may name at once.
afterAll(() => roots.forEach((r) => execFileSync('rm', ['-rf', r])));

const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent', LC_ALL: 'C' };

/** A work tree made by `make`, staged into a fresh repository's index as a snapshot stages it (`add --all`). */
function staged(make: (ws: string, git: (...a: string[]) => string) => void): { ws: string; index: Buffer; git: (...a: string[]) => string } {
  const ws = mkdtempSync(join(tmpdir(), 'threshold-index-tree-'));
  roots.push(ws);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'advice.addEmbeddedRepo=false', ...args], { cwd: ws, env: ENV, encoding: 'utf8' });
  git('init', '-q');
  make(ws, git);
  git('add', '--all', '--', '.');
  return { ws, index: readFileSync(join(ws, '.git', 'index')), git };
}

function nested(ws: string): void {
  execFileSync('git', ['init', '-q', join(ws, 'vendor', 'lib')], { env: ENV });
  writeFileSync(join(ws, 'vendor', 'lib', 'x.c'), 'int x;\n');
  execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=e', 'add', '.'], { cwd: join(ws, 'vendor', 'lib'), env: ENV });
  execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=e', 'commit', '-qm', 'lib'], { cwd: join(ws, 'vendor', 'lib'), env: ENV });
}

const plain: { name: string; make: (ws: string, git: (...a: string[]) => string) => void }[] = [
  { name: 'an empty work tree (every file deleted since the last add)', make: (ws, git) => (writeFileSync(join(ws, 'gone'), 'x'), git('add', 'gone'), rmSync(join(ws, 'gone'))) },
  { name: 'one file', make: (ws) => writeFileSync(join(ws, 'a.txt'), 'a\n') },
  {
    name: 'folders in folders beside files whose names sort around the folder name ("a-", "a.b", "a/", "a0")',
    make: (ws) => {
      for (const d of ['a', 'a/b', 'a/b/c', 'b']) mkdirSync(join(ws, d), { recursive: true });
      for (const f of ['a-', 'a.b', 'a0', 'a/b/c/deep.txt', 'a/b.txt', 'a/b/x', 'b/y', 'z']) writeFileSync(join(ws, f), f);
    },
  },
  {
    name: 'an executable, a symbolic link and an empty file',
    make: (ws) => {
      writeFileSync(join(ws, 'run.sh'), '#!/bin/sh\n');
      chmodSync(join(ws, 'run.sh'), 0o755);
      symlinkSync('run.sh', join(ws, 'link'));
      writeFileSync(join(ws, 'empty'), '');
    },
  },
  { name: 'a nested repository (a gitlink entry)', make: nested },
  {
    name: 'names that are not UTF-8, with spaces and non-ASCII letters',
    make: (ws) => {
      writeFileSync(Buffer.concat([Buffer.from(`${ws}/`), Buffer.from([0x66, 0xe9, 0x2e, 0x74])]), 'latin1 name\n');
      writeFileSync(join(ws, 'ümlaut and space.md'), 'u\n');
    },
  },
  {
    // 16 folders of 240 bytes and a 239-byte name: 4,095 bytes, where an entry's length field says "count them".
    name: 'a path of 4,095 bytes, the length an entry cannot state',
    make: (ws) => {
      execFileSync('bash', ['-c', `for i in $(seq 16); do d=$(printf "%0240d" $i); mkdir $d && cd $d || exit 1; done; printf deep > $(printf "%0239d" 0)`], { cwd: ws });
    },
  },
  {
    name: '1,200 files across many folders (past the default limit, asked for here)',
    make: (ws) => {
      for (let d = 0; d < 60; d++) {
        mkdirSync(join(ws, `dir${d}`, 'sub'), { recursive: true });
        for (let f = 0; f < 20; f++) writeFileSync(join(ws, `dir${d}`, f % 2 ? 'sub' : '', `f${f}.ts`), `${d}/${f}`);
      }
    },
  },
];

describe('the tree of an index, computed without git', () => {
  it.each(plain)('is the tree git writes for $name', ({ make }) => {
    const { ws, index, git } = staged(make);
    const entries = readIndexEntries(index, 10_000);
    expect(entries).not.toBeNull();
    const { root, trees } = treesOf(entries!);
    const wanted = git('write-tree').trim();
    // Every tree made here is one git wrote too, with the same bytes under the same id.
    const sameAsGit = trees.every((t) => execFileSync('git', ['cat-file', 'tree', t.id], { cwd: ws, env: ENV }).equals(t.body));
    expect({ root, sameAsGit }).toEqual({ root: wanted, sameAsGit: true });
  });

  it.each([
    { name: 'an intent-to-add entry (git add -N)', make: (ws: string, git: (...a: string[]) => string) => (writeFileSync(join(ws, 'later.txt'), 'x'), git('add', '-N', 'later.txt')) },
    { name: 'index version 4 (compressed paths)', make: (ws: string, git: (...a: string[]) => string) => (writeFileSync(join(ws, 'a'), 'x'), git('add', 'a'), git('update-index', '--index-version', '4')) },
    { name: 'a skip-worktree entry', make: (ws: string, git: (...a: string[]) => string) => (writeFileSync(join(ws, 'a'), 'x'), git('add', 'a'), git('update-index', '--skip-worktree', 'a')) },
  ])('leaves the index to git when it holds $name', ({ make }) => {
    const ws = mkdtempSync(join(tmpdir(), 'threshold-index-tree-'));
    roots.push(ws);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, env: ENV, encoding: 'utf8' });
    git('init', '-q');
    make(ws, git);
    expect(readIndexEntries(readFileSync(join(ws, '.git', 'index')))).toBeNull();
  });

  it('leaves an index of more entries than it handles to git', () => {
    const { index } = staged((ws) => ['a', 'b', 'c'].forEach((f) => writeFileSync(join(ws, f), f)));
    expect({ within: readIndexEntries(index, 3)?.length, over: readIndexEntries(index, 2) }).toEqual({ within: 3, over: null });
  });

  it.each([
    { name: 'a changed byte (its checksum no longer matches)', damage: (b: Buffer) => (b[20] = b[20]! ^ 0xff) },
    { name: 'a cut-off end', damage: (b: Buffer) => b.subarray(0, b.length - 7) },
    { name: 'another signature', damage: (b: Buffer) => b.write('XXXX', 0, 'latin1') },
  ])('leaves the index to git when the file has $name', ({ damage }) => {
    const { index } = staged((ws) => writeFileSync(join(ws, 'a.txt'), 'a\n'));
    const copy = Buffer.from(index);
    const out = damage(copy);
    expect(readIndexEntries(Buffer.isBuffer(out) ? out : copy)).toBeNull();
  });
});
