// The renderer bundle web mode serves (out/renderer). On a fresh checkout, or after renderer/ or common/
// changed, it is built before serving (electron-vite build -m renderer). Builds by several processes at
// once (parallel e2e workers) are serialised by a lock file, and each build lands by rename so a server
// never reads a half-written bundle.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { acquirePidLock } from '../../node/pid-lock.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** Sources the bundle is built from; a newer file among them makes the bundle stale. */
const SOURCES = ['renderer', 'common', 'electron.vite.config.ts', 'package.json'];

export function rendererOutDir(root = REPO_ROOT): string {
  return join(root, 'out', 'renderer');
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) if (entry !== 'node_modules') newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Why the bundle must be (re)built, or null when it is there and newer than its sources. */
export function bundleStaleness(root = REPO_ROOT): string | null {
  const index = join(rendererOutDir(root), 'index.html');
  if (!existsSync(index)) return `${index} does not exist`;
  const built = statSync(index).mtimeMs;
  const newest = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
  return newest > built ? 'the renderer sources changed since it was built' : null;
}

export interface EnsureOptions {
  root?: string;
  log?: (line: string) => void;
  /** How long to wait for another process's build. */
  timeoutMs?: number;
}

/** Makes sure out/renderer is built and fresh; returns its directory. Safe to call from many processes. */
export async function ensureRendererBundle(o: EnsureOptions = {}): Promise<string> {
  const root = o.root ?? REPO_ROOT;
  const out = rendererOutDir(root);
  if (bundleStaleness(root) === null) return out;
  const lockFile = join(root, 'out', '.renderer-build.lock');
  mkdirSync(join(root, 'out'), { recursive: true });
  const deadline = Date.now() + (o.timeoutMs ?? 180_000);
  for (;;) {
    const lock = acquirePidLock(lockFile);
    if ('release' in lock) {
      try {
        const why = bundleStaleness(root);
        if (why !== null) {
          o.log?.(`building the web UI (${why}); this takes a few seconds`);
          await buildInto(root, out);
          o.log?.('web UI built');
        }
        return out;
      } finally {
        lock.release();
      }
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for another process to build the web UI (lock ${lockFile}).`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function buildInto(root: string, out: string): Promise<void> {
  const staging = join(root, 'out', `.renderer-build-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  if (!existsSync(cli)) throw new Error(`Cannot build the web UI: ${cli} is missing (run npm ci).`);
  const output = await new Promise<{ code: number | null; text: string }>((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, 'build', '-m', 'renderer', '--outDir', staging, '--logLevel', 'warn'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.stderr.on('data', (c: Buffer) => (text += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolvePromise({ code, text }));
  });
  const built = join(staging, 'renderer');
  if (output.code !== 0 || !existsSync(join(built, 'index.html'))) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`Building the web UI failed (exit ${output.code}):\n${output.text.trim()}`);
  }
  const old = join(root, 'out', `.renderer-old-${process.pid}`);
  if (existsSync(out)) renameSync(out, old);
  renameSync(built, out);
  rmSync(old, { recursive: true, force: true });
  rmSync(staging, { recursive: true, force: true });
}
