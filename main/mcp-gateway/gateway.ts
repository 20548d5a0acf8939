// `threshold mcp-gateway`: an MCP server that any MCP client (Claude Desktop, Cursor, another agent) can
// use in place of the servers configured in threshold.toml. It holds no servers and judges nothing itself:
// tools/list and tools/call go to the running core on its control socket (mcp.list_tools, mcp.call_tool),
// which runs the servers, asks the gate, parks a card when a call asks, and answers. A client that
// cancels a call, or goes away, closes that call's connection to the core, which withdraws its card.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ControlClient, ControlUnavailable, RemoteError } from '../control/client';
import { socketPath } from '../control/socket-path';

export interface GatewayOptions {
  dataDir: string;
  version: string;
  log: (line: string) => void;
}

interface ListedTools {
  tools: { server: string; tool: string; description: string | null; input_schema: unknown; annotations: Record<string, boolean> }[];
  servers: { name: string; state: string; problem: string | null }[];
}

/** The name a client sees: `<server>__<tool>` (server names hold no underscore, so the first `__` splits it). */
export function exposedName(server: string, tool: string): string {
  return `${server}__${tool}`;
}

export function splitExposedName(name: string): { server: string; tool: string } | null {
  const at = name.indexOf('__');
  if (at <= 0 || at + 2 >= name.length) return null;
  return { server: name.slice(0, at), tool: name.slice(at + 2) };
}

/** One MCP server session (stdio, or one Streamable HTTP session), relaying to the core. */
export function gatewayServer(o: GatewayOptions, sessionId: string): Server {
  const server = new Server(
    { name: 'threshold', version: o.version },
    { capabilities: { tools: {} }, instructions: "Threshold's MCP gateway: every tool call crosses Threshold's approval gate, and may wait for a person to approve it." },
  );
  const notRunning = () => `Threshold is not running for ${o.dataDir}; start it (the desktop app, or threshold serve) and try again.`;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    let client: ControlClient;
    try {
      client = await ControlClient.connect(socketPath(o.dataDir));
    } catch {
      throw new McpError(ErrorCode.InternalError, notRunning());
    }
    try {
      const r = await client.call<ListedTools>('mcp.list_tools');
      for (const s of r.servers) if (s.state !== 'running') o.log(`MCP server "${s.name}" is ${s.state}${s.problem ? `: ${s.problem}` : ''}`);
      return {
        tools: r.tools.map((t) => {
          const down = r.servers.find((s) => s.name === t.server && s.state !== 'running');
          const note = down ? `[${t.server} is ${down.state}${down.problem ? `: ${down.problem}` : ''}] ` : '';
          return { name: exposedName(t.server, t.tool), description: note + (t.description ?? ''), inputSchema: (t.input_schema ?? { type: 'object' }) as { type: 'object' }, annotations: t.annotations };
        }),
      };
    } catch (err) {
      throw new McpError(ErrorCode.InternalError, err instanceof RemoteError ? err.message : notRunning());
    } finally {
      client.close();
    }
  });

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const target = splitExposedName(req.params.name);
    if (!target) throw new McpError(ErrorCode.InvalidParams, `"${req.params.name}" is not a tool of this gateway (<server>__<tool>).`);
    const refused = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });
    let client: ControlClient;
    try {
      client = await ControlClient.connect(socketPath(o.dataDir));
    } catch {
      return refused(`${notRunning()} The call did not run.`);
    }
    // The client cancelled: the connection closes and the core withdraws the card or stops the call.
    const cancel = () => client.close();
    extra.signal.addEventListener('abort', cancel, { once: true });
    try {
      const clientName = server.getClientVersion()?.name ?? 'an MCP client';
      const r = await client.call<{ content: unknown[]; is_error: boolean; structured_content?: unknown }>('mcp.call_tool', { server: target.server, tool: target.tool, arguments: req.params.arguments ?? {}, client: clientName.slice(0, 200), session_id: sessionId });
      return { content: r.content as { type: 'text'; text: string }[], isError: r.is_error, ...(r.structured_content !== undefined ? { structuredContent: r.structured_content as Record<string, unknown> } : {}) };
    } catch (err) {
      if (err instanceof RemoteError) return refused(`Threshold refused the call: ${err.message}`);
      if (err instanceof ControlUnavailable) return refused(extra.signal.aborted ? 'The call was cancelled; it did not run.' : 'Threshold stopped before it answered; the call may not have run.');
      return refused(`The call failed: ${(err as Error).message}`);
    } finally {
      extra.signal.removeEventListener('abort', cancel);
      client.close();
    }
  });
  return server;
}

/** MCP over stdio: one session for the life of the process. Resolves when the client closes its end. */
export async function serveStdio(o: GatewayOptions, stdin: NodeJS.ReadableStream = process.stdin): Promise<void> {
  const server = gatewayServer(o, `stdio-${randomUUID()}`);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close().catch(() => undefined);
}

export interface HttpGateway {
  url: string;
  close(): Promise<void>;
}

/**
 * Streamable HTTP on 127.0.0.1 at /mcp, one MCP session per client. Host and Origin are checked (a web
 * page cannot reach it through DNS rebinding or from another origin).
 */
export async function serveHttp(o: GatewayOptions, port: number): Promise<HttpGateway> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let bound = port;
  const http: HttpServer = createServer((req, res) => void handle(req, res));
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Threshold MCP gateway: POST /mcp\n');
      return;
    }
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (req.method !== 'POST' || typeof id === 'string') {
      res.writeHead(typeof id === 'string' ? 404 : 400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: typeof id === 'string' ? 'Unknown session; initialize again.' : 'Start with an initialize request.' } }));
      return;
    }
    const hosts = [`127.0.0.1:${bound}`, `localhost:${bound}`];
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: hosts,
      allowedOrigins: hosts.map((h) => `http://${h}`),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await gatewayServer(o, `http-${randomUUID()}`).connect(transport);
    await transport.handleRequest(req, res);
  };
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  bound = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: async () => {
      for (const t of sessions.values()) await t.close().catch(() => undefined);
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
