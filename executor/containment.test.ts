// Run cgroups (root only): a daemon that starts sweeps the run cgroups of dead owners, and never those
// of another daemon that is still running.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentOwner, endedBySignal, launcherArgv, launchRequest, memoryFiles, ownerCgroupName, planContainment, processStart, scopeArgv, sweepStale, userContainment, type CgroupOwner, type ScopeRunner } from './containment';

const probe = planContainment();
const asRoot = probe.ok && probe.kind === 'cgroup';
const started: number[] = [];

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}
afterAll(() => started.forEach(signal));

/** A process that has exited: its pid and start time name a dead owner. */
function deadOwner(): CgroupOwner {
  const r = spawnSync('/bin/sh', ['-c', 'echo $$; cut -d" " -f22 /proc/$$/stat'], { encoding: 'utf8' });
  const [pid, start] = r.stdout.trim().split('\n');
  return { pid: Number(pid), start: start! };
}

/** A run cgroup as a daemon would make it (in its owner's folder), with a sleeping process in it. */
function runCgroup(parent: string, owner: CgroupOwner): { dir: string; ownerDir: string; pid: number } {
  const ownerDir = join(parent, ownerCgroupName(owner));
  const dir = join(ownerDir, `run-${Math.random().toString(16).slice(2, 10)}`);
  mkdirSync(dir, { recursive: true });
  const child = spawn('sleep', ['60'], { stdio: 'ignore', detached: true });
  started.push(child.pid!);
  writeFileSync(join(dir, 'cgroup.procs'), String(child.pid));
  return { dir, ownerDir, pid: child.pid! };
}

const alive = (pid: number) => processStart(pid) !== null && !/\) Z/.test(String(spawnSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' }).stdout));

describe('processStart', () => {
  it('names when this process started, and nothing for a process that is gone', () => {
    expect({ self: /^\d+$/.test(processStart(process.pid) ?? ''), gone: processStart(deadOwner().pid) }).toEqual({ self: true, gone: null });
  });
});

describe.runIf(asRoot)('run cgroups of two owners (as root)', () => {
  // A parent folder of the test's own, so other daemons on this machine neither see nor disturb it.
  const parent = (() => {
    for (const base of ['/sys/fs/cgroup/pids', '/sys/fs/cgroup']) if (existsSync(join(base, 'cgroup.procs'))) return join(base, `threshold-test-${process.pid}`);
    return `/sys/fs/cgroup/threshold-test-${process.pid}`;
  })();
  afterAll(async () => {
    for (const pid of started) signal(pid);
    await new Promise((r) => setTimeout(r, 200));
    const remove = (dir: string) => {
      for (const n of readdirSync(dir)) if (n.startsWith('run-') || n.startsWith('owner-')) remove(join(dir, n));
      rmdirSync(dir);
    };
    if (existsSync(parent)) remove(parent);
  });

  it("a second daemon starting leaves the first one's running command alone", () => {
    const first = runCgroup(parent, currentOwner());
    // The second owner is another daemon: planning its containment sweeps at start.
    const second = planContainment({ owner: { pid: process.pid + 1, start: '1' }, cgroupParent: parent });
    expect({ ok: second.ok, cgroup: existsSync(first.dir), running: alive(first.pid) }).toEqual({ ok: true, cgroup: true, running: true });
    // Its own runs are named for it, beside the first daemon's.
    const run = second.ok ? second.make({ maxProcesses: 8, fileBytes: 1 << 20, cpuSeconds: 5, memoryBytes: 64 << 20, seccompFile: null }) : null;
    expect(readdirSync(join(parent, ownerCgroupName({ pid: process.pid + 1, start: '1' }))).filter((n) => n.startsWith('run-')).length).toBe(1);
    run?.cleanup();
  });

  it('the cgroups of a dead owner are emptied and removed', async () => {
    const orphan = runCgroup(parent, deadOwner());
    const mine = runCgroup(parent, currentOwner());
    const swept = sweepStale(parent);
    await new Promise((r) => setTimeout(r, 200));
    expect({ swept: swept.includes(orphan.ownerDir), orphanRunning: alive(orphan.pid), mineKept: existsSync(mine.dir), mineRunning: alive(mine.pid) }).toEqual({ swept: true, orphanRunning: false, mineKept: true, mineRunning: true });
  });

  it('a reused pid with another start time is not the owner', () => {
    const impostor = runCgroup(parent, { pid: process.pid, start: String(Number(currentOwner().start) + 12345) });
    expect(sweepStale(parent)).toContain(impostor.ownerDir);
  });

  it('a run cgroup of an older version (directly under the parent) is removed only when empty', () => {
    const legacy = join(parent, 'run-0123456789ab');
    mkdirSync(legacy);
    const busy = join(parent, 'run-ba9876543210');
    mkdirSync(busy);
    const child = spawn('sleep', ['60'], { stdio: 'ignore', detached: true });
    started.push(child.pid!);
    writeFileSync(join(busy, 'cgroup.procs'), String(child.pid));
    const swept = sweepStale(parent);
    expect({ legacy: swept.includes(legacy), busy: swept.includes(busy), running: alive(child.pid!) }).toEqual({ legacy: true, busy: false, running: true });
  });
});

describe('the launcher and its request, as data', () => {
  const l = { maxProcesses: 64, fileBytes: 10 * 1024 * 1024 + 5, cpuSeconds: 30, memoryBytes: 512 * 1024 * 1024, seccompFile: '/s/filter.bpf' };
  it.each([
    { name: 'a spare waits for its request in a file', argv: launcherArgv(['/cg/pids/run-1', '/cg/memory/run-1'], { file: '/s/request-1' }).slice(5), want: ['threshold-jail', '/cg/pids/run-1', '/cg/memory/run-1', 'file', '/s/request-1'] },
    { name: 'one cgroup holding both controllers (v2) is joined once', argv: launcherArgv(['/cg/run-1', '/cg/run-1'], { file: '/s/request-1' }).slice(5), want: ['threshold-jail', '/cg/run-1', '', 'file', '/s/request-1'] },
    { name: 'a terminal run carries its request in argv', argv: launcherArgv(['', ''], ['a', 'b']).slice(5), want: ['threshold-jail', '', '', 'args', 'a', 'b'] },
    { name: 'the request: seccomp, processes, 1 KiB blocks, CPU seconds, no address-space limit, no placeholder descriptors, argv', argv: launchRequest(l, 64, false, ['bwrap', '--', 'true']), want: ['/s/filter.bpf', '64', '10240', '30', '', '0', 'bwrap', '--', 'true'] },
    { name: 'the RLIMIT_AS fallback adds the memory limit in KiB', argv: launchRequest({ ...l, seccompFile: null }, 70, true, ['x']), want: ['', '70', '10240', '30', '524288', '0', 'x'] },
    { name: 'the placeholder descriptors bwrap copies empty files from', argv: launchRequest({ ...l, placeholderFds: 3 }, 64, false, ['x']), want: ['/s/filter.bpf', '64', '10240', '30', '', '3', 'x'] },
    { name: "a regular user's scope: its own unit, the memory limit and no swap", argv: scopeArgv('threshold-run-ab', 1024), want: ['systemd-run', '--user', '--scope', '--quiet', '--unit=threshold-run-ab', '-p', 'MemoryMax=1024', '-p', 'MemorySwapMax=0', '--'] },
  ])('$name', ({ argv, want }) => {
    expect(argv).toEqual(want);
  });

  it('the launcher never reads the user shell set-up', () => {
    expect(launcherArgv(['', ''], { file: '/s/request-1' }).slice(0, 4)).toEqual(['/bin/bash', '--norc', '--noprofile', '-c']);
  });

  it.each([
    { exit: { code: 137, signal: null }, want: true },
    { exit: { code: 143, signal: null }, want: true },
    { exit: { code: null, signal: 'SIGKILL' }, want: true },
    { exit: { code: null, signal: 'SIGTERM' }, want: true },
    { exit: { code: 1, signal: null }, want: false },
    { exit: { code: 128, signal: null }, want: false },
    { exit: { code: 0, signal: null }, want: false },
  ])('a run that ended with $exit.code / $exit.signal ended by a signal: $want', ({ exit, want }) => {
    expect(endedBySignal(exit)).toBe(want);
  });

  it.each([
    { name: 'v2: memory.max, no swap, oom_kill from memory.events', files: { 'memory.max': 'max', 'memory.swap.max': 'max', 'memory.events': 'low 0\nhigh 0\nmax 4\noom 1\noom_kill 1\n' }, want: { 'memory.max': '1048576', 'memory.swap.max': '0', kills: 1 } },
    { name: 'v1: limit_in_bytes and memsw, oom_kill from memory.oom_control', files: { 'memory.limit_in_bytes': '9223372036854771712', 'memory.memsw.limit_in_bytes': '9223372036854771712', 'memory.oom_control': 'oom_kill_disable 0\nunder_oom 0\noom_kill 0\n' }, want: { 'memory.limit_in_bytes': '1048576', 'memory.memsw.limit_in_bytes': '1048576', kills: 0 } },
  ])('memory files, $name', ({ files, want }) => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-memcg-'));
    for (const [f, v] of Object.entries(files)) writeFileSync(join(dir, f), v);
    const m = memoryFiles(dir);
    m.limit(1024 * 1024);
    const written = Object.fromEntries(Object.keys(want).filter((k) => k !== 'kills').map((k) => [k, readFileSync(join(dir, k), 'utf8')]));
    expect({ ...written, kills: m.oomKills() }).toEqual(want);
  });
});

describe("a regular user's containment with a systemd scope (systemd faked: the OS service is the boundary)", () => {
  const asked: string[] = [];
  const scope: ScopeRunner = {
    argv: (unit, bytes) => ['systemd-run', `--unit=${unit}`, `MemoryMax=${bytes}`, '--'],
    env: { XDG_RUNTIME_DIR: '/run/user/1000' },
    outOfMemory: (unit, exit) => (asked.push(unit), endedBySignal(exit)),
  };
  const plan = userContainment(1000, scope);
  const l = { maxProcesses: 10, fileBytes: 4096, cpuSeconds: 5, memoryBytes: 1 << 30, seccompFile: null };
  const c = plan.ok ? plan.make(l) : null;
  it('runs the launcher inside its own scope, reaching the session bus, with no address-space limit', () => {
    const argv = c!.launcher({ file: '/s/request-1' });
    expect({ memory: plan.ok && plan.memory, prefix: argv.slice(0, 3), env: c!.env, vmem: c!.request(l, ['x'])[4], launcher: argv[4] }).toEqual({
      memory: 'systemd-scope',
      prefix: ['systemd-run', expect.stringMatching(/^--unit=threshold-run-[0-9a-f]{12}$/), `MemoryMax=${1 << 30}`],
      env: { XDG_RUNTIME_DIR: '/run/user/1000' },
      vmem: '',
      launcher: '/bin/bash',
    });
  });
  it('a scope cannot change its limit: another memory limit needs a launcher of its own', () => {
    expect({ same: c!.limit(l), other: c!.limit({ ...l, memoryBytes: 1 << 20 }) }).toEqual({ same: true, other: false });
  });
  it("asks the scope's unit whether the OOM killer ended the run", () => {
    expect({ killed: c!.outOfMemory({ code: 137, signal: null }), unit: asked[0] === c!.launcher({ file: '/s/request-1' })[1]!.slice('--unit='.length) }).toEqual({ killed: true, unit: true });
  });
});
