// The executor's macOS path: a command runs as
//   /bin/bash (limits) → /usr/bin/env -i (the scrubbed environment) → /usr/bin/sandbox-exec -p PROFILE -- argv
// in its own process group and session. The bash launcher closes inherited descriptors and sets the
// resource limits before anything else starts; env -i makes the environment exactly the allowlisted one;
// sandbox-exec applies the profile (executor/jail/seatbelt.ts) and only then execs argv. If sandbox-exec
// cannot apply the profile it exits without running anything, and the call fails with the cause and the
// fix: nothing ever runs unjailed by falling back.
//
// Only /usr/bin/sandbox-exec is used, never one found on PATH (a planted copy would run everything
// unconfined). Tests give a stand-in binary instead, which records what it was asked to run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proxyEnv } from './egress/bridge';
import { sandboxExecArgs, type SeatbeltContext } from './jail/seatbelt';
import { canonicalSpec, resolvedPath, type RealPath } from './jail/seatbelt-paths';
import type { JailSpec } from './jail/spec';
import type { JailProbe, Limits } from './types';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** Written by the launcher when the limits cannot be set; nothing has run then. */
const LAUNCH_FAILED_EXIT = 125;

// bash 3.2 (macOS's /bin/bash): no mapfile, no ${x,,}. /dev/fd lists the descriptors on macOS and Linux.
const LAUNCHER = [
  // Descriptors Threshold itself inherited without close-on-exec would pass into the jail: only stdio goes on.
  'for f in /dev/fd/*; do n=${f##*/}; case $n in 0|1|2) ;; *) eval "exec $n>&-" 2>/dev/null || true ;; esac; done',
  // RLIMIT_NPROC counts every process of the user: the caller passes the user's count plus the run's allowance,
  // which may exceed the hard limit (then the hard limit it is).
  `ulimit -S -u "$1" 2>/dev/null || ulimit -S -u "$(ulimit -H -u)" 2>/dev/null || { echo "threshold: the jail could not limit the number of processes; nothing was run" >&2; exit ${LAUNCH_FAILED_EXIT}; }`,
  `ulimit -f "$2" && ulimit -t "$3" && ulimit -c 0 || { echo "threshold: the jail could not set its limits; nothing was run" >&2; exit ${LAUNCH_FAILED_EXIT}; }`,
  'shift 3',
  'exec "$@"',
].join('\n');

export interface SeatbeltLaunch {
  /** RLIMIT_NPROC: the user's processes now plus the run's allowance. */
  nproc: number;
  limits: Pick<Limits, 'maxFileBytes' | 'cpuSeconds'>;
  /** The command's whole environment. */
  env: Record<string, string>;
  sandboxExec: string;
  /** sandbox-exec's arguments (the profile, --, argv). */
  sandboxArgs: readonly string[];
}

/** The launcher's argv: bash sets the limits, env -i sets exactly the environment, sandbox-exec applies the profile. */
export function seatbeltLaunchArgv(l: SeatbeltLaunch): string[] {
  const env = Object.entries(l.env)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => {
      // env(1) would read a name with "=" or a leading "-" as something else.
      if (!/^[^=-][^=]*$/.test(k)) throw new Error(`the environment variable name ${JSON.stringify(k)} cannot be passed to the macOS jail`);
      return `${k}=${v}`;
    });
  // bash's ulimit -f counts 1024-byte blocks.
  const blocks = String(Math.max(1, Math.floor(l.limits.maxFileBytes / 1024)));
  return ['/bin/bash', '--norc', '--noprofile', '-c', LAUNCHER, 'threshold-jail', String(l.nproc), blocks, String(l.limits.cpuSeconds), '/usr/bin/env', '-i', ...env, l.sandboxExec, ...l.sandboxArgs];
}

/**
 * Whether a failed run's stderr starts the way sandbox-exec reports its own failure (the profile was
 * refused or could not be applied), as opposed to the command's output or a program that was not found.
 * A command could print the same words, so the caller confirms by applying the profile to /usr/bin/true.
 */
export function looksLikeProfileFailure(exitCode: number | null, stderr: string): boolean {
  if (exitCode === 0 || exitCode === null) return false;
  const first = stderr.split('\n', 1)[0] ?? '';
  return first.startsWith('sandbox-exec:') && !/execvp\(\)/.test(first);
}

export interface ProfileCheck {
  ok: boolean;
  /** sandbox-exec's own words when it refused. */
  error: string;
}

/** Applies the profile (sandbox-exec's arguments up to --) to /usr/bin/true: does sandbox-exec accept it here? */
export function profileApplies(sandboxExec: string, sandboxArgs: readonly string[]): ProfileCheck {
  const end = sandboxArgs.indexOf('--');
  const r = spawnSync(sandboxExec, [...sandboxArgs.slice(0, end), '--', '/usr/bin/true'], { encoding: 'utf8', timeout: 10_000, env: { PATH: '/usr/bin:/bin' } });
  const error = (r.stderr || r.error?.message || (r.status === 0 ? '' : `exit ${r.status}`)).trim().split('\n')[0] ?? '';
  return { ok: r.status === 0, error };
}

export const PROFILE_FIX = 'start Threshold outside any other sandbox (a process in another agent\'s jail or an app sandbox cannot start one); if it already runs outside one, this macOS refuses the profile: report the message';

/** The cause and fix when sandbox-exec refused a profile. */
export function profileRefused(error: string): { cause: string; fix: string } {
  return { cause: `sandbox-exec could not apply the jail's profile (${error || 'no message'})`, fix: PROFILE_FIX };
}

/** Can the macOS jail start here? sandbox-exec at its one path, and a profile of every rule kind accepted. */
export function probeSeatbelt(o: { sandboxExec?: string; uid?: number; scratch?: string } = {}): JailProbe {
  const sandboxExec = o.sandboxExec ?? SANDBOX_EXEC;
  if ((o.uid ?? process.getuid?.() ?? 0) === 0) {
    return { ok: false, cause: 'running as root, where macOS does not apply the limit on the number of processes, so a fork bomb could not be contained', fix: 'run Threshold as your own user, not with sudo' };
  }
  if (!existsSync(sandboxExec)) return { ok: false, cause: `sandbox-exec is not at ${sandboxExec}`, fix: 'it is part of macOS: a macOS update or reinstall puts it back (Threshold uses no other copy)' };
  const dir = mkdtempSync(join(o.scratch ?? tmpdir(), 'threshold-probe-'));
  try {
    const ws = realpathSync(dir);
    for (const d of ['ws/.git', 'out', 'home/.ssh', 'tmp']) mkdirSync(join(ws, d), { recursive: true });
    writeFileSync(join(ws, 'ws/.env'), '');
    const spec: JailSpec = {
      class: 'network',
      workspace: join(ws, 'ws'),
      cwd: join(ws, 'ws'),
      home: join(ws, 'home'),
      extraWritable: [join(ws, 'out')],
      hiddenDirs: [join(ws, 'home/.ssh')],
      hiddenFiles: [join(ws, 'ws/.env')],
      emptiedFiles: [],
      unreadableFile: '',
      readOnlyInWorkspace: [join(ws, 'ws/.git')],
      absentProtected: [{ path: join(ws, 'ws/.envrc'), dir: false }],
      grantedCodePaths: [join(ws, 'ws/.idea')],
      emptyFile: '',
      env: {},
    };
    // Every kind of rule the executor writes, so a name this macOS does not know shows now, not at the first call.
    const args = sandboxExecArgs(spec, { tempDir: join(ws, 'tmp'), sharedTemp: [resolvedPath(tmpdir(), realpathSync)], proxyPort: 9 }, ['/usr/bin/true']);
    const check = profileApplies(sandboxExec, args);
    if (!check.ok) return { ok: false, ...profileRefused(check.error) };
    return { ok: true, kind: 'seatbelt', sandboxExec, version: 'sandbox-exec' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SeatbeltRun {
  argv: string[];
  /** sandbox-exec's arguments, to check the profile again if the run failed the way a refused profile does. */
  sandboxArgs: string[];
  /** The run's own temp folder (removed by cleanup). */
  tempDir: string | null;
  cleanup(): void;
}

/** Turns a planned jail into the run's launcher argv: real paths, its own temp folder, the proxy's port. */
export class SeatbeltJail {
  private runs = 0;

  constructor(
    private readonly o: {
      sandboxExec: string;
      /** Threshold's private scratch folder: each run's temp folder is made in it. */
      scratch: string;
      realpath?: RealPath;
    },
  ) {}

  private get realpath(): RealPath {
    return this.o.realpath ?? realpathSync;
  }

  /** Whether sandbox-exec accepts these arguments' profile here (after a run failed the way a refused profile does). */
  applies(sandboxArgs: readonly string[]): ProfileCheck {
    return profileApplies(this.o.sandboxExec, sandboxArgs);
  }

  /** The machine's shared temp folders, by their real names. */
  sharedTemp(): string[] {
    return [...new Set(['/tmp', '/var/tmp', tmpdir()].map((p) => resolvedPath(p, this.realpath)))];
  }

  /** The command's environment: the scrubbed one, with TMPDIR, the proxy's real port and git's global config adjusted for this jail. */
  static env(spec: JailSpec, tempDir: string | null, proxyPort: number | null): Record<string, string> {
    const env = { ...spec.env };
    if (tempDir) env['TMPDIR'] = tempDir;
    if (proxyPort !== null) Object.assign(env, proxyEnv(proxyPort));
    // A git config that carries a credential is hidden; Seatbelt cannot make it read as empty (Linux binds
    // /dev/null over it), and git stops when it cannot read it, so git is told to read none.
    if (spec.emptiedFiles.length) env['GIT_CONFIG_GLOBAL'] = '/dev/null';
    return env;
  }

  /** sandbox-exec's arguments for a spec (no temp folder is made: for printing). */
  args(spec: JailSpec, argv: readonly string[], tempDir: string | null, proxyPort: number | null): string[] {
    const real = canonicalSpec(spec, this.realpath);
    const ctx: SeatbeltContext = { tempDir, sharedTemp: this.sharedTemp(), proxyPort: spec.class === 'network' ? proxyPort : null };
    return sandboxExecArgs(real, ctx, argv);
  }

  prepare(spec: JailSpec, argv: readonly string[], o: { nproc: number; limits: Limits; proxyPort: number | null }): SeatbeltRun {
    if (spec.class === 'network' && o.proxyPort === null) throw new Error('a network-class call on macOS needs its egress proxy listening first');
    // A write or network call gets an empty temp folder of its own; a read call writes nothing, not even there.
    const tempDir = spec.class === 'read' ? null : resolvedPath(mkdtempSync(join(this.o.scratch, `run-${++this.runs}-`)), this.realpath);
    try {
      const sandboxArgs = this.args(spec, argv, tempDir, o.proxyPort);
      const launch = seatbeltLaunchArgv({ nproc: o.nproc, limits: o.limits, env: SeatbeltJail.env(spec, tempDir, o.proxyPort), sandboxExec: this.o.sandboxExec, sandboxArgs });
      return { argv: launch, sandboxArgs, tempDir, cleanup: () => tempDir && rmSync(tempDir, { recursive: true, force: true }) };
    } catch (e) {
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
      throw e;
    }
  }
}
