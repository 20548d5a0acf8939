// The jailed executor: jail overhead, memory under an output flood, how fast a cancelled tree is gone,
// and incremental checkpoints of a large workspace.
import { spawn, spawnSync, execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ShadowGit } from '../../executor/checkpoints';
import { rlimitOnly } from '../../executor/containment';
import { Executor } from '../../executor/run';
import { descendants } from '../../executor/processes';
import { atMost, percentile, type BenchSuite } from './harness';

function bareBwrap(ws: string): Promise<number> {
  return timed(['bwrap', '--unshare-user', '--unshare-pid', '--unshare-net', '--die-with-parent', '--ro-bind', '/', '/', '--bind', ws, ws, '--', 'true']);
}

/** The wording of the baseline (`bwrap --unshare-all --ro-bind / / true`), and the same with the fresh /dev and /proc every usable jail needs. */
function unshareAll(ws: string, devProc: boolean): Promise<number> {
  return timed(['bwrap', '--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', ...(devProc ? ['--dev', '/dev', '--proc', '/proc'] : []), '--bind', ws, ws, '--', 'true']);
}

let nullFd = -1;
function devNull(): number {
  if (nullFd < 0) nullFd = openSync('/dev/null', 'r');
  return nullFd;
}

function plainTrue(): Promise<number> {
  return new Promise((resolve) => {
    const t = performance.now();
    const c = spawn('true', [], { stdio: 'ignore', detached: true });
    c.on('close', () => resolve(performance.now() - t));
  });
}

/** Runs argv to its end, as the jail's own bwrap would be run by the launcher (with its placeholder descriptors, fds 4, 5, … on /dev/null). */
function timed(argv: string[], placeholderFds = 0): Promise<number> {
  const fds: ('ignore' | number)[] = placeholderFds ? ['ignore', ...Array.from({ length: placeholderFds }, () => devNull())] : [];
  return new Promise((resolve) => {
    const t = performance.now();
    const c = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'ignore', ...fds], detached: true, cwd: '/', env: { PATH: '/usr/local/bin:/usr/bin:/bin' } });
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
      // Side by side in one loop: bare bwrap; bwrap with the jail's own command line (its mounts) and no
      // launcher, the floor for these protections; the jailed executor with the launcher started ahead
      // (the spare, as every call but the first finds it) and started on the spot; the same executor
      // unjailed; a bare spawn. Each jailed run is separated from the next by the other measures, as
      // calls are by the model's turns, so the spare is ready as it would be.
      const cold = new Executor({ home: homedir(), appDirs: [], spare: false });
      const unjailed = new Executor({ home: homedir(), appDirs: [], unjailed: true, probe: { ok: false, cause: 'benchmark baseline', fix: '-' } });
      const floorArgv = ex.commandLine(req).filter((a, i, all) => a !== '--seccomp' && all[i - 1] !== '--seccomp');
      const floorFds = ex.placeholderFds(req);
      // A command line bwrap refuses would look fast: the floor must run its command.
      const check = spawnSync(floorArgv[0]!, floorArgv.slice(1), { stdio: ['ignore', 'ignore', 'pipe', 'ignore', ...Array.from({ length: floorFds }, () => devNull())], encoding: 'utf8' });
      if (check.status !== 0) throw new Error(`the jail's own command line does not run: ${check.stderr}`);
      const samples = { jailed: [] as number[], cold: [] as number[], plain: [] as number[], raw: [] as number[], bare: [] as number[], floor: [] as number[], all: [] as number[], devProc: [] as number[] };
      const time = async (f: () => Promise<unknown>) => {
        const t = performance.now();
        await f();
        return performance.now() - t;
      };
      for (let i = 0; i < 10; i++) {
        await ex.run(req);
        await cold.run(req);
        await unjailed.run(req);
      }
      // Each sample starts after a pause, as calls come after the model's turn: what one run leaves
      // behind (the kernel tears a namespace down after its last process exits, and a jailed run
      // starts the next spare once its result is out) does not land on the next sample.
      const settle = () => new Promise((r) => setTimeout(r, 25));
      for (let i = 0; i < 80; i++) {
        samples.bare.push(await bareBwrap(ws));
        await settle();
        samples.jailed.push(await time(() => ex.run(req)));
        await settle();
        samples.floor.push(await timed(floorArgv, floorFds));
        await settle();
        samples.cold.push(await time(() => cold.run(req)));
        await settle();
        samples.plain.push(await time(() => unjailed.run(req)));
        await settle();
        samples.raw.push(await plainTrue());
        await settle();
        samples.all.push(await unshareAll(ws, false));
        await settle();
        samples.devProc.push(await unshareAll(ws, true));
        await settle();
      }
      unjailed.dispose();
      cold.dispose();
      // The same jail with only RLIMIT_NPROC and RLIMIT_AS (what a regular user without systemd gets).
      const rl = new Executor({ home: homedir(), appDirs: [], containment: rlimitOnly() });
      const rlimit: number[] = [];
      for (let i = 0; i < 40; i++) {
        rlimit.push(await time(() => rl.run(req)));
        await settle();
        await bareBwrap(ws);
        await settle();
      }
      rl.dispose();
      for (const v of [...Object.values(samples), rlimit]) v.sort((a, b) => a - b);
      const med = (v: number[]) => percentile(v, 50);
      const jm = med(samples.jailed);
      const pm = med(samples.plain);
      const bm = med(samples.bare);
      report({ name: 'spawn `true` from Node with no capture at all, median', value: med(samples.raw), unit: 'ms' });
      report({ name: 'spawn `true` under bare bwrap (namespaces + ro root only), median / p99', value: bm, unit: 'ms', note: `p99 ${percentile(samples.bare, 99).toFixed(1)} ms` });
      report({ name: "bwrap --unshare-all --ro-bind / / (the issue's wording of bare bwrap), median", value: med(samples.all), unit: 'ms' });
      report({ name: "the same with a fresh /dev and /proc (bubblewrap's own mounts every jail needs), median", value: med(samples.devProc), unit: 'ms' });
      report({ name: "bwrap with the jail's own command line, no launcher (the mounts' floor), median / p99", value: med(samples.floor), unit: 'ms', note: `p99 ${percentile(samples.floor, 99).toFixed(1)} ms; ${floorArgv.length} arguments` });
      report({ name: 'spawn `true` jailed (launcher started ahead, limits, memory cgroup, seccomp), median / p99', value: jm, unit: 'ms', note: `p99 ${percentile(samples.jailed, 99).toFixed(1)} ms` });
      report({ name: 'spawn `true` jailed, launcher started on the spot, median / p99', value: med(samples.cold), unit: 'ms', note: `p99 ${percentile(samples.cold, 99).toFixed(1)} ms` });
      report({ name: 'spawn `true` jailed with RLIMIT_NPROC and RLIMIT_AS only (a regular user), median', value: med(rlimit), unit: 'ms' });
      report({ name: 'spawn `true` through the executor unjailed, median', value: pm, unit: 'ms' });
      report({ name: 'jailed / bare bwrap', value: jm / bm, unit: 'x', ...atMost(jm / bm, 1.5) });
      report({ name: "jailed / bwrap with the jail's own command line", value: jm / med(samples.floor), unit: 'x' });
      report({ name: 'jailed / bwrap --unshare-all --ro-bind / /', value: jm / med(samples.all), unit: 'x' });
      report({ name: "bwrap with the jail's own command line / bare bwrap (the protections' mounts alone)", value: med(samples.floor) / bm, unit: 'x' });
      report({ name: 'launcher started on the spot / bare bwrap', value: med(samples.cold) / bm, unit: 'x' });
      report({ name: 'jail overhead (median jailed − median unjailed)', value: jm - pm, unit: 'ms', ...atMost(jm - pm, 15) });
      report({ name: 'jailed / unjailed', value: jm / pm, unit: 'x' });

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
