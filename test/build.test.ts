// The app's three bundles build without an Electron binary (electron-vite build), and the Electron
// main process and preload that come out are the shell, not the core: no native module (it would have to
// be rebuilt for Electron's ABI, the failure `npm ci && npm start` used to meet), and none of the store,
// the executor or the agent (they run in the core's own process, main/app/core-supervisor.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBundle } from '../bin/cli-bundle.js';
import { ROOT } from './support/cli';

const out = mkdtempSync(join(tmpdir(), 'threshold-build-'));
let build: { status: number | null; stderr: string };

/** The bundle files of one output folder (what Electron loads), with their source maps. */
function bundles(folder: 'main' | 'preload'): { file: string; text: string; sources: string[] }[] {
  return readdirSync(join(out, folder))
    .filter((f) => /\.(m?js)$/.test(f))
    .map((f) => {
      const file = join(out, folder, f);
      const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
      return { file, text: readFileSync(file, 'utf8'), sources: map.sources.map((s) => relative(realpathSync(ROOT), join(dirname(file), s))) };
    });
}

/** Every package a bundle imports at run time (bare specifiers other than Node's and Electron's). */
function importedPackages(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s*)["']([^"']+)["']/gm)].map((m) => m[1]!);
  return [...new Set(specifiers.filter((s) => !s.startsWith('node:') && !s.startsWith('.') && !s.startsWith('/') && s !== 'electron').map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!)))].sort();
}

/** Whether a package, or anything it depends on at run time, carries native code. */
function nativeIn(name: string, from: string, seen = new Set<string>()): string[] {
  const require = createRequire(join(from, 'noop.js'));
  let dir: string;
  try {
    dir = dirname(require.resolve(`${name}/package.json`));
  } catch {
    return [];
  }
  if (seen.has(dir)) return [];
  seen.add(dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { gypfile?: boolean; dependencies?: Record<string, string> };
  const own = pkg.gypfile || existsSync(join(dir, 'binding.gyp')) || existsSync(join(dir, 'prebuilds')) || existsSync(join(dir, 'build', 'Release')) ? [name] : [];
  return [...own, ...Object.keys(pkg.dependencies ?? {}).flatMap((dep) => nativeIn(dep, dir, seen))];
}

const CORE = /^(main\/(store|agent|gate|calls|policy|reviewer|control\/server|web\/server)|executor)\//;

describe('electron-vite build', () => {
  beforeAll(() => {
    build = spawnSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--sourcemap', '--outDir', out], { cwd: ROOT, encoding: 'utf8' });
  }, 120_000);

  it('builds main, preload and renderer', () => {
    expect(build.status, build.stderr).toBe(0);
    expect(['main/index.js', 'preload/index.mjs', 'renderer/index.html'].filter((f) => !existsSync(join(out, f)))).toEqual([]);
  });

  it.each(['main', 'preload'] as const)('the %s bundle holds none of the core: no store, executor or agent module is in it', (folder) => {
    const sources = bundles(folder).flatMap((b) => b.sources);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((s) => CORE.test(s))).toEqual([]);
  });

  it.each(['main', 'preload'] as const)('the %s bundle loads no native module, directly or through a package it imports', (folder) => {
    const files = bundles(folder);
    const packages = [...new Set(files.flatMap((b) => importedPackages(b.text)))];
    expect({
      packages: packages.filter((p) => !['zod'].includes(p)),
      native: packages.flatMap((p) => nativeIn(p, ROOT)),
      addons: files.filter((b) => /\.node["']\s*\)|process\.dlopen\s*\(/.test(b.text)).map((b) => relative(out, b.file)),
      inlined: files.flatMap((b) => b.sources).filter((s) => /node_modules\/(better-sqlite3|node-pty|bindings|node-gyp-build|web-tree-sitter|tree-sitter-bash)\//.test(s)),
    }).toEqual({ packages: [], native: [], addons: [], inlined: [] });
  });

  it('the checks can fail: run on the core’s own bundle (the command line’s), they find the store, the executor and both native modules', async () => {
    const entry = await ensureCliBundle();
    const dir = dirname(entry);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => ({ text: readFileSync(join(dir, f), 'utf8'), sources: existsSync(join(dir, `${f}.map`)) ? (JSON.parse(readFileSync(join(dir, `${f}.map`), 'utf8')) as { sources: string[] }).sources.map((s) => relative(realpathSync(ROOT), join(dir, s))) : [] }));
    const sources = files.flatMap((f) => f.sources);
    const packages = [...new Set(files.flatMap((f) => importedPackages(f.text)))];
    expect({
      store: sources.some((s) => s.startsWith('main/store/')),
      executor: sources.some((s) => s.startsWith('executor/')),
      agent: sources.some((s) => s.startsWith('main/agent/')),
      native: [...new Set(packages.flatMap((p) => nativeIn(p, ROOT)))].filter((p) => ['better-sqlite3', 'node-pty'].includes(p)).sort(),
    }).toEqual({ store: true, executor: true, agent: true, native: ['better-sqlite3', 'node-pty'] });
  }, 240_000);
});
