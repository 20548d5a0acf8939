// The jailed executor: jail overhead, memory under an output flood, how fast a cancelled tree is gone,
// and incremental checkpoints of a large workspace.
import { spawn, execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ShadowGit } from '../../executor/checkpoints';
import { rlimitOnly } from '../../executor/containment';
import { Executor } from '../../executor/run';
import { descendants } from '../../executor/processes';
import { atMost, percentile, type BenchSuite } from './harness';

function bareBwrap(ws: string): Promise<void> {
  return new Promise((resolve) => {
    const c = spawn('bwrap', ['--unshare-user', '--unshare-pid', '--unshare-net', '--die-with-parent', '--ro-bind', '/', '/', '--bind', ws, ws, '--', 'true'], { stdio: 'ignore', detached: true });
    c.on('close', () => resolve());
  });
}

function plainTrue(): Promise<number> {
  return new Promise((resolve) => {
    const t = performance.now();
    const c = spawn('true', [], { stdio: 'ignore', detached: true });
    c.on('close', () => resolve(performance.now() - t));
  });
}

export const suites: BenchSuite[] = [
  {
    name: 'executor',
    async run(report) {
      const ws = mkdtempSync(join(tmpdir(), 'threshold-bench-ws-'));
      const ex = new Executor({ home: homedir(), appDirs: [] });
      const req = { argv: ['true'], cwd: ws, env: process.env, jail: { class: 'write' as const, workspace: ws } };
      // Side by side: the same executor (same capture, limits bookkeeping, events), jail on and off.
      const unjailed = new Executor({ home: homedir(), appDirs: [], unjailed: true, probe: { ok: false, cause: 'benchmark baseline', fix: '-' } });
      const jailed: number[] = [];
      const plain: number[] = [];
      const raw: number[] = [];
      for (let i = 0; i < 10; i++) {
        await ex.run(req);
        await unjailed.run(req);
      }
      for (let i = 0; i < 60; i++) {
        let t = performance.now();
        await ex.run(req);
        jailed.push(performance.now() - t);
        t = performance.now();
        await unjailed.run(req);
        plain.push(performance.now() - t);
        raw.push(await plainTrue());
      }
      unjailed.dispose();
      raw.sort((a, b) => a - b);
      report({ name: 'spawn `true` from Node with no capture at all, median', value: percentile(raw, 50), unit: 'ms' });
      // The same jail with only RLIMIT_NPROC (what a regular user gets): as root the per-run pids cgroup
      // is needed, and moving a process into a v1 cgroup costs several ms.
      const rl = new Executor({ home: homedir(), appDirs: [], containment: rlimitOnly() });
      const rlimit: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < 40; i++) {
        let t = performance.now();
        await rl.run(req);
        rlimit.push(performance.now() - t);
        t = performance.now();
        await bareBwrap(ws);
        bare.push(performance.now() - t);
      }
      rl.dispose();
      rlimit.sort((a, b) => a - b);
      bare.sort((a, b) => a - b);
      jailed.sort((a, b) => a - b);
      plain.sort((a, b) => a - b);
      const jm = percentile(jailed, 50);
      const pm = percentile(plain, 50);
      report({ name: 'spawn `true` jailed with RLIMIT_NPROC only (a regular user), median', value: percentile(rlimit, 50), unit: 'ms' });
      report({ name: 'spawn `true` under bare bwrap (namespaces + ro root only), median', value: percentile(bare, 50), unit: 'ms' });
      report({ name: 'spawn `true` jailed (bwrap + limits + seccomp), median', value: jm, unit: 'ms' });
      report({ name: 'spawn `true` through the executor unjailed, median', value: pm, unit: 'ms' });
      report({ name: 'jail overhead (median jailed − median unjailed)', value: jm - pm, unit: 'ms', ...atMost(jm - pm, 15) });
      report({ name: 'jailed / unjailed', value: jm / pm, unit: 'x' });
      report({ name: 'spawn `true` jailed, p99', value: percentile(jailed, 99), unit: 'ms' });

      // 2 GB of output through the caps: memory must not follow it.
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const t = performance.now();
      const flood = await ex.run({ ...req, argv: ['bash', '-c', 'head -c 2G /dev/zero'], limits: { timeoutMs: 120_000 } });
      clearInterval(sampler);
      const seconds = (performance.now() - t) / 1000;
      if (flood.stdout.bytes < 2 * 1024 ** 3) throw new Error(`flood delivered only ${flood.stdout.bytes} bytes`);
      report({ name: '2 GB output flood: peak RSS growth', value: (peak - before) / 1024 / 1024, unit: 'MB', ...atMost((peak - before) / 1024 / 1024, 64) });
      report({ name: '2 GB output flood: throughput', value: 2048 / seconds, unit: 'MB/s' });

      // Cancel: time until the whole tree (including setsid and double-forked children) is gone.
      const grace = 2000;
      const gone: number[] = [];
      let survivors = 0;
      for (let i = 0; i < 5; i++) {
        const c = new AbortController();
        const run = ex.run({ ...req, argv: ['bash', '-c', 'trap "" TERM; (setsid sleep 77771 &); (sleep 77772 &); sleep 77773'], limits: { graceMs: grace } }, c.signal);
        await new Promise((r) => setTimeout(r, 300));
        const rootPid = Number(execSync("pgrep -f '^/usr/bin/bwrap .*sleep 77773' | head -1 || true").toString().trim()) || 0;
        const t0 = performance.now();
        c.abort();
        await run;
        while (rootPid && (descendants(rootPid).length > 0 || execSync("pgrep -f '[s]leep 7777' || true").toString().trim())) await new Promise((r) => setTimeout(r, 5));
        gone.push(performance.now() - t0);
        survivors += execSync("pgrep -c -f '[s]leep 7777' || true").toString().trim() === '0' ? 0 : 1;
      }
      gone.sort((a, b) => a - b);
      report({ name: `cancel → whole tree gone (SIGTERM ignored, grace ${grace} ms), median`, value: percentile(gone, 50), unit: 'ms', ...atMost(percentile(gone, 50), grace + 200) });
      report({ name: 'cancel → whole tree gone, max of 5', value: gone[gone.length - 1]!, unit: 'ms' });
      report({ name: 'surviving processes after cancel', value: survivors, unit: 'runs', ...atMost(survivors, 0) });
      ex.dispose();
      rmSync(ws, { recursive: true, force: true });
    },
  },
  {
    name: 'checkpoints',
    async run(report) {
      const ws = mkdtempSync(join(tmpdir(), 'threshold-bench-cp-'));
      const data = mkdtempSync(join(tmpdir(), 'threshold-bench-cpdata-'));
      for (let d = 0; d < 100; d++) {
        mkdirSync(join(ws, `dir${d}`));
        for (let f = 0; f < 100; f++) writeFileSync(join(ws, `dir${d}`, `file${f}.ts`), `export const v${d}_${f} = ${d * f};\n`);
      }
      const g = new ShadowGit(ws, data);
      const first = await g.snapshot('first');
      report({ name: 'first checkpoint of a 10,000-file workspace', value: first.ms, unit: 'ms' });
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        writeFileSync(join(ws, `dir${i}`, 'file0.ts'), `export const changed = ${i};\n`);
        const t = performance.now();
        await g.snapshot(`incremental ${i}`);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      report({ name: 'incremental checkpoint, 10,000 files, one changed, median', value: percentile(times, 50), unit: 'ms', ...atMost(percentile(times, 50), 300) });
      report({ name: 'incremental checkpoint, p99', value: percentile(times, 99), unit: 'ms' });
      rmSync(ws, { recursive: true, force: true });
      rmSync(data, { recursive: true, force: true });
    },
  },
];
