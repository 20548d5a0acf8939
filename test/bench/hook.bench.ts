// `threshold hook claude-code` runs before every tool call of another agent: its whole process for an
// auto-allowed call (read the hook JSON, ask the running core, print the answer), side by side with
// `node -e 0` in the same rounds, interleaved so load on the machine hits both alike. Goal: median at
// most 1.5 × node -e 0's.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCliBundle } from '../../bin/cli-bundle.js';
import { ROOT } from '../support/cli';
import { startDaemon } from '../support/daemon';
import { atMost, percentile, type BenchSuite } from './harness';

const RUNS = 40;

/** Wall time of one process from spawn to exit, in ms, with `input` on its stdin. */
function timed(argv: string[], input: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['pipe', 'ignore', 'ignore'], env });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`${argv.join(' ')} exited ${code}`))));
    child.stdin.end(input);
  });
}

export const suites: BenchSuite[] = [
  {
    name: 'hook',
    async run(report) {
      await ensureCliBundle();
      const root = mkdtempSync(join(tmpdir(), 'threshold-bench-hook-'));
      const dataDir = join(root, 'data');
      const project = join(root, 'project');
      mkdirSync(dataDir, { mode: 0o700 });
      mkdirSync(project);
      const daemon = await startDaemon(dataDir, ['--no-agent', '--no-web', '--workspace', project], { THRESHOLD_CONFIG_DIR: join(dataDir, 'no-config') });
      const env = { ...process.env, CLAUDE_PROJECT_DIR: project };
      const call = JSON.stringify({ session_id: 'bench', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status --short', description: 'status' }, tool_use_id: 'toolu_bench' });
      const runs: [string, string[], string][] = [
        ['node -e 0', ['-e', '0'], ''],
        ['threshold hook claude-code (auto-allowed call)', [join(ROOT, 'bin', 'threshold.js'), 'hook', 'claude-code', '--data-dir', dataDir], call],
      ];
      try {
        const samples = new Map(runs.map(([name]) => [name, [] as number[]]));
        for (let i = 0; i < 3; i++) for (const [, argv, input] of runs) await timed(argv, input, env);
        for (let i = 0; i < RUNS; i++) for (const [name, argv, input] of runs) samples.get(name)!.push(await timed(argv, input, env));
        for (const s of samples.values()) s.sort((a, b) => a - b);
        const median = (name: string) => percentile(samples.get(name)!, 50);
        for (const [name] of runs) {
          report({ name: `${name}, median`, value: median(name), unit: 'ms' });
          report({ name: `${name}, p99`, value: percentile(samples.get(name)!, 99), unit: 'ms' });
        }
        const ratio = median(runs[1]![0]) / median('node -e 0');
        report({ name: 'threshold hook claude-code ÷ node -e 0 (medians)', value: ratio, unit: '×', ...atMost(ratio, 1.5) });
      } finally {
        await daemon.kill('SIGTERM');
        rmSync(root, { recursive: true, force: true });
      }
    },
  },
];
