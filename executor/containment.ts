// Containing how many processes (and how large files, how much CPU) a command may use. RLIMIT_NPROC binds
// every user but root (the kernel exempts root's processes entirely), so as root a pids cgroup holds the
// process limit; as another user, RLIMIT_NPROC does, counted over all of that user's processes.
//
// One small bash launcher applies it all before it becomes the jail: it opens the seccomp program as fd 3,
// moves itself into the cgroup, sets the limits, then execs bwrap. Nothing forks before the limits apply.
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

/** Run cgroups left by a process that died before it could remove them. */
function sweepStale(parent: string): void {
  try {
    for (const name of readdirSync(parent)) if (name.startsWith('run-')) removeCgroup(join(parent, name), 0);
  } catch {
    // nothing there yet
  }
}

export function planContainment(): ContainmentPlan {
  const uid = process.getuid?.() ?? 0;
  if (!existsSync('/bin/bash')) return { ok: false, cause: 'bash is not installed at /bin/bash, so limits cannot be applied', fix: 'install bash' };
  if (uid !== 0) {
    return { ok: true, kind: 'rlimit', make: (l) => ({ launcher: launcher(l, '', countProcessesOf(uid) + l.maxProcesses), cleanup() {} }) };
  }
  const base = cgroupBase();
  if (!base) {
    return { ok: false, cause: 'running as root, where process limits do not apply, and no writable pids cgroup was found to contain a fork bomb', fix: 'run Threshold as a regular user, or mount the pids cgroup controller (/sys/fs/cgroup/pids)' };
  }
  const parent = join(base, 'threshold');
  sweepStale(parent);
  return {
    ok: true,
    kind: 'cgroup',
    make(l) {
      mkdirSync(parent, { recursive: true });
      const dir = join(parent, `run-${randomBytes(6).toString('hex')}`);
      mkdirSync(dir);
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
