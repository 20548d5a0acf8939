// The core's side of `threshold mcp-gateway`: the MCP servers configured in threshold.toml, run and
// supervised by the core, their tools listed for any MCP client, and every tools/call judged by the gate
// (at least write; annotations only tighten) before it reaches the server. A server that stops is started
// again with growing pauses; one that cannot be started is reported (listed with its problem, its tools
// still listed, a call to them answered with why), never silently dropped.
import type { Disposable } from '../../common/disposable';
import type { McpManager, McpProblem } from '../calls/mcp-servers';
import type { CallPipeline } from '../calls/pipeline';
import type { ToolOutput } from '../calls/runner';
import type { CoreEventBus } from '../gate/events';
import type { Redacted } from '../redact/redactor';

/** What of the core the gateway uses: the pipeline, Threshold's workspace, the redaction, and session notes. */
export interface GatewayDeps {
  calls: Pick<CallPipeline, 'review' | 'runAllowed'>;
  workspace: () => string;
  redact: (text: string) => Redacted<string>;
  events: Pick<CoreEventBus, 'emit'>;
}

export interface GatewayTool {
  server: string;
  tool: string;
  description: string | null;
  inputSchema: unknown;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}

export interface ServerState {
  name: string;
  state: 'running' | 'stopped' | 'failed';
  /** The last thing that went wrong with it, in words. */
  problem: string | null;
  restarts: number;
}

export interface GatewayCallRequest {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** The MCP client's name as it introduced itself (shown on the card: "Claude Desktop through the MCP gateway"). */
  client: string;
  /** The gateway's session with that client. */
  sessionId: string;
}

export interface GatewayCallResult {
  decision: 'allow' | 'deny';
  reason: string;
  callId: string;
  content: unknown[];
  isError: boolean;
  structuredContent?: unknown;
}

/** Pauses before restarting a server that stopped: 1 s, 2 s, 4 s, 8 s, 16 s; then it is reported as failed. */
const RESTART_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];

export class McpGatewayService implements Disposable {
  private readonly states = new Map<string, ServerState>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stopListening: () => void;
  private disposed = false;

  constructor(
    private readonly core: GatewayDeps,
    private readonly mcp: McpManager,
    private readonly log: (line: string) => void = () => {},
    private readonly delays: readonly number[] = RESTART_DELAYS_MS,
  ) {
    for (const name of mcp.configured) this.states.set(name, { name, state: 'stopped', problem: null, restarts: 0 });
    this.stopListening = mcp.onProblem((p) => this.heard(p));
  }

  private heard(p: McpProblem): void {
    const s = this.states.get(p.server);
    if (!s || this.disposed) return;
    // A server's last words may hold anything it printed: redacted before they are shown or logged.
    const said = this.core.redact(`MCP server "${p.server}": ${p.message}`);
    s.problem = this.core.redact(p.message);
    this.log(said);
    this.core.events.emit('session.note', { session_id: null, text: said });
    if (this.mcp.isRunning(p.server)) return;
    if (s.restarts >= this.delays.length) {
      s.state = 'failed';
      return;
    }
    s.state = 'stopped';
    const delay = this.delays[s.restarts]!;
    s.restarts++;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (this.disposed) return;
      void this.mcp.ensure(p.server).then((ok) => {
        if (ok) s.state = 'running';
      });
    }, delay);
    t.unref();
    this.timers.add(t);
  }

  /** Every configured server's tools (a stopped server's as it last listed them) and each server's state. */
  async listTools(): Promise<{ tools: GatewayTool[]; servers: ServerState[] }> {
    await this.mcp.tools();
    const tools: GatewayTool[] = [];
    for (const name of this.mcp.configured) {
      const s = this.states.get(name)!;
      if (this.mcp.isRunning(name)) s.state = 'running';
      else if (s.state === 'running') s.state = 'stopped';
      if (!this.mcp.isRunning(name) && !this.mcp.knownTools(name).length) s.state = s.restarts >= this.delays.length ? 'failed' : 'stopped';
      for (const t of this.mcp.knownTools(name)) {
        const a = t.declaration.annotations ?? {};
        tools.push({ server: name, tool: t.tool, description: t.description ?? null, inputSchema: t.inputSchema, annotations: { readOnlyHint: a.readOnlyHint === true, destructiveHint: a.destructiveHint === true, openWorldHint: a.openWorldHint === true } });
      }
    }
    return { tools, servers: [...this.states.values()].map((s) => ({ ...s })) };
  }

  /** Judges one tools/call (a card when it asks), then runs it on its server; the pipeline records how it ended. */
  async callTool(req: GatewayCallRequest, signal?: AbortSignal): Promise<GatewayCallResult> {
    const core = this.core;
    const workspace = core.workspace();
    const name = `${req.client} through the MCP gateway`;
    const tool = `mcp.${req.server}.${req.tool}` as const;
    const verdict = await core.calls.review(
      {
        sessionId: `mcp-${idPart(req.sessionId)}`,
        turnId: null,
        turnKind: 'reactive',
        tool,
        args: req.args,
        cwd: workspace,
        origin: { kind: 'external', name, workspace: null },
        external: { workspace, runsOutsideJail: false, foreignMcp: false, sessionTitle: name },
      },
      signal,
    );
    const e = verdict.evaluation;
    if (!verdict.run) {
      // A server that is down has no tools to judge by: say so, not only that the tool is unknown.
      const s = this.states.get(req.server);
      const down = s && !this.mcp.isRunning(req.server) ? ` The MCP server "${req.server}" is ${s.state}${s.problem ? ` (${s.problem})` : ''}.` : '';
      const reason = (verdict.message || e.explanation) + down;
      return { decision: 'deny', reason, callId: verdict.callId, content: [{ type: 'text', text: `Threshold did not let this call run. ${reason}` }], isError: true };
    }
    const reason = verdict.outcome ? `Approved in Threshold (${verdict.outcome}).` : e.explanation;
    // The server's answer goes back to the client as it is; the outcome is recorded like any call's.
    type Raw = ToolOutput & { content: unknown[]; structuredContent?: unknown };
    const out = (await core.calls.runAllowed<Raw>({ callId: verdict.callId, tool, sessionId: `mcp-${idPart(req.sessionId)}`, args: req.args, cwd: workspace, evaluation: e }, signal, {
      run: async (_args, ctx): Promise<Raw> => {
        try {
          const r = await this.mcp.callRaw(req.server, req.tool, req.args, ctx.signal);
          return { text: '', isError: r.isError, status: r.isError ? 'failed' : 'succeeded', error: r.isError ? 'the MCP server answered with an error' : null, content: r.content, ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}) };
        } catch (err) {
          const why = (err as Error).message;
          return { text: why, isError: true, status: ctx.signal.aborted ? 'interrupted' : 'failed', error: why, content: [{ type: 'text', text: `Threshold allowed this call, but the MCP server did not answer: ${why}` }] };
        }
      },
    })) as Raw;
    return { decision: 'allow', reason, callId: verdict.callId, content: out.content ?? [{ type: 'text', text: out.text }], isError: out.isError, ...(out.structuredContent !== undefined ? { structuredContent: out.structuredContent } : {}) };
  }

  dispose(): void {
    this.disposed = true;
    this.stopListening();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

function idPart(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 48) || 'unnamed';
}
