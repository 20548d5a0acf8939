// The run_command runner: the jail class follows the decision (read: nothing writable; write: the
// workspace and granted paths; network only for a call decided with the network effect), a checkpoint
// comes first when the workspace may change, and a denial by the jail is explained to the model and
// offered to the user. The pipeline records how it ended (main/calls/pipeline.ts).
import type { ExecutionStatus } from '../../common/approvals';
import { JailUnavailableError, type Executor } from '../../executor/run';
import type { JailClass, RunResult } from '../../executor/types';
import type { ExecutorConfig } from '../config/load';
import type { Evaluation } from '../policy/evaluate';
import { DEFAULT_ALLOW_HOSTS } from '../../common/hosts';
import type { PathContext } from '../policy/paths';
import { crashPoint } from '../gate/crash-hook';
import type { CheckpointService, TakenCheckpoint } from './checkpoints';
import type { RunContext, Runner, ToolOutput } from './runner';
import type { ConsentOffer, SandboxConsent } from './sandbox-consent';

export type CommandArgs = { command: string; cwd?: string };

/** How a command ended: what the model is told and what is recorded, with the run, the checkpoint and the offers. */
export interface CommandReport extends ToolOutput {
  result: RunResult | null;
  checkpoint: TakenCheckpoint | null;
  offers: ConsentOffer[];
  error: string | null;
}

/** The jail a decision earns. An auto-edit allow is confined: no network, whatever the command can reach. */
export function jailClassFor(e: Evaluation): JailClass {
  if (e.class === 'read' && !e.effects.includes('network')) return 'read';
  if (e.effects.includes('network') && !e.confined) return 'network';
  return 'write';
}

export class CommandRunner implements Runner<CommandArgs> {
  constructor(
    private readonly o: {
      executor: Executor;
      checkpoints: CheckpointService;
      consent: SandboxConsent;
      config: () => ExecutorConfig;
      /** [network] allow_hosts; the session's host grants are added per call. Absent: the default allowlist. */
      allowHosts?: () => readonly string[];
      paths: () => PathContext;
      raiseOffer: (offer: ConsentOffer) => void;
      /** Live output for the UI. */
      output?: (callId: string, stream: 'stdout' | 'stderr', chunk: string) => void;
    },
  ) {}

  /** A relative cwd is the workspace's folder of that name. */
  cwd(args: CommandArgs, workspace: string): string {
    const c = args?.cwd;
    if (typeof c !== 'string' || !c) return workspace;
    return c.startsWith('/') ? c : `${workspace}/${c}`;
  }

  /** What the egress proxy lets through for a call of this session: the allowlist and the host grants in force now. */
  allowHostsFor(sessionId: string): string[] {
    return [...(this.o.allowHosts?.() ?? DEFAULT_ALLOW_HOSTS), ...this.o.consent.hosts(sessionId)];
  }

  async run(args: CommandArgs, ctx: RunContext): Promise<CommandReport> {
    const run = ctx;
    const paths = { ...this.o.paths(), workspace: run.workspace };
    const cls = jailClassFor(run.evaluation);
    const cfg = this.o.config();
    let checkpoint: TakenCheckpoint | null = null;
    try {
      if (cls !== 'read') checkpoint = await this.o.checkpoints.before(paths.workspace, { sessionId: run.sessionId, callId: run.callId });
    } catch (err) {
      const error = `Threshold could not checkpoint the workspace before this command (${(err as Error).message}), so it did not run.`;
      return { status: 'failed', isError: true, exitCode: null, signal: null, durationMs: 0, result: null, checkpoint: null, offers: [], text: error, error };
    }
    let result: RunResult;
    const output = this.o.output ? (stream: 'stdout' | 'stderr', chunk: string) => this.o.output!(run.callId, stream, chunk) : undefined;
    let running = false;
    try {
      result = await this.o.executor.run(
        {
          argv: ['bash', '-c', args.command],
          cwd: run.cwd,
          env: process.env,
          envAllow: cfg.envAllow,
          jail: { class: cls, ...(cls === 'network' ? { allowHosts: this.allowHostsFor(run.sessionId) } : {}), workspace: paths.workspace, extraWritable: this.o.consent.writable(run.sessionId), grantedCodePaths: this.o.consent.codePaths(run.sessionId), grantedReadable: this.o.consent.readable(run.sessionId), unheld: runsOnUndo(run.evaluation) ? (checkpoint?.unheld ?? []) : [] },
          limits: cfg.limits,
          onOutput: (stream, chunk) => {
            if (!running) {
              running = true;
              crashPoint('command_running');
            }
            output?.(stream, chunk);
          },
        },
        run.signal,
      );
    } catch (err) {
      const error = err instanceof JailUnavailableError ? err.message : `The command could not start: ${(err as Error).message}`;
      return { status: 'failed', isError: true, exitCode: null, signal: null, durationMs: 0, result: null, checkpoint, offers: [], text: error, error };
    }
    const status: ExecutionStatus = result.cancelled ? 'interrupted' : result.timedOut ? 'timed_out' : result.exitCode === 0 ? 'succeeded' : 'failed';
    const offers = this.o.consent.offersFor(result.violations, { sessionId: run.sessionId, callId: run.callId });
    const unheld = runsOnUndo(run.evaluation) ? (checkpoint?.unheld ?? []) : [];
    for (const offer of offers) {
      if (unheldCovering(offer.attempted, unheld)) offer.reason = UNHELD_REASON;
      this.o.raiseOffer(offer);
    }
    const error = status === 'succeeded' ? null : result.memory?.exceeded ? memoryReason(result.memory.limitBytes) : firstLines(result.stderr.text) || `exit ${result.exitCode ?? result.signal}`;
    return { status, isError: status !== 'succeeded', exitCode: result.exitCode, signal: result.signal, durationMs: result.durationMs, result, checkpoint, offers, text: modelText(result, status, cls, offers, unheld), error };
  }
}

/**
 * Whether a call runs on the promise that it can be undone: it runs unprompted (no person approved
 * it) below the full level. Such a call may not change what its checkpoint does not hold; a call a
 * person approved, or any call at full, may.
 */
export function runsOnUndo(e: Pick<Evaluation, 'decision' | 'decider'>): boolean {
  return e.decision === 'allow' && !(e.decider.kind === 'level' && e.decider.level === 'full');
}

/** Why a path the checkpoint does not hold is read-only at auto-edit: the card and the model say this. */
export const UNHELD_REASON = 'the checkpoint taken before this command does not hold it (it is ignored by .gitignore or larger than the checkpoint size cap, and not in a regenerable folder such as node_modules or build output), so a change to it could not be undone';

/** The entry of a checkpoint's unheld list that covers a path (the path itself or a folder above it). */
export function unheldCovering(target: string, unheld: readonly string[]): string | undefined {
  return unheld.find((u) => target === u.replace(/\/+$/, '') || target.startsWith(u.endsWith('/') ? u : u + '/'));
}

/** Why a call ended when the memory limit killed it: the history records it, the model reads it. */
export function memoryReason(limitBytes: number): string {
  return `out of memory: the system killed it for using more than its memory limit of ${Math.round(limitBytes / 1024 / 1024)} MB ([executor] max_memory_mb)`;
}

function firstLines(s: string): string {
  return s.trim().split('\n').slice(0, 5).join('\n');
}

/** The tool result the model reads: output, exit status, and plainly, what the sandbox blocked. */
export function modelText(r: RunResult, status: ExecutionStatus, cls: JailClass, offers: readonly ConsentOffer[], unheld: readonly string[] = []): string {
  const parts: string[] = [];
  if (r.stdout.text) parts.push(r.stdout.text.trimEnd());
  if (r.stderr.text) parts.push(`[stderr]\n${r.stderr.text.trimEnd()}`);
  parts.push(
    status === 'succeeded'
      ? '[exit 0]'
      : status === 'timed_out'
        ? `[timed out after ${r.durationMs} ms; the process tree was stopped]`
        : status === 'interrupted'
          ? '[stopped by the user]'
          : `[exit ${r.exitCode ?? r.signal}]`,
  );
  if (r.memory?.exceeded) parts.push(`[threshold] The sandbox, not the task, stopped this command: ${memoryReason(r.memory.limitBytes)}. Use less memory (smaller inputs, streaming, fewer parallel jobs), or ask the user to raise the limit.`);
  for (const v of r.violations) {
    if (v.kind === 'write_denied') {
      const offered = offers.find((o) => v.target === o.attempted);
      parts.push(
        `[threshold] The sandbox, not the task, blocked writing ${v.target}: ${cls === 'read' ? 'this command was approved to read only' : unheldCovering(v.target, unheld) ? UNHELD_REASON : 'it is outside the writable workspace or protected'}. ${offered ? `The user was asked whether to allow ${offered.path}; if they allow it, retry.` : 'Do not try to work around it.'}`,
      );
    } else if (v.kind === 'read_denied') {
      const offered = offers.find((o) => v.target === o.attempted);
      parts.push(
        `[threshold] The sandbox, not the task, hid ${v.target}: the home folder's dot-entries and credential files are not visible to commands. ${offered ? 'The user was asked whether to allow reading it; if they allow it, retry.' : 'Do not try to work around it.'}`,
      );
    } else if (v.kind === 'host_denied') {
      const offered = offers.find((o) => o.access === 'host' && v.target === o.attempted);
      parts.push(
        `[threshold] The sandbox, not the task, blocked the connection to ${v.target}: ${v.evidence}. ${offered ? `The user was asked whether to allow ${offered.path}; if they allow it, retry.` : 'Do not try to work around it.'}`,
      );
    } else if (v.kind === 'network_denied' && cls === 'network') {
      parts.push(
        `[threshold] The sandbox, not the task, blocked network access (${v.target}): in the sandbox the network is reachable only through Threshold's egress proxy (HTTP_PROXY, HTTPS_PROXY and ALL_PROXY are set), and this program went around it. Use a tool or option that honours the proxy variables.`,
      );
    } else if (v.kind === 'network_denied') {
      parts.push(`[threshold] The sandbox, not the task, blocked network access (${v.target}): this command was not approved with network access. Ask for it explicitly if the task needs the network.`);
    }
  }
  if (!r.jailed) parts.push('[threshold] This command ran WITHOUT the jail (unjailed mode is on).');
  return parts.join('\n');
}
