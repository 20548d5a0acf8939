// Run cgroups (root only): a daemon that starts sweeps the run cgroups of dead owners, and never those
// of another daemon that is still running.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentOwner, ownerCgroupName, planContainment, processStart, sweepStale, type CgroupOwner } from './containment';

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
