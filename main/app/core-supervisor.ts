// The desktop shell owns the process that hosts the agent loop and the executor: it attaches to the core
// already serving the data directory (the data-dir lock names it) or starts one (core-launch.ts), waits
// until it answers, restarts it when it stops unexpectedly, and stops it on Quit (SIGTERM, then the
// process group). Every way of failing ends in one sentence naming the fix (CoreStatus.message), which
// the shell says on the terminal and in the window. Processes and files are injected where a test needs
// another one; the defaults are the real ones.
import { spawn as realSpawn, type ChildProcess } from 'node:child_process';
import type { CoreState } from '../../common/contract';
import type { OperationName, Result } from '../../common/operations';
import { nativeModuleMismatch } from '../../common/start-problems';
import { isAlive } from '../../node/pid-lock.js';
import { dataDirHolder } from '../config/data-dir-lock';
import type { CoreLaunch } from './core-launch';
import { attachToCore, type CoreLink } from './core-link';

export interface CoreStatus {
  state: CoreState;
  /** One sentence for the person: why it is not running and the fix, or a problem of a running core. */
  message: string | null;
}

export type SpawnCore = (command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; detached: true; stdio: ['ignore', 'pipe', 'pipe'] }) => ChildProcess;

export interface SupervisorDeps {
  dataDir: string;
  launch: () => CoreLaunch | { problem: string };
  /** The shell's own sentences, for the terminal. */
  say: (line: string) => void;
  /** The core's output as it comes (passed through to the terminal). */
  output?: (chunk: string) => void;
  attach?: (dataDir: string) => Promise<CoreLink>;
  holder?: (dataDir: string) => number | null;
  spawn?: SpawnCore;
  /** How long a starting core may take to answer (the first start may build the command line). */
  readyTimeoutMs?: number;
  /** How long a stopping core may take before its process group is killed. */
  stopTimeoutMs?: number;
  /** Restarts after unexpected stops: at most `max` within `windowMs`, `delayMs` apart (growing). */
  restart?: { max: number; windowMs: number; delayMs: number };
  /** How long a call waits for a core that is starting. */
  callWaitMs?: number;
  now?: () => number;
}

export interface StopReport {
  /** Whether this Quit stopped the core (false: it was started elsewhere and keeps running). */
  stopped: boolean;
  /** Whether it had to be killed (it did not stop within the time given). */
  forced: boolean;
  pid: number | null;
}

/** Runs when a core answers; may name a problem of the running core (the jail cannot start). */
export type OnLink = (link: CoreLink) => Promise<string | null> | string | null;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export class CoreSupervisor {
  status: CoreStatus = { state: 'starting', message: null };
  link: CoreLink | null = null;
  /** The core answering now: its pid and whether Quit stops it (the shell started it, or another shell did). */
  core: { pid: number; owned: boolean } | null = null;
  /** How many times the core was started by this shell (tests and the log read it). */
  launches = 0;
  private child: ChildProcess | null = null;
  private readonly exits = new WeakMap<ChildProcess, Promise<string>>();
  private crashes: number[] = [];
  private stopping = false;
  private bringing: Promise<void> | null = null;
  private readonly statusListeners = new Set<(s: CoreStatus) => void>();
  private readonly linkListeners = new Set<OnLink>();
  private readonly waiters = new Set<() => void>();
  private readonly d: Required<Omit<SupervisorDeps, 'output'>> & Pick<SupervisorDeps, 'output'>;

  constructor(deps: SupervisorDeps) {
    this.d = {
      attach: attachToCore,
      holder: dataDirHolder,
      spawn: realSpawn as SpawnCore,
      readyTimeoutMs: 120_000,
      stopTimeoutMs: 20_000,
      restart: { max: 3, windowMs: 60_000, delayMs: 500 },
      callWaitMs: 120_000,
      now: Date.now,
      ...deps,
    };
  }

  onStatus(listener: (s: CoreStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => void this.statusListeners.delete(listener);
  }

  /** Runs for every core that starts answering, before calls reach it. */
  onLink(listener: OnLink): () => void {
    this.linkListeners.add(listener);
    return () => void this.linkListeners.delete(listener);
  }

  /** Attaches or starts; resolves once the core answers or the reason it cannot is known. */
  start(): Promise<void> {
    this.bringing ??= this.bringUp().finally(() => (this.bringing = null));
    return this.bringing;
  }

  /** The tray's "Start the core again" after a failure. */
  retry(): Promise<void> {
    if (this.status.state !== 'stopped' || this.stopping) return Promise.resolve();
    this.crashes = [];
    this.setStatus({ state: 'starting', message: null });
    return this.start();
  }

  /** One UI operation on the core as the desktop; waits while it starts. Never throws. */
  async invoke(operation: OperationName, params?: unknown): Promise<Result<unknown>> {
    const deadline = this.d.now() + this.d.callWaitMs;
    for (;;) {
      if (this.stopping) return unavailable('Threshold is quitting.');
      if (this.status.state === 'open' && this.link) return this.link.invoke(operation, params);
      if (this.status.state === 'stopped') return unavailable(this.status.message ?? 'Threshold’s core is not running.');
      const left = deadline - this.d.now();
      if (left <= 0) return unavailable('Threshold’s core is still starting; try again in a moment.');
      await this.changed(left);
    }
  }

  /** Quit: stops the core when it is the desktop's, else only lets go of it. */
  async stop(): Promise<StopReport> {
    this.stopping = true;
    this.wake();
    const link = this.link;
    const core = this.core;
    // A child that already exited is never signalled: its pid may belong to someone else by now.
    const child = this.child && this.child.exitCode === null && this.child.signalCode === null ? this.child : null;
    const pid = core?.pid ?? child?.pid ?? null;
    if (pid === null || (core && !core.owned)) {
      link?.close();
      this.setStatus({ state: 'stopped', message: null });
      return { stopped: false, forced: false, pid };
    }
    signal(pid, 'SIGTERM');
    let forced = false;
    if (!(await this.gone(pid, child, this.d.stopTimeoutMs))) {
      forced = true;
      // Its own process group (it was started detached): whatever it started goes too; jailed commands
      // die with their bwrap parent (--die-with-parent).
      if (!signal(-pid, 'SIGKILL')) signal(pid, 'SIGKILL');
      await this.gone(pid, child, 5_000);
    }
    link?.close();
    this.setStatus({ state: 'stopped', message: null });
    return { stopped: true, forced, pid };
  }

  // ── bringing a core up ───────────────────────────────────────────────────────────────────────────

  private async bringUp(): Promise<void> {
    const dir = this.d.dataDir;
    for (let round = 0; round < 3; round++) {
      if (this.stopping) return;
      const holder = this.d.holder(dir);
      if (holder !== null) {
        const link = await this.attachWhile(() => isAlive(holder), null);
        if (link) return this.opened(link, null);
        if (this.stopping) return;
        if (isAlive(holder)) return this.failed(`Another Threshold (pid ${holder}) holds ${dir} but does not answer on its control socket: stop it (kill ${holder}), then start Threshold again.`);
        continue; // it ended meanwhile: start one
      }
      const launch = this.d.launch();
      if ('problem' in launch) return this.failed(launch.problem);
      const started = await this.spawnCore(launch);
      if (started.kind === 'open') return this.opened(started.link, started.child);
      if (started.kind === 'in_use') continue; // another start took the directory first: attach to it
      return this.failed(started.problem, started.said);
    }
    if (!this.stopping) this.failed(`Threshold could neither start nor reach the core for ${dir}: see the terminal, then start Threshold again.`);
  }

  /** Tries to attach until it works, `alive()` turns false, the child exits, or time runs out. */
  private async attachWhile(alive: () => boolean, child: ChildProcess | null): Promise<CoreLink | null> {
    const end = this.d.now() + this.d.readyTimeoutMs;
    while (!this.stopping && alive() && this.d.now() < end) {
      try {
        const link = await this.d.attach(this.d.dataDir);
        // Our child answers with its own pid; another core answering means another start won the race.
        if (!child || link.info.pid === child.pid) return link;
        link.close();
      } catch {
        // not answering yet
      }
      await sleep(100);
    }
    return null;
  }

  private async spawnCore(launch: CoreLaunch): Promise<{ kind: 'open'; link: CoreLink; child: ChildProcess } | { kind: 'in_use' } | { kind: 'failed'; problem: string; said?: boolean }> {
    this.launches++;
    const tail = new OutputTail();
    let child: ChildProcess;
    try {
      child = this.d.spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      return { kind: 'failed', problem: spawnProblem(launch, err as NodeJS.ErrnoException) };
    }
    this.child = child;
    let spawnError: NodeJS.ErrnoException | null = null;
    child.once('error', (err: NodeJS.ErrnoException) => (spawnError = err));
    const exit = new Promise<string>((resolve) => child.once('exit', (code, sig) => resolve(sig ? `signal ${sig}` : `exit ${code}`)));
    this.exits.set(child, exit);
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        tail.push(chunk);
        this.d.output?.(chunk);
      });
      stream.on('error', () => undefined);
    }
    let exited: string | null = null;
    void exit.then((how) => (exited = how));
    const link = await this.attachWhile(() => exited === null && spawnError === null, child);
    if (link) return { kind: 'open', link, child };
    this.child = null;
    if (spawnError) return { kind: 'failed', problem: spawnProblem(launch, spawnError) };
    if (exited === null) {
      // Neither answering nor gone: it is stuck (or we are quitting); it does not outlive the shell.
      if (!signal(-child.pid!, 'SIGKILL')) signal(child.pid!, 'SIGKILL');
      await exit;
      if (this.stopping) return { kind: 'failed', problem: 'Threshold is quitting.' };
      return { kind: 'failed', problem: `The core did not answer within ${Math.round(this.d.readyTimeoutMs / 1000)} s: see its output on the terminal, then start Threshold again.` };
    }
    await sleep(20); // the last lines of output may trail the exit
    if (/\bdata_dir_in_use\b|Another Threshold \(pid \d+\) is using/.test(tail.text())) return { kind: 'in_use' };
    const problem = startProblem(launch, exited, tail);
    // The core's own last line already said it on the terminal: once is enough.
    return { kind: 'failed', problem, said: tail.text().includes(problem.replace(/\.$/, '')) };
  }

  private async opened(link: CoreLink, child: ChildProcess | null): Promise<void> {
    this.link = link;
    this.child = child;
    this.core = { pid: link.info.pid, owned: child !== null || link.info.launched_by === 'desktop' };
    link.onClose(() => void this.lost(link));
    let message: string | null = null;
    for (const listener of [...this.linkListeners]) {
      try {
        message ??= await listener(link);
      } catch (err) {
        this.d.say(`setting up the window's connection failed: ${(err as Error).message}`);
      }
    }
    if (this.link !== link) return; // lost while being set up: lost() took over
    this.setStatus({ state: 'open', message });
  }

  private async lost(link: CoreLink): Promise<void> {
    if (this.link !== link) return;
    this.link = null;
    if (this.stopping) return;
    const child = this.child;
    const pid = this.core?.pid ?? null;
    const exit = child ? this.exits.get(child) : undefined;
    const how = exit ? await Promise.race([exit, sleep(3000).then(() => 'it closed the connection')]) : pid !== null && isAlive(pid) ? 'it closed the connection' : 'it is gone';
    if (this.stopping) return;
    this.core = null;
    this.child = null;
    const now = this.d.now();
    this.crashes = [...this.crashes.filter((t) => now - t < this.d.restart.windowMs), now];
    if (this.crashes.length > this.d.restart.max) {
      return this.failed(`Threshold’s core stopped ${this.crashes.length} times within ${Math.round(this.d.restart.windowMs / 1000)} s (last: ${how}): see the terminal for why, then choose Start the core again in the tray menu.`);
    }
    const message = `Threshold’s core stopped unexpectedly (${how}); restarting it. Approvals waiting and decisions made are kept.`;
    this.d.say(message);
    this.setStatus({ state: 'restarting', message });
    await sleep(this.d.restart.delayMs * this.crashes.length);
    await this.start();
  }

  private failed(problem: string, said = false): void {
    if (this.stopping) return;
    if (!said) this.d.say(problem);
    this.setStatus({ state: 'stopped', message: problem });
  }

  // ── plumbing ──────────────────────────────────────────────────────────────────────────────────────

  private setStatus(s: CoreStatus): void {
    this.status = s;
    this.wake();
    for (const listener of [...this.statusListeners]) listener(s);
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  private changed(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /** Waits for the core to end: its exit when it is our child, else its pid. */
  private async gone(pid: number, child: ChildProcess | null, ms: number): Promise<boolean> {
    const exit = child ? this.exits.get(child) : undefined;
    if (exit) return Promise.race([exit.then(() => true), sleep(ms).then(() => false)]);
    const end = this.d.now() + ms;
    while (this.d.now() < end) {
      if (!isAlive(pid)) return true;
      await sleep(50);
    }
    return !isAlive(pid);
  }
}

function unavailable(message: string): Result<never> {
  return { ok: false, error: { code: 'core_unavailable', message } };
}

function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** The last lines a core wrote: its one sentence when it could not start. */
class OutputTail {
  private lines: string[] = [];
  private partial = '';

  push(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines = [...this.lines, ...parts].slice(-60);
  }

  text(): string {
    return [...this.lines, this.partial].join('\n');
  }

  /** The core's last `threshold: …` line (how it says why it stopped), without the prefix. */
  lastSentence(): string | null {
    for (const line of [...this.lines, this.partial].reverse()) {
      const m = /^threshold: (.+)$/.exec(line.trim());
      if (m && !/^web UI: /.test(m[1]!)) return m[1]!;
    }
    return null;
  }
}

function spawnProblem(launch: CoreLaunch, err: NodeJS.ErrnoException): string {
  const why = `${launch.command}: ${err.code ?? err.message}`;
  return launch.runtime.kind === 'node'
    ? `The core could not start (${why}): start Threshold with npm start in its checkout, which runs the core on the Node that ran npm ci, or set THRESHOLD_NODE to that Node.`
    : `The core could not start (${why}): reinstall Threshold.`;
}

function startProblem(launch: CoreLaunch, exited: string, tail: OutputTail): string {
  const mismatch = nativeModuleMismatch(tail.text(), launch.runtime);
  if (mismatch) return mismatch;
  const sentence = tail.lastSentence();
  if (sentence) return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
  const last = tail.text().trim().split('\n').pop()?.trim();
  return `The core stopped before it was ready (${exited})${last ? `, saying: ${last}` : ''}: see the terminal for its output, fix what it names, then start Threshold again.`;
}
