// The core's side of another agent's hook: one call that agent is about to make (already mapped onto
// Threshold's tools by main/hooks/tool-map.ts), judged by the same gate as Threshold's own calls, parked
// as a card when it asks, and answered with the decision and the reason the card or the policy gave.
// There is no second gate: this is the call pipeline without a runner (main/calls/pipeline.ts review), with
// the call's origin, its session, the agent's project as the workspace, and what the agent does with an
// allow: runs it itself (handed off), or hands a command to Threshold's jail (a ticket `run` redeems).
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Outcome } from '../../common/approvals';
import type { Class } from '../../common/domain';
import type { DecidedBy } from '../../common/decided-by';
import type { Disposable } from '../../common/disposable';
import type { CheckpointService } from '../calls/checkpoints';
import type { CallPipeline } from '../calls/pipeline';
import { runsOnUndo, unheldCovering, UNHELD_REASON } from '../calls/run-command';
import type { Evaluation } from '../policy/evaluate';
import { EXTERNAL_AGENT_NAMES, type ExternalAgent } from '../../common/external-agents';
import { isCredentialPath, isInside, type PathContext } from '../policy/paths';
import type { ToolName } from '../policy/tools';
import type { Redacted } from '../redact/redactor';

export interface ExternalCallRequest {
  agent: ExternalAgent;
  /**
   * pre_tool_use: the agent is about to run the call. permission_request: the agent is about to ask its
   * own user for it (Codex); the same call allowed moments ago is not asked twice.
   */
  event?: 'pre_tool_use' | 'permission_request';
  /** The agent's own session id. */
  sessionId: string;
  /** The agent's turn (prompt) id, when it has one. */
  turnId?: string | null;
  /** The agent's id for this tool call. */
  agentCallId?: string | null;
  /** Threshold's tool and arguments (the mapped call). */
  tool: ToolName;
  args: Record<string, unknown>;
  /** Where the call runs and the agent's project (absolute). */
  cwd: string;
  workspace: string;
  /** The hook can rewrite an allowed command to run in Threshold's jail ([hooks] jail = true, Claude Code). */
  jail: boolean;
}

export interface ExternalVerdict {
  decision: 'allow' | 'deny';
  /** How the card ended, when the call asked. */
  outcome: Outcome | null;
  /** The card's or the policy's reason: what the agent (and its model) is told. */
  reason: string;
  callId: string;
  approvalId: string | null;
  decidedBy: string;
  /** The same as data. */
  by: DecidedBy;
  class: Class;
  /** An allowed command that runs in Threshold's jail: the one-time ticket `threshold hook run` redeems. */
  run: { token: string; expiresAt: number } | null;
  /** The checkpoint taken before an allowed file edit, so it can be undone. */
  checkpointId: string | null;
  /** The workspace the call was judged against (the agent's project, or Threshold's own when that one was refused). */
  workspace: string;
}

export interface RunReport {
  status: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** What Threshold adds: where it ran, what the jail blocked, the checkpoint and how to undo it. */
  notes: string[];
  checkpointId: string | null;
}

interface Ticket {
  callId: string;
  sessionId: string;
  command: string;
  cwd: string;
  workspace: string;
  evaluation: Evaluation;
  agent: string;
  timer: NodeJS.Timeout;
}

/** How long the agent has to run a command Threshold allowed into its jail before the ticket lapses. */
export const RUN_TICKET_TTL_MS = 10 * 60_000;
/** How long an allow answers the agent's own permission prompt for the same call (Codex asks after its hook). */
const RECENT_ALLOW_MS = 2 * 60_000;

/** What of the core external calls use: the pipeline without a runner, checkpoints, the paths, the redaction. */
export interface ExternalCallsDeps {
  calls: Pick<CallPipeline, 'review' | 'runCommand' | 'handOff' | 'recordOutcome'>;
  checkpoints: Pick<CheckpointService, 'before'>;
  paths: () => PathContext;
  redact: (text: string) => Redacted<string>;
}

/** The external calls of one core: their verdicts and the tickets of commands that run in the jail. */
export class ExternalCalls implements Disposable {
  private readonly tickets = new Map<string, Ticket>();
  private readonly recentAllows = new Map<string, { verdict: ExternalVerdict; until: number }>();

  private readonly ticketTtlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly core: ExternalCallsDeps,
    o: { ticketTtlMs?: number; now?: () => number } = {},
  ) {
    this.ticketTtlMs = o.ticketTtlMs ?? RUN_TICKET_TTL_MS;
    this.now = o.now ?? Date.now;
  }

  /** Judges one call another agent is about to make; waits for the card when it asks. Never throws. */
  async review(req: ExternalCallRequest, signal?: AbortSignal): Promise<ExternalVerdict> {
    const core = this.core;
    const paths = core.paths();
    const name = EXTERNAL_AGENT_NAMES[req.agent];
    const workspace = acceptableWorkspace(req.workspace, paths) ?? paths.workspace;
    const cwd = isAbsolute(req.cwd) ? realOrLexical(req.cwd) : workspace;
    const sessionId = `${req.agent}-${idPart(req.sessionId)}`;
    const shownWorkspace = core.redact(workspace);
    const jailed = req.jail && req.tool === 'run_command';
    const key = [sessionId, req.tool, JSON.stringify(req.args), cwd].join('\0');
    if (req.event === 'permission_request') {
      const recent = this.recentAllows.get(key);
      if (recent && recent.until > this.now()) return { ...recent.verdict, run: null, reason: `Threshold allowed this call moments ago (call ${recent.verdict.callId}): ${recent.verdict.reason}` };
    }
    const answer = await this.judge(req, { name, workspace, cwd, sessionId, shownWorkspace, jailed }, signal);
    if (answer.decision === 'allow') {
      for (const [k, v] of this.recentAllows) if (v.until <= this.now()) this.recentAllows.delete(k);
      this.recentAllows.set(key, { verdict: answer, until: this.now() + RECENT_ALLOW_MS });
    }
    return answer;
  }

  private async judge(req: ExternalCallRequest, c: { name: string; workspace: string; cwd: string; sessionId: string; shownWorkspace: string; jailed: boolean }, signal?: AbortSignal): Promise<ExternalVerdict> {
    const { core } = this;
    const { name, workspace, cwd, sessionId, shownWorkspace, jailed } = c;
    const verdict = await core.calls.review(
      {
        sessionId,
        turnId: req.turnId ? `${req.agent}-${idPart(req.turnId)}` : null,
        turnKind: 'reactive',
        tool: req.tool,
        args: req.args,
        cwd,
        modelCallId: req.agentCallId ?? undefined,
        origin: { kind: 'external', name, workspace: shownWorkspace },
        external: { workspace, runsOutsideJail: !jailed, foreignMcp: true, sessionTitle: `${name} in ${shownWorkspace}` },
      },
      signal,
    );
    const e = verdict.evaluation;
    const base = { outcome: verdict.outcome, callId: verdict.callId, approvalId: verdict.approvalId, decidedBy: e.decidedBy, by: e.decider, class: e.class, run: null, checkpointId: null, workspace };
    if (!verdict.run) return { ...base, decision: 'deny', reason: verdict.message || e.explanation };
    const allowed = verdict.outcome ? `Approved in Threshold (${verdict.outcome}).` : e.explanation;

    if (jailed) {
      const token = this.issue({ callId: verdict.callId, sessionId, command: String(req.args['command'] ?? ''), cwd, workspace, evaluation: e, agent: name });
      return { ...base, decision: 'allow', reason: `${allowed} It runs in Threshold's jail, after a checkpoint of ${shownWorkspace}.`, run: { token, expiresAt: this.now() + this.ticketTtlMs } };
    }

    // A file edit the agent makes itself is undoable only if the workspace is checkpointed first.
    let checkpointId: string | null = null;
    const target = req.tool === 'write_file' || req.tool === 'edit_file' ? String(req.args['path'] ?? '') : null;
    if (target !== null && isInside(resolve(cwd, target), workspace)) {
      try {
        const cp = await core.checkpoints.before(workspace, { sessionId, callId: verdict.callId });
        checkpointId = cp.id;
        if (runsOnUndo(e) && unheldCovering(resolve(cwd, target), cp.unheld)) {
          const reason = `Refused: ${target} was not changed because ${UNHELD_REASON}. Ask the person before changing it.`;
          core.calls.recordOutcome(verdict.callId, { status: 'not_run', exit_code: null, signal: null, duration_ms: 0, error: reason });
          return { ...base, decision: 'deny', reason, checkpointId };
        }
      } catch (err) {
        const reason = `Threshold could not checkpoint ${shownWorkspace} before this edit (${(err as Error).message}), so it was refused.`;
        core.calls.recordOutcome(verdict.callId, { status: 'not_run', exit_code: null, signal: null, duration_ms: 0, error: reason });
        return { ...base, decision: 'deny', reason };
      }
    }
    core.calls.handOff(verdict.callId, name);
    return { ...base, decision: 'allow', reason: allowed, checkpointId };
  }

  private issue(t: Omit<Ticket, 'timer'>): string {
    // Hex, not base64url: a ticket is an argument of the rewritten command, and one in 64 base64url
    // tickets began with '-', which `threshold hook run` read as an option (the command did not run).
    const token = randomBytes(24).toString('hex');
    const timer = setTimeout(() => this.lapse(token), this.ticketTtlMs);
    timer.unref();
    this.tickets.set(token, { ...t, timer });
    return token;
  }

  private lapse(token: string): void {
    const t = this.tickets.get(token);
    if (!t) return;
    this.tickets.delete(token);
    this.core.calls.recordOutcome(t.callId, { status: 'not_run', exit_code: null, signal: null, duration_ms: null, error: `${t.agent} did not run the command in Threshold's jail within ${Math.round(this.ticketTtlMs / 1000)} s of its approval.` });
  }

  /**
   * Runs the command a ticket names in the jail (once: the ticket is spent before it starts). Null for a
   * ticket that is unknown, spent or lapsed.
   */
  async run(token: string, signal?: AbortSignal): Promise<RunReport | null> {
    const t = this.tickets.get(token);
    if (!t) return null;
    this.tickets.delete(token);
    clearTimeout(t.timer);
    const report = await this.core.calls.runCommand({ callId: t.callId, sessionId: t.sessionId, command: t.command, cwd: t.cwd, evaluation: t.evaluation, workspace: t.workspace }, signal);
    const redact = (s: string) => this.core.redact(s);
    const notes: string[] = report.text
      .split('\n')
      .filter((l) => l.startsWith('[threshold]'))
      .map(redact);
    if (report.checkpoint) notes.push(`[threshold] Ran in Threshold's jail after checkpoint ${report.checkpoint.id}; undo it with: threshold checkpoints restore ${report.checkpoint.id}`);
    if (!report.result) notes.push(`[threshold] ${redact(report.text)}`);
    return {
      status: report.status,
      exitCode: report.result?.exitCode ?? null,
      stdout: redact(report.result?.stdout.text ?? ''),
      stderr: redact(report.result?.stderr.text ?? ''),
      notes,
      checkpointId: report.checkpoint?.id ?? null,
    };
  }

  dispose(): void {
    for (const t of this.tickets.values()) clearTimeout(t.timer);
    this.tickets.clear();
    this.recentAllows.clear();
  }
}

/** An id another agent chose, as a safe part of ours: what is not a plain id character goes, at most 48 kept. */
function idPart(raw: string): string {
  const s = raw.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 48);
  return s || 'unnamed';
}

function realOrLexical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/**
 * The agent's project as a workspace, or null when it cannot be one: not absolute, not there, the root,
 * the home folder or a folder above it, a credential location, or Threshold's own directories. A refused
 * project is judged against Threshold's own workspace, so the agent's writes ask.
 */
export function acceptableWorkspace(raw: string, paths: PathContext): string | null {
  if (!raw || !isAbsolute(raw)) return null;
  let real: string;
  try {
    real = realpathSync(raw);
  } catch {
    return null;
  }
  if (real === '/' || isInside(paths.home, real) || isCredentialPath(real, paths)) return null;
  if (paths.appDirs.some((d) => isInside(real, d) || isInside(d, real))) return null;
  return real;
}
