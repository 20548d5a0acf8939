// Checkpoints of a large workspace: 10,000 files and a 1 GB .git (random blobs in the history, built
// once with git fast-import and kept under the repo's .test-tmp, or ~/.cache when the checkout is under
// /tmp). First checkpoint (every object file linked into the store), incremental ones (nothing changed;
// ten files edited and committed), the store's disk cost, a restore after a branch is force-deleted and
// pruned, and the jail plan for what the checkpoint does not hold.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ShadowGit } from '../../executor/checkpoints';
import { mirrorObjects } from '../../executor/checkpoint-history';
import { undoBinds } from '../../executor/jail/plan';
import { percentile, type BenchSuite } from './harness';

const FILES = 10_000;
const BLOBS = 256;
const BLOB_BYTES = 4 * 1024 * 1024; // 256 × 4 MiB = 1 GiB of history
const GIT_ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent', LC_ALL: 'C' };

function base(): string {
  const repo = join(import.meta.dirname, '..', '..');
  return repo.startsWith('/tmp/') ? join(homedir(), '.cache', 'threshold-bench') : join(repo, '.test-tmp', 'bench');
}

function git(ws: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.invalid', ...args], { cwd: ws, env: GIT_ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Streams a fast-import script: commit 1 holds 1 GiB of random blobs, commit 2 replaces them with 10,000 small files. */
function fastImport(ws: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'core.compression=0', '-c', 'pack.compression=0', 'fast-import', '--quiet', '--depth=0'], { cwd: ws, env: GIT_ENV, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}`))));
    const out = child.stdin;
    const write = (chunk: string | Buffer) => new Promise<void>((r) => (out.write(chunk) ? r() : out.once('drain', () => r())));
    void (async () => {
      for (let i = 0; i < BLOBS; i++) {
        await write(`blob\nmark :${i + 1}\ndata ${BLOB_BYTES}\n`);
        await write(randomBytes(BLOB_BYTES));
        await write('\n');
      }
      const who = 'b <b@example.invalid> 1700000000 +0000';
      let c1 = `commit refs/heads/main\nmark :900001\ncommitter ${who}\ndata 7\nassets\n`;
      for (let i = 0; i < BLOBS; i++) c1 += `M 100644 :${i + 1} assets/blob-${i}.bin\n`;
      await write(c1 + '\n');
      let c2 = `commit refs/heads/main\ncommitter ${who}\ndata 5\nfiles\nfrom :900001\ndeleteall\n`;
      for (let i = 0; i < FILES; i++) {
        const body = `export const value${i} = ${i};\n`;
        c2 += `M 100644 inline src/d${i % 100}/f${i}.ts\ndata ${Buffer.byteLength(body)}\n${body}\n`;
      }
      await write(c2 + '\n');
      await write('reset refs/heads/old-assets\nfrom :900001\n\n');
      out.end();
    })();
  });
}

async function fixture(): Promise<string> {
  const ws = join(base(), 'checkpoint-1g', 'ws');
  if (existsSync(join(ws, '.ready'))) return ws;
  rmSync(join(base(), 'checkpoint-1g'), { recursive: true, force: true });
  mkdirSync(ws, { recursive: true });
  git(ws, 'init', '-q', '-b', 'main', '--template=');
  process.stderr.write('  building the 1 GB fixture (once)…\n');
  await fastImport(ws);
  git(ws, 'reset', '-q', '--hard', 'main');
  writeFileSync(join(ws, '.gitignore'), 'data/\n*.log\n');
  mkdirSync(join(ws, 'data'));
  writeFileSync(join(ws, 'data', 'results.csv'), 'ignored\n');
  writeFileSync(join(ws, '.ready'), '');
  return ws;
}

function duBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]) || 0;
}

function newBytes(storeDir: string, ws: string): number {
  // du over both trees counts a shared inode once: the store's own cost beyond the repository.
  const both = Number(execFileSync('du', ['-sbc', join(ws, '.git'), storeDir], { encoding: 'utf8' }).trim().split('\n').pop()!.split('\t')[0]);
  const repoOnly = Number(execFileSync('du', ['-sb', join(ws, '.git')], { encoding: 'utf8' }).split('\t')[0]);
  return both - repoOnly;
}

export const suites: BenchSuite[] = [
  {
    name: 'checkpoint (10,000 files, 1 GB .git)',
    async run(report) {
      const ws = await fixture();
      const gitBytes = duBytes(join(ws, '.git'));
      report({ name: 'fixture .git size', value: gitBytes / 1024 / 1024, unit: 'MiB' });
      const data = mkdtempSync(join(base(), 'data-'));
      try {
        const cp = new ShadowGit(ws, data);
        let t = performance.now();
        const first = await cp.snapshot('first');
        report({ name: 'first checkpoint', value: performance.now() - t, unit: 'ms', note: `${first.files} files, ${first.history?.objectsAdded} object files linked` });
        report({ name: 'store cost beyond the repository (first)', value: newBytes(join(data), ws) / 1024 / 1024, unit: 'MiB', note: 'packs are hard links: only the workspace blobs and refs are new' });
        const unchanged: number[] = [];
        for (let i = 0; i < 5; i++) {
          t = performance.now();
          await cp.snapshot(`again ${i}`);
          unchanged.push(performance.now() - t);
        }
        unchanged.sort((a, b) => a - b);
        report({ name: 'incremental checkpoint, nothing changed (median of 5)', value: percentile(unchanged, 50), unit: 'ms' });
        for (let i = 0; i < 10; i++) writeFileSync(join(ws, 'src', `d${i}`, `f${i}.ts`), `export const value${i} = ${Date.now()};\n`);
        git(ws, 'commit', '-qam', 'ten edits');
        t = performance.now();
        const edited = await cp.snapshot('edited');
        report({ name: 'incremental checkpoint, 10 files edited and committed', value: performance.now() - t, unit: 'ms', note: `${edited.history?.objectsAdded} object files added` });
        // Side by side: the history part alone, first and incremental, into a fresh store.
        const store = mkdtempSync(join(base(), 'store-'));
        t = performance.now();
        mirrorObjects(join(ws, '.git', 'objects'), store);
        const mirrorFirst = performance.now() - t;
        t = performance.now();
        mirrorObjects(join(ws, '.git', 'objects'), store);
        report({ name: 'object mirror, first vs incremental', value: mirrorFirst, unit: 'ms', note: `incremental ${(performance.now() - t).toFixed(1)} ms` });
        rmSync(store, { recursive: true, force: true });
        // The worst day: the old history dropped and pruned, then restored.
        git(ws, 'branch', '-D', 'old-assets');
        git(ws, 'reflog', 'expire', '--expire=now', '--all');
        git(ws, 'gc', '-q', '--prune=now');
        t = performance.now();
        await cp.restore(edited.commit);
        report({ name: 'restore after branch -D, reflog expire and gc --prune=now', value: performance.now() - t, unit: 'ms', note: git(ws, 'rev-parse', '--verify', '-q', 'old-assets').trim() ? 'branch back' : 'BRANCH MISSING' });
        t = performance.now();
        const plan = undoBinds(ws, (await cp.unheldPaths()).map((r) => join(ws, r)), []);
        report({ name: 'jail plan for what the checkpoint does not hold', value: performance.now() - t, unit: 'ms', note: `${plan.readOnly.length} read-only, ${plan.keepInPlace.length} kept in place` });
      } finally {
        rmSync(data, { recursive: true, force: true });
      }
    },
  },
];
