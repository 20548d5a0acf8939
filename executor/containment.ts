// Containing how many processes a command may start. RLIMIT_NPROC binds every user but root (the kernel
// exempts root's user entirely), so as root a pids cgroup holds the limit instead; as another user,
// prlimit does, counted over all of that user's processes.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync, accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { countProcessesOf, signal } from './processes';

const CGROUP_V1 = '/sys/fs/cgroup/pids';
const CGROUP_V2 = '/sys/fs/cgroup';

export interface Containment {
  /** Words to put before the jail's command line. */
  prefix: string[];
  /** Kills whatever is left and removes the cgroup. */
  cleanup(): void;
}

export type ContainmentPlan = { ok: true; kind: 'cgroup' | 'prlimit'; make(maxProcesses: number, limits: { fileBytes: number; cpuSeconds: number }): Containment } | { ok: false; cause: string; fix: string };

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

function prlimitArgs(nproc: number, l: { fileBytes: number; cpuSeconds: number }): string[] {
  return ['prlimit', `--nproc=${nproc}`, `--fsize=${l.fileBytes}`, `--cpu=${l.cpuSeconds}`, '--core=0', '--'];
}

export function planContainment(): ContainmentPlan {
  const uid = process.getuid?.() ?? 0;
  if (!existsSync('/usr/bin/prlimit') && !existsSync('/bin/prlimit')) {
    return { ok: false, cause: 'prlimit (util-linux) is not installed, so process and file-size limits cannot be set', fix: 'install util-linux (it provides prlimit)' };
  }
  if (uid !== 0) {
    return {
      ok: true,
      kind: 'prlimit',
      make(maxProcesses, l) {
        return { prefix: prlimitArgs(countProcessesOf(uid) + maxProcesses, l), cleanup() {} };
      },
    };
  }
  const base = cgroupBase();
  if (!base) {
    return { ok: false, cause: 'running as root, where process limits do not apply, and no writable pids cgroup was found to contain a fork bomb', fix: 'run Threshold as a regular user, or mount the pids cgroup controller (/sys/fs/cgroup/pids)' };
  }
  return {
    ok: true,
    kind: 'cgroup',
    make(maxProcesses, l) {
      const parent = join(base, 'threshold');
      mkdirSync(parent, { recursive: true });
      const dir = join(parent, `run-${randomBytes(6).toString('hex')}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'pids.max'), String(maxProcesses));
      // The shell moves itself into the cgroup, then becomes the jail: nothing forks before the limit applies.
      const prefix = ['/bin/sh', '-c', 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"', 'threshold-jail', dir, ...prlimitArgs(maxProcesses, l)];
      return {
        prefix,
        cleanup() {
          for (let i = 0; i < 20; i++) {
            let pids: number[];
            try {
              pids = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
            } catch {
              break;
            }
            if (pids.length === 0) break;
            signal(pids, 'SIGKILL');
          }
          try {
            rmdirSync(dir);
          } catch {
            // still busy for a moment; the kernel frees it when the last process is reaped
          }
        },
      };
    },
  };
}
