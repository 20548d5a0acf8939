// The call pipeline: one owner for a call from the model's request to its one result. It judges the call
// (the gate), records it, lets the gate answer or park it and waits (the gate's waiters), runs it (the
// tool's runner) and records how it ended, every tool the same way. Calls from `ctl` and from other
// agents' hooks take the same path without a runner (`review`): their caller runs the call, hands it back
// to its agent, or asks `runAllowed` to run it. Every row and event of a call comes from the recorder
// (./record.ts); the gate only decides.
import type { ExecutionOutcome } from '../../common/approvals';
import type { CallOrigin } from '../../common/origin';
import { contentHash } from '../gate/content-hash';
import { originOf, QUITTING, verdictOf, type ApprovalGate, type GateCall, type GateVerdict, type Judged } from '../gate/gate';
import { redactedJson, sanitiseErrorText, type Redactor } from '../redact/redactor';
import type { CallPlace } from '../store/call-lifecycle';
import type { NewCall } from '../store/calls-repo';
import { newId } from '../store/ids';
import { isBuiltinTool, isMcpTool, parseToolName, type ToolName } from '../policy/tools';
import type { CallRecorder, EndOfRun, RecordResult } from './record';
import type { CommandArgs, CommandReport } from './run-command';
import type { OwnRunner, OwnRunners, RunContext, Runner, Runners, ToolOutput } from './runner';

/** A tool call as the model made it, handed over by the agent loop. */
export interface ModelCall {
  /** The model's id for the call: the chat and a restart find the call by it. */
  toolCallId: string;
  /** The tool as the gate names it (MCP tools as mcp.<server>.<tool>). */
  tool: string;
  args: unknown;
  /** Set when the call is not valid (arguments that do not parse, no such tool): what the model is told when it is refused. */
  invalid?: string | null;
  /** Arguments nested deeper than the model SDK parses: the gate records and refuses the call, whatever tool it names. */
  tooDeep?: boolean;
}

/** The turn a call belongs to. */
export interface TurnRef {
  sessionId: string;
  turnId: string;
  kind: 'reactive' | 'unattended';
}

/** The one result a model's call gets. */
export interface ToolResult {
  text: string;
  isError: boolean;
  /** The turn must stop (deny, expiry, cancellation). */
  stopTurn: boolean;
}

/** An allowed call, to be run: its id, what it is, where it runs and the decision that allowed it. */
export interface AllowedCall extends Omit<RunContext, 'signal' | 'workspace'> {
  args: unknown;
  workspace?: string;
}

export interface PipelineOptions {
  gate: ApprovalGate;
  recorder: CallRecorder;
  redactor: Redactor;
  runners: Runners;
  own?: OwnRunners;
  /** Threshold's workspace (Settings may not move it, but tests give each core its own). */
  workspace: () => string;
  now?: () => number;
}

const QUIT_WHILE_WAITING = 'Threshold shut down while this call waited for approval; it did not run. The approval stays pending: if the user approves it later, you will be asked to make the call again.';

export class CallPipeline {
  private readonly now: () => number;

  constructor(private readonly o: PipelineOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The same pipeline with more runners (the agent's own: questions, notifications, its MCP servers). */
  withRunners(runners: Runners, own: OwnRunners = {}): CallPipeline {
    return new CallPipeline({ ...this.o, runners: { ...this.o.runners, ...runners }, own: { ...this.o.own, ...own } });
  }

  /**
   * A model's call, from request to its one result: judged, recorded, answered or parked and awaited,
   * run by its runner, its outcome recorded. Never throws for a call's sake: failures are results.
   */
  async handle(call: ModelCall, turn: TurnRef, signal: AbortSignal): Promise<ToolResult> {
    const tool = parseToolName(call.tool);
    const workspace = this.o.workspace();
    const seen = { sessionId: turn.sessionId, turnId: turn.turnId, toolCallId: call.toolCallId, tool };
    this.o.recorder.announce(seen, 'received');
    this.o.recorder.announce(seen, 'validating');
    const own = call.invalid || call.tooDeep ? null : this.ownRunner(tool, call.args);
    if (own) return this.handleOwn(own, { tool, args: call.args, toolCallId: call.toolCallId, turn, workspace, signal });

    const runner = call.invalid ? undefined : this.runnerFor(tool);
    const args = call.args as Record<string, unknown>;
    const isObject = typeof call.args === 'object' && call.args !== null;
    const cwd = isObject && runner?.cwd ? runner.cwd(args, workspace) : workspace;
    const preview = isObject && runner?.preview ? runner.preview(args, cwd) : null;
    const verdict = await this.review({ sessionId: turn.sessionId, turnId: turn.turnId, turnKind: turn.kind, tool, args: call.args, cwd, preview, modelCallId: call.toolCallId, origin: { kind: 'agent' } }, signal);
    if (!verdict.run) {
      const why = call.invalid ?? (signal.reason === QUITTING && verdict.approvalId ? QUIT_WHILE_WAITING : verdict.message);
      return { text: why, isError: true, stopTurn: verdict.stopTurn };
    }
    const out = await this.runAllowed({ callId: verdict.callId, sessionId: turn.sessionId, tool, args: call.args, cwd, evaluation: verdict.evaluation }, signal);
    return { text: out.text, isError: out.isError, stopTurn: false };
  }

  /**
   * A call without a runner (`ctl`'s approval.request, another agent's hook, the MCP gateway): judged,
   * recorded, answered at once or parked until a decision. Its caller runs it (runAllowed), hands it back
   * (handOff), or records how it ended (recordOutcome). Never throws: failures refuse the call.
   */
  async review(call: GateCall, signal?: AbortSignal): Promise<GateVerdict> {
    const judged = await this.o.gate.judge(call);
    const recorded = this.o.recorder.commit({ kind: 'received', call: this.rowOf(judged), place: this.placeOf(call) });
    if (!recorded.ok) return verdictOf(judged, false, { message: `Threshold could not record this call (${recorded.error.message}), so it was refused.` });
    return this.o.gate.shortcut(judged) ?? (await this.o.gate.park(judged, signal));
  }

  /**
   * Runs a call the gate allowed with its tool's runner (or the one given): marked started first, its
   * outcome recorded from what the runner returns, or as failed (interrupted when stopped) if it throws.
   */
  async runAllowed<T extends ToolOutput = ToolOutput>(call: AllowedCall, signal?: AbortSignal, runner?: Runner): Promise<T | ToolOutput> {
    const use = runner ?? this.runnerFor(call.tool);
    const stop = signal ?? new AbortController().signal;
    const started = this.now();
    let out: ToolOutput;
    try {
      this.o.recorder.started(call.callId);
      if (!use) throw new Error(`there is no runner for ${call.tool} here`);
      out = await use.run(call.args as Record<string, unknown>, { callId: call.callId, tool: call.tool, sessionId: call.sessionId, cwd: call.cwd, workspace: call.workspace ?? this.o.workspace(), evaluation: call.evaluation, signal: stop });
    } catch (err) {
      const text = `The tool failed: ${(err as Error).message}`;
      out = { text, isError: true, status: stop.aborted ? 'interrupted' : 'failed', error: text };
    }
    this.o.recorder.ended(call.callId, {
      status: out.status,
      exit_code: out.exitCode ?? null,
      signal: out.signal ?? null,
      duration_ms: out.durationMs !== undefined ? out.durationMs : this.now() - started,
      error: out.error !== undefined ? out.error : out.isError ? out.text.slice(0, 512) : null,
    });
    return out as T;
  }

  /** Runs an allowed command (`ctl approval.request --execute`, a hook's jail ticket): the report with its run, checkpoint and offers. */
  async runCommand(call: Omit<AllowedCall, 'tool' | 'args'> & { command: string }, signal?: AbortSignal): Promise<CommandReport> {
    const args: CommandArgs = { command: call.command };
    return (await this.runAllowed<CommandReport>({ ...call, tool: 'run_command', args }, signal)) as CommandReport;
  }

  /** A call the model made after its turn stopped: recorded (never judged, cancelled); the model is told by the caller. */
  async notReviewed(call: ModelCall, turn: TurnRef): Promise<void> {
    const tool = parseToolName(call.tool);
    const workspace = this.o.workspace();
    const runner = this.runnerFor(tool);
    const cwd = runner?.cwd && typeof call.args === 'object' && call.args ? runner.cwd(call.args as Record<string, unknown>, workspace) : workspace;
    const argsRedacted = await this.o.redactor.redactValue(call.args ?? {});
    const gateCall: GateCall = { sessionId: turn.sessionId, turnId: turn.turnId, turnKind: turn.kind, tool, args: call.args, cwd, modelCallId: call.toolCallId };
    const row: NewCall = {
      id: newId('call'),
      session_id: turn.sessionId,
      turn_id: turn.turnId,
      tool,
      args_redacted: redactedJson(argsRedacted),
      content_hash: contentHash(gateCall),
      cwd: this.o.redactor.redactTextSync(cwd),
      class: null,
      effects: null,
      decision: null,
      decider: null,
      explanation: this.o.redactor.redactTextSync('The turn stopped before this call was judged; it did not run.'),
      created_at: this.now(),
      model_call_id: call.toolCallId,
      origin: JSON.stringify(originOf(gateCall)),
    };
    const r = this.o.recorder.commit({ kind: 'never_reviewed', by: { kind: 'turn_stopped' }, call: row, place: this.placeOf(gateCall) });
    // Not recorded (a failing store): the chat still learns the call did not run.
    if (!r.ok) this.o.recorder.announce({ sessionId: turn.sessionId, turnId: turn.turnId, toolCallId: call.toolCallId, tool }, 'cancelled');
  }

  /** Another agent's allowed call goes back to that agent, which runs it itself: false when it was not scheduled. */
  handOff(callId: string, agent: string): boolean {
    return this.o.recorder.commit({ kind: 'handed_off', callId, agent }).ok;
  }

  /** How an allowed call ended when its caller ran it (a control client, a ticket that lapsed). */
  recordOutcome(callId: string, outcome: EndOfRun): RecordResult<ExecutionOutcome> {
    return this.o.recorder.ended(callId, outcome);
  }

  /** Stop: every approval a turn waits for is cancelled. */
  cancelTurn(turnId: string): void {
    this.o.gate.cancelTurn(turnId);
  }

  /** The runner of a tool here (none for a question, a notification, or a tool this pipeline cannot run). */
  runnerFor(tool: ToolName): Runner | undefined {
    if (isMcpTool(tool)) return this.o.runners.mcp;
    return isBuiltinTool(tool) && tool !== 'ask_user' && tool !== 'notify_user' ? this.o.runners[tool] : undefined;
  }

  private ownRunner(tool: ToolName, args: unknown): OwnRunner | null {
    const own = tool === 'ask_user' || tool === 'notify_user' ? this.o.own?.[tool as 'ask_user' | 'notify_user'] : undefined;
    return own?.accepts(args) ? own : null;
  }

  /**
   * A question or a notification: the agent answers it itself (no level, rule, grant or reviewer does);
   * it is recorded when done, with what the policy says of it, so every call the model made has a row.
   */
  private async handleOwn(runner: OwnRunner, c: { tool: ToolName; args: unknown; toolCallId: string; turn: TurnRef; workspace: string; signal: AbortSignal }): Promise<ToolResult> {
    const { turn } = c;
    if (runner.waits) this.o.recorder.announce({ sessionId: turn.sessionId, turnId: turn.turnId, toolCallId: c.toolCallId, tool: c.tool }, 'awaiting_approval', runner.waits.detail);
    const started = this.now();
    const out = await runner.run(c.args as Record<string, unknown>, { sessionId: turn.sessionId, turnId: turn.turnId, turnKind: turn.kind, toolCallId: c.toolCallId, signal: c.signal });
    const gateCall: GateCall = { sessionId: turn.sessionId, turnId: turn.turnId, turnKind: turn.kind, tool: c.tool, args: c.args, cwd: c.workspace, modelCallId: c.toolCallId };
    const judged = await this.o.gate.judge(gateCall);
    const at = this.now();
    const error = out.error !== undefined ? out.error : null;
    this.o.recorder.commit({
      kind: 'handled_by_agent',
      by: judged.evaluation.decider,
      outcome: { status: out.status, exit_code: null, signal: null, duration_ms: at - started, error: error ? sanitiseErrorText(this.o.redactor, error) : null, recorded_at: at },
      call: this.rowOf(judged),
      place: this.placeOf(gateCall),
    });
    return { text: out.text, isError: out.isError, stopTurn: false };
  }

  /** Where a call's row belongs: another agent's session is listed with its title and project (redacted). */
  private placeOf(call: GateCall): CallPlace {
    const x = call.external;
    const r = this.o.redactor;
    return { sessionId: call.sessionId, turnId: call.turnId, turnKind: call.turnKind, ...(x ? { session: { title: r.redactTextSync(x.sessionTitle), workspace: r.redactTextSync(x.workspace) } } : {}) };
  }

  /** A judged call's row: what it is and what the policy said, redacted, before anything is decided. */
  private rowOf(j: Judged): NewCall {
    const { call, evaluation } = j;
    return {
      id: j.callId,
      session_id: call.sessionId,
      turn_id: call.turnId,
      tool: call.tool,
      args_redacted: redactedJson(j.argsRedacted),
      content_hash: j.hash,
      cwd: call.cwd ? this.o.redactor.redactTextSync(call.cwd) : null,
      class: evaluation.class,
      effects: JSON.stringify(evaluation.effects),
      decision: evaluation.decision,
      decider: evaluation.decider,
      explanation: j.explanation,
      created_at: this.now(),
      model_call_id: call.modelCallId ?? null,
      origin: JSON.stringify(originOf(call) satisfies CallOrigin),
    };
  }
}

