// The jail's read-only binds for what a checkpoint does not hold: which paths, which folders are kept
// in place, and how a long list is folded into folders (bwrap's start-up grows with the mount count).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { undoBinds } from './plan';

const ws = mkdtempSync(join(tmpdir(), 'threshold-undo-binds-'));
const file = (rel: string) => {
  mkdirSync(join(ws, rel, '..'), { recursive: true });
  writeFileSync(join(ws, rel), 'x');
};
for (const rel of ['debug.log', 'logs/run.log', 'data/a/1.csv', 'data/a/2.csv', 'data/a/3.csv', 'data/b/1.csv', '.git/objects/pack/pack-abc.pack', '.git/objects/pack/pack-abc.idx', '.git/objects/pack/tmp_pack_x']) file(rel);
mkdirSync(join(ws, 'ignored-dir'));
symlinkSync('/etc/hostname', join(ws, 'link.log'));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const abs = (...rels: string[]) => rels.map((r) => join(ws, r));

describe('read-only binds for what the checkpoint does not hold', () => {
  it.each([
    {
      name: 'each unheld path read-only, the folders above it and the pack folder kept in place, shallow first',
      unheld: ['debug.log', 'logs/run.log', 'ignored-dir/'],
      granted: [],
      budget: 160,
      want: { keepInPlace: abs('.git', 'logs', '.git/objects', '.git/objects/pack'), readOnly: abs('debug.log', 'logs/run.log', 'ignored-dir', '.git/objects/pack/pack-abc.idx', '.git/objects/pack/pack-abc.pack') },
    },
    {
      name: 'paths that are gone, symbolic links and paths outside the workspace are left alone',
      unheld: ['missing.log', 'link.log', '../outside.log'],
      granted: [],
      budget: 160,
      want: { keepInPlace: abs('.git', '.git/objects', '.git/objects/pack'), readOnly: abs('.git/objects/pack/pack-abc.idx', '.git/objects/pack/pack-abc.pack') },
    },
    {
      name: 'a path the user granted stays writable (and so does what holds it)',
      unheld: ['debug.log', 'logs/run.log'],
      granted: abs('logs'),
      budget: 160,
      want: { keepInPlace: abs('.git', '.git/objects', '.git/objects/pack'), readOnly: abs('debug.log', '.git/objects/pack/pack-abc.idx', '.git/objects/pack/pack-abc.pack') },
    },
    {
      name: 'past the budget, the folder with the most entries is made read-only as a whole (wider, never narrower)',
      unheld: ['data/a/1.csv', 'data/a/2.csv', 'data/a/3.csv', 'data/b/1.csv', 'debug.log'],
      granted: [],
      budget: 3,
      want: { keepInPlace: abs('.git', 'data', '.git/objects', 'data/b', '.git/objects/pack'), readOnly: abs('data/b/1.csv', 'debug.log', 'data/a', '.git/objects/pack/pack-abc.idx', '.git/objects/pack/pack-abc.pack') },
    },
    {
      name: 'top-level entries are never folded into the workspace itself; many packs become their folder',
      unheld: ['debug.log', 'ignored-dir/', 'data/'],
      granted: [],
      budget: 1,
      want: { keepInPlace: abs('.git', '.git/objects'), readOnly: abs('debug.log', 'ignored-dir', 'data', '.git/objects/pack') },
    },
  ])('$name', ({ unheld, granted, budget, want }) => {
    expect(undoBinds(ws, abs(...unheld), granted, budget)).toEqual(want);
  });
});
