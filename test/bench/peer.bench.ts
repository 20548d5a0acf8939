// Threshold's jail beside a peer's: @anthropic-ai/sandbox-runtime (its default Linux configuration,
// bubblewrap + socat + ripgrep) wrapping, spawning and cleaning up after `true`, in-process, in the same
// rounds as Threshold's jailed call and an unjailed spawn, in rotating order. The figure that matters is
// each one's overhead over the unjailed spawn, and their ratio (goal: ours at most a third of its).
//
// The peer is not a dependency of the product (17 MB with its vendored binaries, and zod 3 beside our
// zod 4): it is installed on demand, pinned by test/bench/peer/package-lock.json, into a cache folder
// outside the repository ($THRESHOLD_BENCH_CACHE, else ~/.cache/threshold-bench).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { Executor } from '../../executor/run';
import { percentile, atMost, type BenchSuite } from './harness';

const PEER = join(import.meta.dirname, 'peer');

/** The peer's package, installed from its lock file into the cache (once per lock file). */
function installPeer(): { ok: true; dir: string } | { ok: false; why: string } {
  const lock = readFileSync(join(PEER, 'package-lock.json'));
  const dir = join(process.env['THRESHOLD_BENCH_CACHE'] ?? join(homedir(), '.cache', 'threshold-bench'), `peer-${createHash('sha256').update(lock).digest('hex').slice(0, 12)}`);
  const entry = join(dir, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'dist', 'index.js');
  if (existsSync(entry)) return { ok: true, dir };
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(PEER, 'package.json'), join(dir, 'package.json'));
  copyFileSync(join(PEER, 'package-lock.json'), join(dir, 'package-lock.json'));
  process.stderr.write(`  installing @anthropic-ai/sandbox-runtime into ${dir} (npm ci)…\n`);
  const r = spawnSync('npm', ['ci', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0 || !existsSync(entry)) return { ok: false, why: `npm ci failed: ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-1)[0]}` };
  return { ok: true, dir };
}

interface SandboxManagerLike {
  initialize(config: unknown): Promise<void>;
  wrapWithSandbox(command: string): Promise<string>;
  cleanupAfterCommand(): void;
  reset(): Promise<void>;
}

/** Runs a command line to its end with stdout and stderr piped, as both jails' callers do. */
function run(file: string, args: string[], shell = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const c = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], shell });
    c.stdout.resume();
    c.stderr.resume();
    c.on('error', reject);
    c.on('close', (code) => (code === 0 ? resolve(0) : reject(new Error(`${file} exited ${code}`))));
  });
}

export const suites: BenchSuite[] = [
  {
    name: 'peer',
    async run(report) {
      const peer = installPeer();
      if (!peer.ok) {
        report({ name: '@anthropic-ai/sandbox-runtime not measured', value: NaN, unit: '', note: peer.why });
        return;
      }
      const { SandboxManager } = (await import(pathToFileURL(join(peer.dir, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'dist', 'index.js')).href)) as { SandboxManager: SandboxManagerLike };
      // One small project, the same for both: a repository with hooks to protect, a few files.
      const ws = mkdtempSync(join(tmpdir(), 'threshold-bench-peer-'));
      spawnSync('git', ['init', '-q', ws]);
      for (const f of ['README.md', 'index.js', 'package.json']) writeFileSync(join(ws, f), `// ${f}\n`);
      const cwd = process.cwd();
      // The peer reads its working folder (ripgrep looks there for the files it must protect).
      process.chdir(ws);
      // Its CLI's built-in defaults: no hosts, no extra reads denied or writes allowed.
      await SandboxManager.initialize({ network: { allowedDomains: [], deniedDomains: [] }, filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] } });
      const ex = new Executor({ home: homedir(), appDirs: [] });
      const req = { argv: ['true'], cwd: ws, env: process.env, jail: { class: 'write' as const, workspace: ws } };
      const measures: Record<'ours' | 'peer' | 'plain' | 'plainShell', () => Promise<unknown>> = {
        ours: async () => {
          const r = await ex.run(req);
          if (r.exitCode !== 0) throw new Error(`the jailed call failed: ${r.stderr.text}`);
        },
        peer: async () => {
          const wrapped = await SandboxManager.wrapWithSandbox('true');
          try {
            await run(wrapped, [], true);
          } finally {
            SandboxManager.cleanupAfterCommand();
          }
        },
        plain: () => run('true', []),
        // The peer's command is a shell line: the same unjailed through a shell, to show the shell's part.
        plainShell: () => run('true', [], true),
      };
      const names = Object.keys(measures) as (keyof typeof measures)[];
      const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<keyof typeof measures, number[]>;
      // Calls come after the model's turn: each sample starts after a pause, so what one leaves behind
      // (a namespace torn down, the next launcher started) does not land on the next.
      const settle = () => new Promise((r) => setTimeout(r, 25));
      try {
        for (let i = 0; i < 8; i++) for (const n of names) await measures[n]();
        const rounds = Number(process.env['THRESHOLD_BENCH_PEER_ROUNDS'] ?? 80);
        for (let i = 0; i < rounds; i++) {
          // Rotating order: no measure always follows the same one.
          for (let k = 0; k < names.length; k++) {
            const n = names[(i + k) % names.length]!;
            await settle();
            const t = performance.now();
            await measures[n]();
            samples[n].push(performance.now() - t);
          }
        }
      } finally {
        ex.dispose();
        await SandboxManager.reset();
        process.chdir(cwd);
        rmSync(ws, { recursive: true, force: true });
      }
      for (const v of Object.values(samples)) v.sort((a, b) => a - b);
      const med = (n: keyof typeof samples) => percentile(samples[n], 50);
      const p99 = (n: keyof typeof samples) => percentile(samples[n], 99);
      const rounds = samples.ours.length;
      const rows: [keyof typeof samples, string][] = [
        ['plain', `unjailed spawn of \`true\` (Node, piped output) (${rounds} rounds)`],
        ['plainShell', 'the same through /bin/sh (how the peer runs its line)'],
        ['ours', "Threshold's jailed call (write class: plan, launcher, bwrap, seccomp, limits, teardown)"],
        ['peer', 'sandbox-runtime 0.0.78, default Linux config (wrap + spawn + cleanup)'],
      ];
      for (const [n, label] of rows) {
        report({ name: `${label}, median`, value: med(n), unit: 'ms' });
        report({ name: `${label}, p99`, value: p99(n), unit: 'ms' });
      }
      const oursOver = med('ours') - med('plain');
      const peerOver = med('peer') - med('plain');
      report({ name: 'our overhead over an unjailed spawn (median − median)', value: oursOver, unit: 'ms' });
      report({ name: "sandbox-runtime's overhead over an unjailed spawn (median − median)", value: peerOver, unit: 'ms' });
      report({ name: 'our overhead / its overhead (medians)', value: oursOver / peerOver, unit: 'x', ...atMost(oursOver / peerOver, 0.333) });
      report({ name: 'our overhead / its overhead (p99s)', value: (p99('ours') - p99('plain')) / (p99('peer') - p99('plain')), unit: 'x' });
      report({ name: 'jailed call / sandbox-runtime call (medians)', value: med('ours') / med('peer'), unit: 'x' });
    },
  },
];
