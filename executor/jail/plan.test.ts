// The jail's view of the home folder, as lists of mounts: what is hidden, what reads as empty, and that
// folders holding something visible are hidden entry by entry instead of whole.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planHiddenPaths } from './plan';

let root: string;
let home: string;
const h = (rel: string) => join(home, rel);

beforeAll(() => {
  root = mkdtempSync(join(import.meta.dirname, '..', '..', '.plan-test-'));
  home = join(root, 'home');
  for (const f of ['.npmrc', '.gitconfig', '.cargo/bin/cargo', '.cargo/credentials.toml', '.local/bin/x', '.local/share/app/db', 'Library/Cookies/c', 'Documents/a.txt', 'project/src/a.ts', '.work/app/main.c', '.work/other/secret.txt']) {
    mkdirSync(dirname(h(f)), { recursive: true });
    writeFileSync(h(f), 'x');
  }
  symlinkSync('/usr/share', h('.linked'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('planHiddenPaths', () => {
  it('hides every dot-entry and ~/Library, descending into folders that hold a kept path', () => {
    const p = planHiddenPaths({ home, workspace: h('project'), keep: [h('.cargo/bin'), h('.local/bin'), h('.gitconfig')], candidates: [] });
    expect(p).toEqual({
      dirs: [h('.local/share'), h('.work'), h('Library')],
      files: [h('.cargo/credentials.toml'), h('.npmrc')],
      emptied: [],
    });
  });

  it('keeps a workspace under a dot-folder visible and hides its siblings', () => {
    const p = planHiddenPaths({ home, workspace: h('.work/app'), keep: [], candidates: [] });
    expect({ dirs: p.dirs.filter((d) => d.includes('.work')), visible: p.dirs.concat(p.files).some((d) => h('.work/app').startsWith(d)) }).toEqual({ dirs: [h('.work/other')], visible: false });
  });

  it('a .gitconfig that is not kept reads as empty rather than failing git', () => {
    expect(planHiddenPaths({ home, workspace: h('project'), keep: [], candidates: [] }).emptied).toEqual([h('.gitconfig')]);
  });

  it('leaves symbolic links alone: their targets are judged by their own paths', () => {
    const p = planHiddenPaths({ home, workspace: h('project'), keep: [], candidates: [] });
    expect([...p.dirs, ...p.files, ...p.emptied].includes(h('.linked'))).toBe(false);
  });

  it('adds the listed candidates that exist, once, and not what is already inside a hidden folder', () => {
    const p = planHiddenPaths({ home, workspace: h('project'), keep: [], candidates: [h('.local/share/app'), h('project/src/a.ts'), '/nonexistent/x'] });
    expect({ app: p.dirs.filter((d) => d.includes('/app')), ws: p.files.includes(h('project/src/a.ts')) }).toEqual({ app: [], ws: false });
  });
});
