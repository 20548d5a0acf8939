// The app's three bundles build without an Electron binary (electron-vite build).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli';

describe('electron-vite build', () => {
  it('builds main, preload and renderer', () => {
    const out = mkdtempSync(join(tmpdir(), 'threshold-build-'));
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--outDir', out], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(['main/index.js', 'preload/index.mjs', 'renderer/index.html'].filter((f) => !existsSync(join(out, f)))).toEqual([]);
  }, 60_000);
});
