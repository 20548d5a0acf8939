// What runs a call once the gate let it: one runner per tool, each taking only what it needs, each
// returning a ToolOutput. The pipeline marks the call started before its runner and records the outcome
// from that output, the same way for every tool.
import type { ExecutionStatus } from '../../common/approvals';
import type { Evaluation } from '../policy/evaluate';
import type { BuiltinToolName, ToolName } from '../policy/tools';

export interface ToolOutput {
  /** What the model (or the caller) is told. */
  text: string;
  isError: boolean;
  status: ExecutionStatus;
  /** Recorded with the outcome when the runner knows them (a process's exit). */
  exitCode?: number | null;
  signal?: string | null;
  /** How long it ran; default: measured by the pipeline around the runner. */
  durationMs?: number | null;
  /** The error recorded with the outcome; default: the start of the text when it is an error. */
  error?: string | null;
}

/** The allowed call as a runner sees it. */
export interface RunContext {
  callId: string;
  /** The tool as the gate named it (one runner serves every MCP tool). */
  tool: ToolName;
  sessionId: string;
  /** Where the call runs (absolute). */
  cwd: string;
  /** The workspace it may change: another agent's project for its calls, Threshold's own otherwise. */
  workspace: string;
  /** The decision that let it run: the jail class and the undo promise follow from it. */
  evaluation: Evaluation;
  signal: AbortSignal;
}

export interface Runner<A = Record<string, unknown>> {
  run(args: A, ctx: RunContext): Promise<ToolOutput>;
  /** What the card shows beside the call (a diff for an edit, the real path and application for an open). */
  preview?(args: A, cwd: string): string | null;
  /** Where the call runs when its arguments say (a command's cwd); default: the workspace. */
  cwd?(args: A, workspace: string): string;
}

/** A call the agent answers itself (a question, a notification): no level, rule, grant or reviewer answers it. */
export interface OwnRunner<A = Record<string, unknown>> {
  /** Whether these arguments are the tool's (otherwise the gate refuses the call as invalid). */
  accepts(args: unknown): args is A;
  /** The state the chat shows while it waits (a question waits for its answer). */
  waits?: { detail: string };
  run(args: A, ctx: { sessionId: string; turnId: string; turnKind: 'reactive' | 'unattended'; toolCallId: string; signal: AbortSignal }): Promise<ToolOutput>;
}

/** The runners of the tools a pipeline can run: built-in tools by name, every MCP tool through one. */
export type Runners = Partial<Record<Exclude<BuiltinToolName, 'ask_user' | 'notify_user'>, Runner>> & { mcp?: Runner };
export type OwnRunners = Partial<Record<'ask_user' | 'notify_user', OwnRunner>>;

export const succeeded = (text: string): ToolOutput => ({ text, isError: false, status: 'succeeded' });
export const failed = (text: string): ToolOutput => ({ text, isError: true, status: 'failed' });
