// Containing how many processes (and how much memory, how large files, how much CPU) a command may use.
// RLIMIT_NPROC binds every user but root (the kernel exempts root's processes entirely), so as root a
// pids cgroup holds the process limit; as another user, RLIMIT_NPROC does, counted over all of that
// user's processes. Memory: as root, a memory cgroup per run (v2 memory.max, v1 memory.limit_in_bytes)
// whose oom_kill counter says afterwards whether the limit killed something; as another user, a
// systemd user scope with MemoryMax where the user's systemd answers; elsewhere RLIMIT_AS (see
// docs/executor.md for what that fallback does not cover).
//
// One small bash launcher applies it all before it becomes the jail: it closes every inherited descriptor
// but stdio, moves itself into the run's cgroups, then reads its request (the seccomp program to open as
// fd 3, the limits, how many empty placeholders bwrap copies from /dev/null, the bwrap command line),
// sets the limits and execs bwrap. Nothing forks before the limits apply. Because the request comes last, a launcher can be started ahead of time (a spare, see
// ./run.ts): the shell's start and the cgroup join — most of a jail's start-up cost — are then off the
// path of the call that uses it.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { countProcessesOf, signal } from './processes';

const CGROUP_V1 = '/sys/fs/cgroup/pids';
const CGROUP_V1_MEMORY = '/sys/fs/cgroup/memory';
const CGROUP_V2 = '/sys/fs/cgroup';

export interface LaunchLimits {
  maxProcesses: number;
  fileBytes: number;
  cpuSeconds: number;
  /** Memory for the whole run (every process of it together, for the cgroup and the scope). */
  memoryBytes: number;
  /** The seccomp program to give bwrap as fd 3, if any. */
  seccompFile: string | null;
  /** How many descriptors on /dev/null bwrap reads empty files from (`--file`), as fds 4, 5, …: one per file, which bwrap closes. */
  placeholderFds?: number;
}

/** The first descriptor of the empty placeholders (fd 3 is the seccomp program). */
export const PLACEHOLDER_FD_BASE = 4;

/** How the memory limit is held: see the header ('none': macOS, where nothing holds it). */
export type MemoryContainment = 'cgroup' | 'systemd-scope' | 'rlimit-as' | 'none';

export interface Containment {
  /**
   * The launcher's argv. With a request, the request follows in argv (for a terminal, whose stdin is the
   * terminal); with a request file, the launcher waits for one NUL byte on stdin, then reads the
   * request from that file (NUL-terminated strings) and stdin becomes /dev/null.
   */
  launcher(request: readonly string[] | { file: string }): string[];
  /** Variables the launcher needs besides PATH (a systemd scope's session bus); none reach the jail. */
  env: Record<string, string>;
  /** The request for a command line: the limits the launcher sets, then the argv it execs. */
  request(l: LaunchLimits, argv: readonly string[]): string[];
  /** Writes this run's limits into its cgroups; false when they cannot change any more (a scope). */
  limit(l: LaunchLimits): boolean;
  /** After the run: whether the memory limit killed a process of it. */
  outOfMemory(exit: { code: number | null; signal: string | null }): boolean;
  /** Kills whatever is left in the cgroups and removes them. */
  cleanup(): void;
}

export type ContainmentPlan =
  | { ok: true; kind: 'cgroup' | 'rlimit'; memory: MemoryContainment; make(l: LaunchLimits): Containment }
  | { ok: false; cause: string; fix: string };

const LAUNCHER = [
  'set -e',
  // Descriptors the daemon itself inherited without close-on-exec (a socket from whoever started it)
  // would pass into the jail: only stdin, stdout and stderr go on.
  'for f in /proc/self/fd/*; do n=${f##*/}; case $n in 0|1|2) ;; *) eval "exec $n>&-" 2>/dev/null || true ;; esac; done',
  'for g in "$1" "$2"; do [ -n "$g" ] && echo $$ > "$g/cgroup.procs"; done',
  // A launcher started ahead of time waits here for the byte that says its request is written; one
  // whose request never comes (the daemon quit) exits without running anything. The request is read
  // from a file: from a pipe or socket bash reads one byte per system call (so as never to read past
  // what it was asked for), about 1 µs a byte here, 3-4 ms for a jail's command line; a file it reads
  // in blocks.
  'if [ "$3" = file ]; then IFS= read -r -d "" _ || exit 0; exec 0</dev/null; mapfile -d "" -t r <"$4"; [ "${#r[@]}" -gt 6 ] || exit 0; set -- "${r[@]}"; else shift 3; fi',
  '[ -n "$1" ] && exec 3<"$1"',
  'case $6 in ""|*[!0-9]*) exit 125 ;; esac',
  `for ((i = ${PLACEHOLDER_FD_BASE}; i < ${PLACEHOLDER_FD_BASE} + $6; i++)); do eval "exec $i</dev/null"; done`,
  'ulimit -u "$2"; ulimit -f "$3"; ulimit -t "$4"; ulimit -c 0',
  '[ -n "$5" ] && ulimit -v "$5"',
  'shift 6',
  'exec "$@"',
].join('\n');

/** The launcher's argv: the cgroups to join (pids, memory; either may be ''), then the request or the file it will be in. */
export function launcherArgv(cgroups: readonly [string, string], request: readonly string[] | { file: string }): string[] {
  // --norc: bash runs ~/.bashrc when its stdin is a socket (it takes that for rshd), and the stdin a
  // spare waits on is one; nothing of the user's shell set-up may run outside the jail.
  return ['/bin/bash', '--norc', '--noprofile', '-c', LAUNCHER, 'threshold-jail', cgroups[0], cgroups[1] === cgroups[0] ? '' : cgroups[1], ...('file' in request ? ['file', request.file] : ['args', ...request])];
}

/** The launcher's request: seccomp file, RLIMIT_NPROC, RLIMIT_FSIZE (1024-byte blocks), RLIMIT_CPU, RLIMIT_AS (KiB or ''), placeholder descriptors, argv. */
export function launchRequest(l: LaunchLimits, nproc: number, addressSpace: boolean, argv: readonly string[]): string[] {
  // bash's ulimit -f and -v count 1024-byte blocks.
  return [l.seccompFile ?? '', String(nproc), String(Math.max(1, Math.floor(l.fileBytes / 1024))), String(l.cpuSeconds), addressSpace ? String(Math.max(1, Math.floor(l.memoryBytes / 1024))) : '', String(l.placeholderFds ?? 0), ...argv];
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
  if (v2Controllers().includes('pids') && writable(CGROUP_V2)) return CGROUP_V2;
  return null;
}

function v2Controllers(): string[] {
  try {
    return readFileSync(join(CGROUP_V2, 'cgroup.controllers'), 'utf8').split(/\s+/).filter(Boolean);
  } catch {
    return []; // not cgroup v2
  }
}

/** Where run memory cgroups go (root only): the v1 memory hierarchy, or the v2 root when it has the memory controller. */
function memoryBase(): string | null {
  if (existsSync(join(CGROUP_V1_MEMORY, 'cgroup.procs')) && writable(CGROUP_V1_MEMORY)) return CGROUP_V1_MEMORY;
  if (v2Controllers().includes('memory') && writable(CGROUP_V2)) return CGROUP_V2;
  return null;
}

/** A regular user's containment: RLIMIT_NPROC, and memory through a systemd scope when given its argv prefix, else RLIMIT_AS. */
export function userContainment(uid: number, scope: ScopeRunner | null): ContainmentPlan {
  return {
    ok: true,
    kind: 'rlimit',
    memory: scope ? 'systemd-scope' : 'rlimit-as',
    make(first) {
      const unit = scope ? `threshold-run-${randomBytes(6).toString('hex')}` : '';
      const fixed = first.memoryBytes;
      return {
        launcher: (request) => [...(scope ? scope.argv(unit, fixed) : []), ...launcherArgv(['', ''], request)],
        env: scope?.env ?? {},
        request: (l, argv) => launchRequest(l, countProcessesOf(uid) + l.maxProcesses, !scope, argv),
        limit: (l) => !scope || l.memoryBytes === fixed,
        outOfMemory: (exit) => (scope ? scope.outOfMemory(unit, exit) : false),
        cleanup() {},
      };
    },
  };
}

/** RLIMIT_NPROC and RLIMIT_AS only (what a regular user without systemd gets); as root RLIMIT_NPROC does not bind, so this is for measuring. */
export function rlimitOnly(): ContainmentPlan {
  return userContainment(process.getuid?.() ?? 0, null);
}

// ── A regular user's memory limit: a systemd user scope ────────────────────────────────────────────
// `systemd-run --user --scope` asks the user's systemd for a transient scope with MemoryMax and puts
// itself in it before it execs the launcher, so the limit holds from the first instruction on. The
// scope is left to systemd: a scope whose processes all exited is removed; one the kernel's OOM killer
// hit stays "failed" with Result=oom-kill, which is read (only after a run a signal ended) and reset.
// systemd-run finds the user's manager through the session bus, so the launcher keeps the two
// variables that name it (bwrap clears the environment for the command itself).

export interface ScopeRunner {
  argv(unit: string, memoryBytes: number): string[];
  /** What systemd-run needs to reach the user's manager. */
  env: Record<string, string>;
  outOfMemory(unit: string, exit: { code: number | null; signal: string | null }): boolean;
}

/** The argv prefix that runs a command in its own systemd user scope with a memory limit (and no swap). */
export function scopeArgv(unit: string, memoryBytes: number): string[] {
  return ['systemd-run', '--user', '--scope', '--quiet', `--unit=${unit}`, '-p', `MemoryMax=${memoryBytes}`, '-p', 'MemorySwapMax=0', '--'];
}

/**
 * Whether a run ended by a signal: bwrap reports its command's death by signal as 128 + the signal, and
 * systemd may stop the whole scope (SIGTERM) after the OOM killer hit one process of it.
 */
export function endedBySignal(exit: { code: number | null; signal: string | null }): boolean {
  return exit.signal !== null || (exit.code !== null && exit.code > 128 && exit.code < 160);
}

/** The user's systemd, when it can start a scope with a memory limit here (tried once). */
export function systemdScope(): ScopeRunner | null {
  const env: Record<string, string> = {};
  for (const k of ['XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS']) if (process.env[k]) env[k] = process.env[k]!;
  const probe = spawnSync('systemd-run', ['--user', '--scope', '--quiet', '-p', 'MemoryMax=67108864', '--', '/bin/true'], { encoding: 'utf8', timeout: 5_000, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env } });
  if (probe.status !== 0) return null;
  return {
    argv: scopeArgv,
    env,
    outOfMemory(unit, exit) {
      if (!endedBySignal(exit)) return false;
      const opts = { encoding: 'utf8' as const, timeout: 5_000, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env } };
      const r = spawnSync('systemctl', ['--user', 'show', '--property=Result', '--value', `${unit}.scope`], opts);
      spawnSync('systemctl', ['--user', 'reset-failed', `${unit}.scope`], opts);
      return r.stdout.trim() === 'oom-kill';
    },
  };
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
  // The folder itself goes after the result is out: nothing runs in it any more.
  setTimeout(() => rmdirCgroup(dir, attempts), 0).unref();
}

function rmdirCgroup(dir: string, attempts: number): void {
  try {
    rmdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
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

/** Makes a cgroup folder; on cgroup v2, hands the controllers down to it first. */
function makeCgroupDir(parent: string, dir: string, controllers: string): void {
  if (existsSync(join(parent, 'cgroup.subtree_control'))) {
    try {
      writeFileSync(join(parent, 'cgroup.subtree_control'), controllers);
    } catch {
      // already delegated, or not ours to change: the limit files below say whether it worked
    }
  }
  mkdirSync(dir, { recursive: true });
}

/** Makes <parent>/owner-…/run-<id> (and the folders above it). */
function makeRunDir(base: string, parent: string, owner: string, run: string, controllers: string): string {
  const mine = join(parent, owner);
  if (!existsSync(parent)) makeCgroupDir(base, parent, controllers);
  if (!existsSync(mine)) makeCgroupDir(parent, mine, controllers);
  const dir = join(mine, run);
  makeCgroupDir(mine, dir, controllers);
  return dir;
}

/** A run's memory cgroup, v1 or v2: its limit (and no swap beyond it) and whether the OOM killer acted in it. */
export function memoryFiles(dir: string): { limit(bytes: number): void; oomKills(): number } {
  const v2 = existsSync(join(dir, 'memory.max'));
  return {
    limit(bytes) {
      if (v2) {
        writeFileSync(join(dir, 'memory.max'), String(bytes));
        if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0');
        return;
      }
      // v1: memory+swap may not be below memory, so the order depends on the direction of the change.
      const memsw = join(dir, 'memory.memsw.limit_in_bytes');
      const hasSwap = existsSync(memsw);
      const current = Number(readFileSync(join(dir, 'memory.limit_in_bytes'), 'utf8'));
      if (hasSwap && bytes > current) writeFileSync(memsw, String(bytes));
      writeFileSync(join(dir, 'memory.limit_in_bytes'), String(bytes));
      if (hasSwap && bytes <= current) writeFileSync(memsw, String(bytes));
    },
    oomKills() {
      try {
        const text = readFileSync(join(dir, v2 ? 'memory.events' : 'memory.oom_control'), 'utf8');
        return Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0);
      } catch {
        return 0;
      }
    },
  };
}

/**
 * `owner` and `cgroupParent`/`memoryParent` are for tests: another daemon's identity, parent folders of
 * their own. `scope` replaces the systemd probe for a regular user (null: no systemd).
 */
export function planContainment(o: { owner?: CgroupOwner; cgroupParent?: string; memoryParent?: string; scope?: ScopeRunner | null } = {}): ContainmentPlan {
  const uid = process.getuid?.() ?? 0;
  if (!existsSync('/bin/bash')) return { ok: false, cause: 'bash is not installed at /bin/bash, so limits cannot be applied', fix: 'install bash' };
  if (uid !== 0) return userContainment(uid, o.scope !== undefined ? o.scope : systemdScope());
  const base = cgroupBase();
  if (!base) {
    return { ok: false, cause: 'running as root, where process limits do not apply, and no writable pids cgroup was found to contain a fork bomb', fix: 'run Threshold as a regular user, or mount the pids cgroup controller (/sys/fs/cgroup/pids)' };
  }
  const parent = o.cgroupParent ?? join(base, 'threshold');
  const memBase = memoryBase();
  const memParent = memBase ? (o.memoryParent ?? (memBase === base ? parent : join(memBase, 'threshold'))) : null;
  const owner = ownerCgroupName(o.owner ?? currentOwner());
  sweepStale(parent);
  if (memParent && memParent !== parent) sweepStale(memParent);
  return {
    ok: true,
    kind: 'cgroup',
    memory: memParent ? 'cgroup' : 'rlimit-as',
    make(first) {
      const run = `run-${randomBytes(6).toString('hex')}`;
      const controllers = memBase === base && memParent ? '+pids +memory' : '+pids';
      const dir = makeRunDir(base, parent, owner, run, controllers);
      const memDir = memParent ? (memParent === parent ? dir : makeRunDir(memBase!, memParent, owner, run, '+memory')) : '';
      const memory = memDir ? memoryFiles(memDir) : null;
      const limit = (l: LaunchLimits) => {
        writeFileSync(join(dir, 'pids.max'), String(l.maxProcesses));
        memory?.limit(l.memoryBytes);
        return true;
      };
      // Limits hold from the moment the cgroup exists, also for a launcher started ahead of time.
      limit(first);
      let applied = first;
      return {
        launcher: (request) => launcherArgv([dir, memDir], request),
        env: {},
        request: (l, argv) => launchRequest(l, l.maxProcesses, !memory, argv),
        limit: (l) => (l.maxProcesses === applied.maxProcesses && l.memoryBytes === applied.memoryBytes ? true : limit((applied = l))),
        outOfMemory: () => (memory ? memory.oomKills() > 0 : false),
        cleanup() {
          removeCgroup(dir, 50);
          if (memDir && memDir !== dir) removeCgroup(memDir, 50);
        },
      };
    },
  };
}
