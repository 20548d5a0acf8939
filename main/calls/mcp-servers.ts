// MCP servers (stdio), started on demand. Their tools appear as mcp.<server>.<tool>, at least at the write
// tier; annotations may only tighten how a call is judged. A server that fails to start or crashes is
// reported and left out, never fatal. Servers run outside the jail, as the user (see docs/agent.md).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpServerConfig } from '../config/load';
import type { McpToolDeclaration } from '../policy/tools';

export interface McpToolInfo {
  /** mcp.<server>.<tool> */
  name: string;
  server: string;
  tool: string;
  description?: string;
  inputSchema: unknown;
  declaration: McpToolDeclaration;
}

export interface McpProblem {
  server: string;
  message: string;
}

interface Connection {
  client: Client;
  tools: McpToolInfo[];
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Providers accept function names of at most 64 characters; the model sees mcp__<server>__<tool>. */
const MODEL_NAME_MAX = 64;
/** How much of a server's stderr is kept, for the message when it fails. */
const STDERR_TAIL = 2048;

export class McpManager {
  private readonly connections = new Map<string, Connection>();
  private readonly starting = new Map<string, Promise<Connection | null>>();
  /** The tools each server listed when it last started: kept after a crash, so a call can restart it. */
  private readonly known = new Map<string, McpToolInfo[]>();
  readonly problems: McpProblem[] = [];
  private readonly problemListeners = new Set<(p: McpProblem) => void>();

  constructor(
    private readonly servers: Readonly<Record<string, McpServerConfig>>,
    private readonly env: NodeJS.ProcessEnv,
    onProblem?: (p: McpProblem) => void,
  ) {
    if (onProblem) this.problemListeners.add(onProblem);
  }

  /** Hears every problem from now on (the MCP gateway supervises the servers it fronts); returns the way to stop. */
  onProblem(listener: (p: McpProblem) => void): () => void {
    this.problemListeners.add(listener);
    return () => this.problemListeners.delete(listener);
  }

  /** Whether a server is running now. */
  isRunning(name: string): boolean {
    return this.connections.has(name);
  }

  /** The tools a server listed when it last ran (kept after it stops, so it is never silently dropped). */
  knownTools(name: string): McpToolInfo[] {
    return this.known.get(name) ?? [];
  }

  /** Starts a server that is not running (again); null when it cannot start (the problem is reported). */
  async ensure(name: string): Promise<boolean> {
    if (!Object.hasOwn(this.servers, name)) return false;
    return (await this.connect(name)) !== null;
  }

  get configured(): string[] {
    return Object.keys(this.servers);
  }

  /** Starts every configured server that is not running yet; returns all tools of the running ones. */
  async tools(): Promise<McpToolInfo[]> {
    await Promise.all(this.configured.map((name) => this.connect(name)));
    return [...this.connections.values()].flatMap((c) => c.tools);
  }

  declarations(): Record<string, McpToolDeclaration> {
    return Object.fromEntries([...this.known.values()].flatMap((tools) => tools.map((t) => [t.name, t.declaration])));
  }

  private report(server: string, message: string): void {
    const p = { server, message };
    this.problems.push(p);
    // A long-running core hears of problems through its listeners; the list is for the agent's turn, and stays bounded.
    if (this.problems.length > 100) this.problems.splice(0, this.problems.length - 100);
    for (const l of this.problemListeners) l(p);
  }

  private connect(name: string): Promise<Connection | null> {
    const existing = this.connections.get(name);
    if (existing) return Promise.resolve(existing);
    let pending = this.starting.get(name);
    if (pending) return pending;
    pending = this.start(name).finally(() => this.starting.delete(name));
    this.starting.set(name, pending);
    return pending;
  }

  private async start(name: string): Promise<Connection | null> {
    const cfg = this.servers[name]!;
    // The server gets a minimal environment plus what the config names; the app's secrets stay here.
    const env: Record<string, string> = { PATH: this.env['PATH'] ?? '/usr/bin:/bin', HOME: this.env['HOME'] ?? '', ...cfg.env };
    for (const k of cfg.envFrom) if (this.env[k] !== undefined) env[k] = this.env[k]!;
    const transport = new StdioClientTransport({ command: cfg.command, args: cfg.args, env, ...(cfg.cwd ? { cwd: cfg.cwd } : {}), stderr: 'pipe' });
    // Always drained (a full pipe would freeze a server that logs), keeping the tail for error messages.
    let stderrTail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    const lastWords = () => {
      const line = stderrTail.trim().split('\n').pop()?.slice(0, 300);
      return line ? ` (its last words: ${line})` : '';
    };
    const client = new Client({ name: 'threshold', version: '0.1.0' });
    try {
      await withTimeout(client.connect(transport), 15_000, `the MCP server "${name}" did not start within 15 s`);
      const listed = await withTimeout(client.listTools(), 15_000, `the MCP server "${name}" did not list its tools within 15 s`);
      const tools: McpToolInfo[] = [];
      for (const t of listed.tools) {
        if (!TOOL_NAME.test(t.name)) {
          this.report(name, `tool "${t.name}" was skipped: its name is not a plain identifier`);
          continue;
        }
        if (`mcp__${name}__${t.name}`.length > MODEL_NAME_MAX) {
          this.report(name, `tool "${t.name}" was skipped: with the server's name it is longer than the ${MODEL_NAME_MAX} characters providers accept`);
          continue;
        }
        tools.push({
          name: `mcp.${name}.${t.name}`,
          server: name,
          tool: t.name,
          description: t.description,
          inputSchema: t.inputSchema,
          declaration: { tier: cfg.tier, annotations: { destructiveHint: t.annotations?.destructiveHint === true, openWorldHint: t.annotations?.openWorldHint === true, readOnlyHint: t.annotations?.readOnlyHint === true } },
        });
      }
      const conn = { client, tools };
      this.connections.set(name, conn);
      this.known.set(name, tools);
      client.onclose = () => {
        if (this.connections.get(name) === conn) {
          this.connections.delete(name);
          this.report(name, `the server stopped${lastWords()}; it will be started again when needed`);
        }
      };
      return conn;
    } catch (err) {
      this.report(name, `could not start: ${(err as Error).message}${lastWords()}`);
      await client.close().catch(() => undefined);
      return null;
    }
  }

  async call(name: string, args: unknown, signal: AbortSignal): Promise<{ text: string; isError: boolean }> {
    const [, server, tool] = name.split('.');
    const conn = await this.connect(server!);
    if (!conn) return { text: `The MCP server "${server}" is not available.`, isError: true };
    try {
      const r = await conn.client.callTool({ name: tool!, arguments: (args ?? {}) as Record<string, unknown> }, undefined, { signal, timeout: 120_000 });
      const text = ((r.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
      return { text: `[untrusted output of MCP tool ${name}]\n${text}`, isError: r.isError === true };
    } catch (err) {
      return { text: `The MCP tool ${name} failed: ${(err as Error).message}`, isError: true };
    }
  }

  /**
   * Calls a tool and returns the server's result as it is (content items of every kind): the MCP gateway
   * hands it to its own client. Throws when the server is not available or the call fails.
   */
  async callRaw(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{ content: unknown[]; isError: boolean; structuredContent?: unknown }> {
    if (!Object.hasOwn(this.servers, server)) throw new Error(`There is no MCP server "${server}" in threshold.toml.`);
    const conn = await this.connect(server);
    if (!conn) throw new Error(`The MCP server "${server}" is not running and could not be started${this.lastProblem(server)}.`);
    const r = await conn.client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: 120_000 });
    return { content: (r.content as unknown[] | undefined) ?? [], isError: r.isError === true, ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}) };
  }

  private lastProblem(server: string): string {
    const p = [...this.problems].reverse().find((x) => x.server === server);
    return p ? ` (${p.message})` : '';
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.client.close().catch(() => undefined)));
    this.connections.clear();
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(message)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
