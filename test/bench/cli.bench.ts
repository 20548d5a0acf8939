// The `threshold` command's cold start, side by side with `node -e 0` (Node's own floor) in one run,
// interleaved so that load on the machine hits all of them alike; and the daemon's resident memory idle.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCliBundle } from '../../bin/cli-bundle.js';
import { ROOT } from '../support/cli';
import { startDaemon } from '../support/daemon';
import { atMost, percentile, type BenchSuite } from './harness';

const RUNS = 30;

/** Wall time of one process from spawn to exit, in ms. */
function timed(argv: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, argv, { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - t));
  });
}

/** Resident memory of a process in MB (Linux /proc; `ps` elsewhere). */
async function rssMb(pid: number): Promise<number> {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (kb) return Number(kb) / 1024;
  } catch {
    // not Linux
  }
  const out = await new Promise<string>((resolve) => {
    let text = '';
    const ps = spawn('ps', ['-o', 'rss=', '-p', String(pid)]);
    ps.stdout.on('data', (c: Buffer) => (text += c.toString()));
    ps.once('close', () => resolve(text));
  });
  return Number(out.trim()) / 1024;
}

export const suites: BenchSuite[] = [
  {
    name: 'cli cold start',
    async run(report) {
      await ensureCliBundle();
      const dataDir = mkdtempSync(join(tmpdir(), 'threshold-bench-cli-'));
      const cli = join(ROOT, 'bin', 'threshold.js');
      // A real daemon (agent and web UI on, as `threshold serve` starts by default) for `ctl pending`.
      const daemon = await startDaemon(dataDir, [], { THRESHOLD_CONFIG_DIR: join(dataDir, 'no-config') });
      try {
        const commands: [string, string[]][] = [
          ['node -e 0', ['-e', '0']],
          ['threshold classify ls', [cli, 'classify', 'ls']],
          ['threshold ctl pending', [cli, 'ctl', '--data-dir', dataDir, 'pending']],
        ];
        const samples = new Map(commands.map(([name]) => [name, [] as number[]]));
        for (let i = 0; i < 3; i++) for (const [, argv] of commands) await timed(argv, ROOT);
        for (let i = 0; i < RUNS; i++) for (const [name, argv] of commands) samples.get(name)!.push(await timed(argv, ROOT));
        for (const s of samples.values()) s.sort((a, b) => a - b);
        const median = (name: string) => percentile(samples.get(name)!, 50);
        for (const [name] of commands) {
          const s = samples.get(name)!;
          const isCli = name.startsWith('threshold');
          report({ name: `${name}, median`, value: percentile(s, 50), unit: 'ms', ...(isCli ? atMost(percentile(s, 50), 300) : {}) });
          report({ name: `${name}, p99`, value: percentile(s, 99), unit: 'ms' });
          if (isCli) report({ name: `${name} ÷ node -e 0 (medians)`, value: median(name) / median('node -e 0'), unit: '×' });
        }
        // Idle: the start-up work done, no session running, nobody connected.
        await new Promise((r) => setTimeout(r, 3000));
        report({ name: 'daemon (serve, agent and web UI) resident memory, idle', value: await rssMb(daemon.child.pid!), unit: 'MB' });
      } finally {
        await daemon.kill('SIGTERM');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  },
];
