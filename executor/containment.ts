// Containing how many processes (and how large files, how much CPU) a command may use. RLIMIT_NPROC binds
// every user but root (the kernel exempts root's processes entirely), so as root a pids cgroup holds the
// process limit; as another user, RLIMIT_NPROC does, counted over all of that user's processes.
//
// One small bash launcher applies it all before it becomes the jail: it closes every inherited descriptor
// but stdio, opens the seccomp program as fd 3, moves itself into the cgroup, sets the limits, then execs
// bwrap. Nothing forks before the limits apply.
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { countProcessesOf, signal } from './processes';

const CGROUP_V1 = '/sys/fs/cgroup/pids';
const CGROUP_V2 = '/sys/fs/cgroup';

export interface Containment {
  /** The launcher's argv; the jail's command line follows it. */
  launcher: string[];
  /** Kills whatever is left in the cgroup and removes it. */
  cleanup(): void;
}

export interface LaunchLimits {
  maxProcesses: number;
  fileBytes: number;
  cpuSeconds: number;
  /** The seccomp program to give bwrap as fd 3, if any. */
  seccompFile: string | null;
}

export type ContainmentPlan = { ok: true; kind: 'cgroup' | 'rlimit'; make(l: LaunchLimits): Containment } | { ok: false; cause: string; fix: string };

const LAUNCHER = [
  'set -e',
  // Descriptors the daemon itself inherited without close-on-exec (a socket from whoever started it)
  // would pass into the jail: only stdin, stdout and stderr go on.
  'for f in /proc/self/fd/*; do n=${f##*/}; case $n in 0|1|2) ;; *) eval "exec $n>&-" 2>/dev/null || true ;; esac; done',
  '[ -n "$1" ] && exec 3<"$1"',
  '[ -n "$2" ] && echo $$ > "$2/cgroup.procs"',
  'ulimit -u "$3"; ulimit -f "$4"; ulimit -t "$5"; ulimit -c 0',
  'shift 5',
  'exec "$@"',
].join('\n');

function launcher(l: LaunchLimits, cgroupDir: string, nproc: number): string[] {
  // bash's ulimit -f counts 1024-byte blocks.
  return ['/bin/bash', '-c', LAUNCHER, 'threshold-jail', l.seccompFile ?? '', cgroupDir, String(nproc), String(Math.max(1, Math.floor(l.fileBytes / 1024))), String(l.cpuSeconds)];
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function cgroupBase(): string | null {
  if (existsSync(join(CGROUP_V1, 'cgroup.procs')) && writable(CGROUP_V1)) return CGROUP_V1;
  try {
    const controllers = readFileSync(join(CGROUP_V2, 'cgroup.controllers'), 'utf8');
    if (controllers.split(/\s+/).includes('pids') && writable(CGROUP_V2)) return CGROUP_V2;
  } catch {
    // not cgroup v2
  }
  return null;
}

/** RLIMIT_NPROC only (what a regular user gets); as root it does not bind, so this is for measuring. */
export function rlimitOnly(): ContainmentPlan {
  const uid = process.getuid?.() ?? 0;
  return { ok: true, kind: 'rlimit', make: (l) => ({ launcher: launcher(l, '', countProcessesOf(uid) + l.maxProcesses), cleanup() {} }) };
}

/**
 * Kills what is left in a run's cgroup and removes it. The kernel releases a cgroup a moment after its
 * last process is reaped, so removal is retried in the background instead of delaying the result.
 */
function removeCgroup(dir: string, attempts: number): void {
  let pids: number[];
  try {
    pids = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return;
  }
  if (pids.length) signal(pids, 'SIGKILL');
  try {
    rmdirSync(dir);
  } catch {
    if (attempts > 0) setTimeout(() => removeCgroup(dir, attempts - 1), 20).unref();
  }
}

/** Who made a run cgroup: the daemon's pid and its start time (so a reused pid is not mistaken for it). */
export interface CgroupOwner {
  pid: number;
  /** Clock ticks since boot at which the process started (/proc/<pid>/stat, field 22). */
  start: string;
}

/** When a process started, or null when it is not running. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields count from after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export function currentOwner(): CgroupOwner {
  return { pid: process.pid, start: processStart(process.pid) ?? '0' };
}

/**
 * Each daemon keeps its runs in a folder named for it, owner-<pid>-<start>, under the shared parent:
 * another daemon can tell whether the owner still lives, and an older version (which swept every
 * run-* directly under the parent) never reaches into it.
 */
export function ownerCgroupName(owner: CgroupOwner): string {
  return `owner-${owner.pid}-${owner.start}`;
}

const OWNER_DIR = /^owner-(\d+)-(\d+)$/;

function removeOwnerDir(dir: string, attempts: number): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith('run-'));
  } catch {
    return;
  }
  for (const n of names) removeCgroup(join(dir, n), 0);
  try {
    rmdirSync(dir);
  } catch {
    if (attempts > 0) setTimeout(() => removeOwnerDir(dir, attempts - 1), 20).unref();
  }
}

/**
 * The run cgroups of daemons that have died (a crash before cleanup): emptied and removed. Another
 * running daemon's runs are left alone, whoever started first; a reused pid with another start time is
 * not its owner. Run cgroups from before owners were recorded are only removed when already empty.
 */
export function sweepStale(parent: string): string[] {
  const swept: string[] = [];
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return swept; // nothing there yet
  }
  for (const name of names) {
    const dir = join(parent, name);
    const owner = OWNER_DIR.exec(name);
    if (owner) {
      if (processStart(Number(owner[1])) === owner[2]) continue; // its daemon is alive
      removeOwnerDir(dir, 50);
      swept.push(dir);
    } else if (name.startsWith('run-')) {
      try {
        rmdirSync(dir);
        swept.push(dir);
      } catch {
        // still in use, or not ours to judge
      }
    }
  }
  return swept;
}

/** Makes a cgroup folder; on cgroup v2, hands the pids controller down to it first. */
function makeCgroupDir(parent: string, dir: string): void {
  if (existsSync(join(parent, 'cgroup.subtree_control'))) {
    try {
      writeFileSync(join(parent, 'cgroup.subtree_control'), '+pids');
    } catch {
      // already delegated, or not ours to change: pids.max below says whether it worked
    }
  }
  mkdirSync(dir, { recursive: true });
}

/** `owner` and `cgroupParent` are for tests: another daemon's identity, a parent folder of their own. */
export function planContainment(o: { owner?: CgroupOwner; cgroupParent?: string } = {}): ContainmentPlan {
  const uid = process.getuid?.() ?? 0;
  if (!existsSync('/bin/bash')) return { ok: false, cause: 'bash is not installed at /bin/bash, so limits cannot be applied', fix: 'install bash' };
  if (uid !== 0) {
    return { ok: true, kind: 'rlimit', make: (l) => ({ launcher: launcher(l, '', countProcessesOf(uid) + l.maxProcesses), cleanup() {} }) };
  }
  const base = cgroupBase();
  if (!base) {
    return { ok: false, cause: 'running as root, where process limits do not apply, and no writable pids cgroup was found to contain a fork bomb', fix: 'run Threshold as a regular user, or mount the pids cgroup controller (/sys/fs/cgroup/pids)' };
  }
  const parent = o.cgroupParent ?? join(base, 'threshold');
  const owner = o.owner ?? currentOwner();
  sweepStale(parent);
  return {
    ok: true,
    kind: 'cgroup',
    make(l) {
      const mine = join(parent, ownerCgroupName(owner));
      if (!existsSync(parent)) makeCgroupDir(base, parent);
      if (!existsSync(mine)) makeCgroupDir(parent, mine);
      const dir = join(mine, `run-${randomBytes(6).toString('hex')}`);
      makeCgroupDir(mine, dir);
      writeFileSync(join(dir, 'pids.max'), String(l.maxProcesses));
      return {
        launcher: launcher(l, dir, l.maxProcesses),
        cleanup() {
          removeCgroup(dir, 50);
        },
      };
    },
  };
}
