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
    expect(s.excluded).toEqual(['model.bin']);
  });
});
