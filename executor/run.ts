// The executor: runs argv in the jail with a scrubbed environment, its own process group and session,
// resource limits, a timeout, SIGTERM then SIGKILL on cancel, and capped output. The jail that cannot
// start runs nothing: the caller gets an error that names the cause and the fix.
import { spawn, type ChildProcess } from 'node:child_process';
import type { IPty } from 'node-pty';
import { existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planContainment, type Containment, type ContainmentPlan, type LaunchLimits, type MemoryContainment } from './containment';
import { detectViolations } from './denial';
import { EgressSession, hostViolations, type EgressReport } from './egress/session';
import { DEFAULT_ALLOW_HOSTS } from '../common/hosts';
import { systemResolver, type Resolver } from './net/destination';
import { bwrapArgs, placeholderFileCount } from './jail/bwrap';
import { planJail, type PlanContext } from './jail/plan';
import { HeadTailBuffer } from './output';
import { Placeholders } from './placeholders';
import { probeJail, type JailProbe } from './probe';
import { isAlive } from '../node/pid-lock.js';
import { commandName, countProcessesOf, descendants, groupStopTargets, processGroups, signal } from './processes';
import { looksLikeProfileFailure, profileRefused, SeatbeltJail, type SeatbeltRun } from './seatbelt-jail';
import { scrubEnv } from './env';
import { buildSeccompFilter } from './seccomp';
import { DEFAULT_LIMITS, type Limits, type RunRequest, type RunResult } from './types';

export class JailUnavailableError extends Error {
  constructor(
    readonly cause_: string,
    readonly fix: string,
  ) {
    super(`The jail cannot start: ${cause_}. Nothing was run. Fix: ${fix}.`);
    this.name = 'JailUnavailableError';
  }
}

export interface ExecutorOptions extends Omit<PlanContext, 'emptyFile'> {
  /** Run without the jail: an explicit setting, shown as a warning wherever the level is shown. */
  unjailed?: boolean;
  /** Default limits for every run. */
  limits?: Partial<Limits>;
  /** For tests: a probe result instead of trying bubblewrap. */
  probe?: JailProbe;
  /** For tests and benchmarks: a containment plan other than the one for this user (Linux). */
  containment?: ContainmentPlan;
  /** For benchmarks: false starts every launcher when its call comes (no spare started ahead). */
  spare?: boolean;
  /** For tests: how long a jailed command runs before the next spare starts beside it (default 100 ms). */
  spareAfterMs?: number;
  /** For tests: name resolution (the egress proxy's and web_fetch's) instead of the system's. */
  resolveHost?: Resolver;
  /** Where the placeholders in existence are listed, so a core killed mid-run has them removed at its next start. */
  placeholderJournal?: string;
}

export interface JailStatus {
  jailed: boolean;
  /** Why the jail is not available (when it is not). */
  problem: { cause: string; fix: string } | null;
  unjailed: boolean;
  containment: 'cgroup' | 'rlimit' | null;
  /** How the memory limit is held (null when the jail cannot start). */
  memory: MemoryContainment | null;
}

/** How long a jailed command runs before the next spare is started beside it (a shorter one starts it after its result). */
const REFILL_DURING_MS = 100;

/** The jail's launcher environment: bwrap clears it and sets the scrubbed one itself. */
const LAUNCH_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin' };

/** A launcher that runs (in its cgroups) and waits for the byte on stdin that says its request file is written. */
interface Launcher {
  child: ChildProcess;
  containment: Containment;
  /** Where its request goes (in the executor's private scratch folder; the jail does not see it). */
  requestFile: string;
}

/**
 * macOS: the limits are set by the Seatbelt launcher itself (RLIMIT_NPROC, RLIMIT_FSIZE, RLIMIT_CPU); no
 * cgroup holds memory there, and RLIMIT_AS is not enforced by the kernel, so memory is not limited.
 */
const SEATBELT_CONTAINMENT: ContainmentPlan = {
  ok: true,
  kind: 'rlimit',
  memory: 'none',
  make() {
    throw new Error('the macOS jail sets its limits in its own launcher');
  },
};

/** A launcher that is not going to be used: stopped, its cgroups removed. */
function discard(l: Launcher): void {
  if (l.child.pid) signal([l.child.pid], 'SIGKILL');
  l.child.stdin?.destroy();
  l.containment.cleanup();
  removeFile(l.requestFile);
}

export class Executor {
  private readonly probe: JailProbe;
  private readonly containment: ContainmentPlan;
  private readonly seccompFile: string | null;
  private readonly scratch: string;
  private readonly plan: PlanContext;
  private readonly limits: Limits;
  /** macOS: the Seatbelt jail (null on Linux, where bubblewrap is). */
  private readonly seatbelt: SeatbeltJail | null;
  /**
   * One launcher started ahead of time, already in its cgroups, waiting for a request: a jailed call
   * takes it and starts another for the next call. The shell's start and the cgroup join (an RCU grace
   * period on cgroup v1, several milliseconds) then happen while nobody waits.
   */
  private spare: Launcher | null = null;
  private disposed = false;
  private launches = 0;
  /** The empty files and folders jails make where a protected name is absent (executor/placeholders.ts). */
  readonly placeholders: Placeholders;
  /** Name resolution for everything Threshold dials (the egress proxy, web_fetch): one boundary, which a test may replace. */
  readonly resolveHost: Resolver;

  constructor(private readonly o: ExecutorOptions) {
    this.resolveHost = o.resolveHost ?? systemResolver;
    this.placeholders = new Placeholders(o.placeholderJournal ?? null);
    this.probe = o.probe ?? probeJail();
    const seatbelt = this.probe.ok && this.probe.kind === 'seatbelt' ? this.probe : null;
    this.containment = seatbelt ? SEATBELT_CONTAINMENT : (o.containment ?? planContainment());
    this.limits = { ...DEFAULT_LIMITS, ...o.limits };
    // Scratch files the jail mounts: the seccomp program and an empty placeholder file (Linux); each
    // run's own temp folder (macOS).
    this.scratch = mkdtempSync(join(tmpdir(), 'threshold-jail-'));
    this.seatbelt = seatbelt ? new SeatbeltJail({ sandboxExec: seatbelt.sandboxExec, scratch: this.scratch }) : null;
    const emptyFile = join(this.scratch, 'empty');
    writeFileSync(emptyFile, '', { mode: 0o444 });
    this.plan = { home: o.home, appDirs: o.appDirs, emptyFile };
    const filter = buildSeccompFilter();
    if (filter) {
      this.seccompFile = join(this.scratch, 'filter.bpf');
      writeFileSync(this.seccompFile, filter, { mode: 0o600 });
    } else this.seccompFile = null;
  }

  status(): JailStatus {
    const problem = !this.probe.ok ? { cause: this.probe.cause, fix: this.probe.fix } : !this.containment.ok ? { cause: this.containment.cause, fix: this.containment.fix } : null;
    return { jailed: problem === null, problem, unjailed: !!this.o.unjailed, containment: this.containment.ok ? this.containment.kind : null, memory: this.containment.ok ? this.containment.memory : null };
  }

  private launchLimits(limits: Limits): LaunchLimits {
    return { maxProcesses: limits.maxProcesses, fileBytes: limits.maxFileBytes, cpuSeconds: limits.cpuSeconds, memoryBytes: limits.maxMemoryBytes, seccompFile: this.seccompFile };
  }

  private startLauncher(l: LaunchLimits): Launcher {
    const containment = (this.containment as Extract<ContainmentPlan, { ok: true }>).make(l);
    const requestFile = join(this.scratch, `request-${++this.launches}`);
    const argv = containment.launcher({ file: requestFile });
    let child: ChildProcess;
    try {
      child = spawn(argv[0]!, argv.slice(1), { cwd: '/', env: { ...containment.env, ...LAUNCH_ENV }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    } catch (e) {
      containment.cleanup();
      throw e;
    }
    // A launcher that fails to start has no pid: the run that takes it reports it, a spare is dropped.
    child.on('error', () => undefined);
    child.stdin!.on('error', () => undefined);
    return { child, containment, requestFile };
  }

  /** The spare, when it is still waiting and can take these limits; otherwise null (it is dropped). */
  private takeSpare(l: LaunchLimits): Launcher | null {
    const spare = this.spare;
    this.spare = null;
    if (!spare) return null;
    if (!spare.child.pid || spare.child.exitCode !== null || spare.child.signalCode !== null || !spare.containment.limit(l)) {
      discard(spare);
      return null;
    }
    return spare;
  }

  /** Whether a launcher started ahead waits for the next call (for tests). */
  spareWaiting(): boolean {
    return this.spare !== null && this.spare.child.exitCode === null && this.spare.child.signalCode === null;
  }

  /** Starts the next spare (after a jailed call's result, or beside a long one, so it delays neither). */
  private refill(): void {
    if (this.disposed || this.spare || this.o.spare === false || this.seatbelt || !this.containment.ok || !this.probe.ok) return;
    try {
      this.spare = this.startLauncher(this.launchLimits(this.limits));
    } catch {
      this.spare = null; // the next call starts its own
    }
  }

  /**
   * The jail's command line for a request (for `threshold jail --print` and tests): bwrap's on Linux;
   * sandbox-exec's on macOS, whose profile names a temp folder and, for a network call, the proxy port
   * 3128 in place of the ones a run makes.
   */
  commandLine(req: RunRequest): string[] {
    if (!this.probe.ok) throw new JailUnavailableError(this.probe.cause, this.probe.fix);
    if (this.probe.kind === 'seatbelt') {
      const spec = planJail(req, this.plan);
      return [this.probe.sandboxExec, ...this.seatbelt!.args(spec, req.argv, spec.class === 'read' ? null : join(this.scratch, 'run-N'), 3128)];
    }
    return [this.probe.bwrap, ...bwrapArgs(planJail(req, this.plan, this.seccompFile ? 3 : undefined), req.argv)];
  }

  /** How many descriptors on /dev/null a request's bwrap command line reads placeholders from (fds 4, 5, …), for running commandLine() directly (none on macOS). */
  placeholderFds(req: RunRequest): number {
    if (this.seatbelt) return 0;
    return placeholderFileCount(planJail(req, this.plan, this.seccompFile ? 3 : undefined));
  }

  async run(req: RunRequest, abort?: AbortSignal): Promise<RunResult> {
    const limits = { ...this.limits, ...req.limits };
    const status = this.status();
    if (!status.jailed && !this.o.unjailed) throw new JailUnavailableError(status.problem!.cause, status.problem!.fix);

    let argv: string[] = [];
    const createdPlaceholders: string[] = [];
    let mountedProtected: string[] = [];
    let containment: Containment | null = null;
    /** Jailed without a terminal: the launcher already runs and waits for this request. */
    let launched: Launcher | null = null;
    let hidden: { dirs: string[]; files: string[] } | undefined;
    /** macOS: the run's launcher and temp folder. */
    let seatbeltRun: SeatbeltRun | null = null;
    const seatbelt = status.jailed ? this.seatbelt : null;
    // A network-class jail's one way out: its own proxy, bridged in once the jail has started (Linux), or
    // listening on a loopback port that the profile allows and nothing else (macOS).
    const egress =
      status.jailed && req.jail.class === 'network'
        ? await EgressSession.open({ patterns: req.jail.allowHosts ?? DEFAULT_ALLOW_HOSTS, resolve: this.resolveHost, loopback: !!seatbelt })
        : null;
    let finished = false;
    let refillTimer: NodeJS.Timeout | null = null;
    if (seatbelt) {
      try {
        const spec = planJail(req, this.plan);
        hidden = { dirs: spec.hiddenDirs, files: [...spec.hiddenFiles, ...spec.emptiedFiles] };
        // RLIMIT_NPROC counts every process of the user: the allowance comes on top of what runs now.
        seatbeltRun = seatbelt.prepare(spec, req.argv, { nproc: countProcessesOf(process.getuid?.() ?? 0) + limits.maxProcesses, limits, proxyPort: egress?.port ?? null });
      } catch (e) {
        await egress?.close();
        throw e;
      }
      argv = seatbeltRun.argv;
    } else if (status.jailed) {
      const spec = planJail(req, this.plan, this.seccompFile ? 3 : undefined);
      hidden = { dirs: spec.hiddenDirs, files: [...spec.hiddenFiles, ...spec.emptiedFiles] };
      for (const p of spec.absentProtected) if (!existsSync(p.path)) createdPlaceholders.push(p.path);
      mountedProtected = [...spec.absentProtected.map((p) => p.path), ...spec.readOnlyInWorkspace];
      const l = { ...this.launchLimits(limits), placeholderFds: placeholderFileCount(spec) };
      const command = [(this.probe as { bwrap: string }).bwrap, ...bwrapArgs(spec, req.argv)];
      if (req.terminal) {
        // A terminal's stdin is the terminal: the request goes in argv, and the launcher starts now.
        containment = (this.containment as Extract<ContainmentPlan, { ok: true }>).make(l);
        argv = containment.launcher(containment.request(l, command));
      } else {
        const launcher = this.takeSpare(l) ?? this.startLauncher(l);
        containment = launcher.containment;
        try {
          writeFileSync(launcher.requestFile, requestBytes(containment.request(l, command)), { mode: 0o600 });
        } catch (e) {
          discard(launcher);
          throw e;
        }
        launched = launcher;
      }
    } else {
      argv = [...req.argv];
    }

    // Counted from here on, where nothing throws before the release below (a request that could not be
    // written ran nothing and made no placeholder).
    this.placeholders.mount(mountedProtected, createdPlaceholders);
    const started = performance.now();
    const out = new HeadTailBuffer(limits.outputCapBytes);
    const err = new HeadTailBuffer(limits.outputCapBytes);
    let streamed = 0;
    const stream = (which: 'stdout' | 'stderr', chunk: Buffer) => {
      if (!req.onOutput || streamed >= limits.outputCapBytes) return;
      streamed += chunk.length;
      req.onOutput(which, chunk.toString('utf8'));
      if (streamed >= limits.outputCapBytes) req.onOutput('stderr', '\n[threshold: live output stops here; the result keeps the head and the tail]\n');
    };

    let timedOut = false;
    let cancelled = false;
    let child: ChildProcess | null = null;
    let ptyProcess: IPty | null = null;
    // Jailed, the launcher's environment is only PATH: bwrap (Linux) or env -i (macOS) sets the command's.
    const env = status.jailed ? { ...containment?.env, ...LAUNCH_ENV } : scrubEnv(req.env, req.envAllow);
    // Whom a stop signals: the command's processes but not bwrap's own (Linux); the process group and
    // every descendant (macOS, and unjailed), since there is no PID namespace to end with the jail.
    const byGroup = !status.jailed || !!seatbelt;

    // SIGKILL after a stop's grace; cleared when the run ends, so it never meets a process (or group) that
    // later took one of the run's ids.
    let killer: NodeJS.Timeout | null = null;
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      let terminating = false;
      const rootPid = () => child?.pid ?? ptyProcess?.pid ?? 0;
      const terminate = () => {
        if (terminating) return;
        const pid = rootPid();
        // Not started yet (a stop before the spawn): terminate again once it has.
        if (!pid) return;
        terminating = true;
        // SIGTERM the command's processes (not the jail's own bwrap processes, whose death would kill them
        // at once), so they can clean up; SIGKILL the whole tree after the grace.
        // Each process once, parents before their children: a shell whose child ended before its own SIGTERM
        // came would return from `wait` and exit without running its trap.
        const tree = descendants(pid);
        if (!byGroup) signal(tree.filter((p) => commandName(p) !== 'bwrap'), 'SIGTERM');
        else {
          const [group, ...outside] = groupStopTargets(pid, tree, processGroups(tree));
          try {
            process.kill(group!, 'SIGTERM');
            signal(outside, 'SIGTERM');
          } catch {
            signal([pid, ...tree], 'SIGTERM');
          }
        }
        killer = setTimeout(() => {
          signal(descendants(pid), 'SIGKILL');
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            signal([pid], 'SIGKILL');
          }
        }, limits.graceMs);
        killer.unref();
      };
      const timer = setTimeout(() => {
        timedOut = true;
        terminate();
      }, limits.timeoutMs);
      const onAbort = () => {
        cancelled = true;
        terminate();
      };
      if (abort?.aborted) onAbort();
      abort?.addEventListener('abort', onAbort, { once: true });
      const finish = (code: number | null, sig: string | null) => {
        finished = true;
        clearTimeout(timer);
        abort?.removeEventListener('abort', onAbort);
        resolve({ code, signal: sig });
      };

      if (req.terminal) {
        // node-pty starts the program as a session leader on a new terminal; output is one stream.
        void import('node-pty').then((pty) => {
          try {
            ptyProcess = pty.spawn(argv[0]!, argv.slice(1), { cwd: status.jailed && !seatbelt ? '/' : req.cwd, env, cols: 120, rows: 30, name: 'xterm-256color' });
          } catch (e) {
            err.push(Buffer.from(`threshold: could not start a terminal: ${(e as Error).message}\n`));
            return finish(null, null);
          }
          ptyProcess.onData((d) => {
            const b = Buffer.from(d, 'utf8');
            out.push(b);
            stream('stdout', b);
          });
          ptyProcess.onExit(({ exitCode, signal: s }) => {
            if (seatbelt && ptyProcess) killGroup(ptyProcess.pid);
            finish(s ? null : exitCode, s ? `SIG${s}` : null);
          });
          if (!seatbelt) egress?.attach(ptyProcess.pid, () => finished);
          if (abort?.aborted) onAbort();
        });
        return;
      }

      if (launched) {
        child = launched.child;
        if (!child.pid) {
          err.push(Buffer.from('threshold: could not start the jail launcher\n'));
          return finish(null, null);
        }
        // The request is in its file: one byte tells the launcher to read it.
        child.stdin!.end('\0');
        // A long command: the next spare starts while it runs, so that a call made meanwhile finds one.
        refillTimer = setTimeout(() => this.refill(), this.o.spareAfterMs ?? REFILL_DURING_MS);
        refillTimer.unref();
      } else {
        try {
          child = spawn(argv[0]!, argv.slice(1), { cwd: req.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        } catch (e) {
          err.push(Buffer.from(`threshold: could not start: ${(e as Error).message}\n`));
          return finish(null, null);
        }
      }
      child.stdout!.on('data', (c: Buffer) => {
        out.push(c);
        stream('stdout', c);
      });
      child.stderr!.on('data', (c: Buffer) => {
        err.push(c);
        stream('stderr', c);
      });
      child.on('error', (e) => {
        err.push(Buffer.from(`threshold: could not start ${argv[0]}: ${e.message}\n`));
      });
      child.on('close', (code, sig) => finish(code, sig));
      // macOS: the command's end is the jail's end, as on Linux where the PID namespace dies with it. What
      // is left in its process group is killed; a process that left the group (setsid) and still holds the
      // output pipes would keep 'close' from coming, so the pipes are closed after the grace.
      if (seatbelt) child.on('exit', () => endSeatbeltRun(child!, limits.graceMs));
      if (child.pid && !seatbelt) egress?.attach(child.pid, () => finished);
      if (abort?.aborted) onAbort();
    });

    // Nothing of the run may survive it. Jailed on Linux, the PID namespace died with bwrap (and the cgroup
    // is emptied below); otherwise the tree is searched and the process group killed (on macOS a process
    // that left both its group and its parent's tree is beyond reach: docs/executor.md, "macOS").
    if (killer) clearTimeout(killer);
    const pid = (child as ChildProcess | null)?.pid ?? (ptyProcess as IPty | null)?.pid;
    if (pid && byGroup) {
      const left = descendants(pid);
      if (left.length || isAlive(pid)) signal([pid, ...left], 'SIGKILL');
      killGroup(pid);
    }
    // The jail is gone: its placeholders go too, unless a jail beside it still mounts them.
    this.placeholders.release(mountedProtected);
    const outOfMemory = containment?.outOfMemory(exit) ?? false;
    containment?.cleanup();
    if (launched) removeFile(launched.requestFile);
    const egressReport: EgressReport | null = egress ? await egress.close() : null;
    seatbeltRun?.cleanup();

    if (refillTimer) {
      // A short command: the next spare starts once the result is out. Starting a launcher forks the
      // daemon, blocking it for several milliseconds (in proportion to its memory); done during the
      // call, that time was the call's.
      clearTimeout(refillTimer);
      setImmediate(() => this.refill());
    }
    const stdout = out.result();
    const stderr = err.result();
    // sandbox-exec that could not apply the profile ran nothing: the call fails with the cause and the fix
    // (confirmed by applying the same profile to /usr/bin/true, since a command may print the same words).
    if (seatbelt && seatbeltRun && looksLikeProfileFailure(exit.code, stderr.text)) {
      const check = seatbelt.applies(seatbeltRun.sandboxArgs);
      if (!check.ok) {
        const why = profileRefused(check.error);
        throw new JailUnavailableError(why.cause, why.fix);
      }
    }
    return {
      exitCode: exit.code,
      signal: exit.signal,
      stdout,
      stderr,
      durationMs: Math.round(performance.now() - started),
      timedOut,
      cancelled,
      violations: status.jailed ? [...detectViolations(`${stderr.text}\n${stdout.text}`, { class: req.jail.class, cwd: req.cwd, hidden, eperm: !!seatbelt }), ...hostViolations(egressReport?.refused ?? [])] : [],
      jailed: status.jailed,
      memory: status.jailed && this.containment.ok ? { limitBytes: limits.maxMemoryBytes, heldBy: this.containment.memory, exceeded: outOfMemory } : null,
      ...(egressReport ? { egress: egressReport } : {}),
    };
  }

  dispose(): void {
    this.disposed = true;
    if (this.spare) discard(this.spare);
    this.spare = null;
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** SIGKILL to a process group and every descendant of its leader (macOS, where no PID namespace ends them). */
function killGroup(pid: number): void {
  signal(descendants(pid), 'SIGKILL');
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is empty
  }
}

/** After a macOS jail's command exited: its group goes, and its pipes are closed after the grace if something outside the group holds them. */
function endSeatbeltRun(child: ChildProcess, graceMs: number): void {
  if (child.pid) killGroup(child.pid);
  const streams = [child.stdout, child.stderr].filter((s) => s !== null);
  if (streams.every((s) => s.closed)) return;
  const timer = setTimeout(() => {
    for (const s of streams) s.destroy();
  }, graceMs);
  timer.unref();
  child.once('close', () => clearTimeout(timer));
}

/** The launcher's request, as written to its file: NUL-terminated strings (an argument holding a NUL would split in two, so none may). */
export function requestBytes(request: readonly string[]): string {
  for (const a of request) if (a.includes('\0')) throw new Error('an argument holds a NUL byte, which no program argument can');
  return request.map((a) => `${a}\0`).join('');
}

function removeFile(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // never written
  }
}
