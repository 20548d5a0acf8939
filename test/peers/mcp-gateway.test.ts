// `threshold mcp-gateway` with the real @modelcontextprotocol/server-filesystem and server-everything
// (pinned in test/peers) behind it and the SDK's own client in front, as an MCP client such as Claude
// Desktop would use it: a granted call runs, a gated call asks and runs only after `ctl` approves it (or
// not at all when denied), annotations only tighten (a destructive tool asks even at full), a server that
// dies is reported and started again, and the Streamable HTTP endpoint refuses another host or origin.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT } from '../support/cli';
import { ensurePeers, type Peers } from './install';
import { nextCard, world, type World } from './support';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 900_000 });

let peers: Peers;
let w: World;
let client: Client;
let gatewayLog = '';

const toml = (p: Peers, project: string) => `[autonomy]
level = "supervised"
[mcp.servers.files]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(p.mcpFilesystem)}, ${JSON.stringify(project)}]
[mcp.servers.everything]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(p.mcpEverything)}]
[mcp.servers.crashy]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(join(ROOT, 'test', 'fixtures', 'mcp-server.mjs'))}]
cwd = ${JSON.stringify(ROOT)}
[[grants]]
tool = "mcp.everything.echo"
any = true
`;

async function connect(t: World): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'bin', 'threshold.js'), 'mcp-gateway', '--data-dir', t.dataDir], env: { PATH: process.env['PATH'] ?? '', HOME: t.home }, stderr: 'pipe' });
  transport.stderr?.on('data', (c: Buffer) => (gatewayLog += c.toString()));
  const c = new Client({ name: 'threshold-test-client', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

/** A POST with exactly these headers (Host included), returning the status. */
async function rawPost(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const text = (r: object) => (((r as { content?: unknown }).content as { type: string; text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

beforeAll(async () => {
  const r = await ensurePeers((line) => process.stderr.write(`${line}\n`));
  if (!r.ok) throw new Error(`the MCP servers could not be installed: ${r.why}`);
  peers = r.peers;
  // The project folder is the filesystem server's root.
  w = await world('mcp', ({ project }) => toml(peers, project));
  client = await connect(w);
});
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await w?.close();
});

describe('the MCP gateway in front of real MCP servers', () => {
  it('lists every configured server\'s tools as <server>__<tool>, with their annotations', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect({ echo: !!byName['everything__echo'], write: byName['files__write_file']?.annotations?.destructiveHint, crashy: !!byName['crashy__crash'] }).toEqual({ echo: true, write: true, crashy: true });
  });

  it('a call a grant covers runs, and the server\'s answer comes back as it is', async () => {
    const r = await client.callTool({ name: 'everything__echo', arguments: { message: 'through the gate' } });
    expect({ isError: r.isError ?? false, text: text(r) }).toEqual({ isError: false, text: 'Echo: through the gate' });
  });

  it('a read-only tool without a grant still asks: an MCP tool is at least a write, a hint never loosens', async () => {
    const call = client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 3 } });
    const card = await nextCard(w);
    expect({ tool: card.tool, origin: card.origin }).toEqual({ tool: 'mcp.everything.get-sum', origin: { kind: 'external', name: 'threshold-test-client through the MCP gateway', workspace: null } });
    await w.threshold(['ctl', '--data-dir', w.dataDir, 'decide', card.id, 'approve_once']);
    expect(text(await call)).toMatch(/5/);
  });

  it('a gated call waits on a card and runs only after ctl approves it', async () => {
    const target = join(w.project, 'approved.txt');
    const call = client.callTool({ name: 'files__write_file', arguments: { path: target, content: 'written after approval\n' } });
    const card = await nextCard(w);
    expect({ tool: card.tool, floor: card.floor, outcomes: card.outcomes, written: existsSync(target) }).toEqual({ tool: 'mcp.files.write_file', floor: 'destructive', outcomes: ['approve_once', 'skip', 'deny'], written: false });
    await w.threshold(['ctl', '--data-dir', w.dataDir, 'decide', card.id, 'approve_once']);
    const r = await call;
    expect({ isError: r.isError ?? false, content: readFileSync(target, 'utf8') }).toEqual({ isError: false, content: 'written after approval\n' });
  });

  it('a denied call does not reach the server, and the client reads why', async () => {
    const target = join(w.project, 'denied.txt');
    const call = client.callTool({ name: 'files__write_file', arguments: { path: target, content: 'x' } });
    const card = await nextCard(w);
    await w.threshold(['ctl', '--data-dir', w.dataDir, 'decide', card.id, 'deny', '--note', 'not that file']);
    const r = await call;
    expect({ isError: r.isError, text: text(r), written: existsSync(target) }).toEqual({ isError: true, text: expect.stringMatching(/Threshold did not let this call run\..*Their note: not that file/), written: false });
  });

  it('a client that cancels its call withdraws the card', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'files__write_file', arguments: { path: join(w.project, 'cancelled.txt'), content: 'x' } }, undefined, { signal: controller.signal });
    await nextCard(w);
    controller.abort();
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 100; i++) {
      const pending = JSON.parse((await w.threshold(['ctl', '--data-dir', w.dataDir, '--json', 'pending'])).stdout) as unknown[];
      if (!pending.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(JSON.parse((await w.threshold(['ctl', '--data-dir', w.dataDir, '--json', 'pending'])).stdout)).toEqual([]);
  });

  it('a server that dies is reported (the call says so, the daemon logs it) and started again', async () => {
    const call = client.callTool({ name: 'crashy__crash', arguments: {} });
    const card = await nextCard(w);
    await w.threshold(['ctl', '--data-dir', w.dataDir, 'decide', card.id, 'approve_once']);
    const r = await call;
    expect({ isError: r.isError, text: text(r) }).toEqual({ isError: true, text: expect.stringMatching(/the MCP server did not answer/) });
    // Reported where a person looks: the daemon's log, and the listing says so while it is down.
    for (let i = 0; i < 50 && !/MCP server "crashy": the server stopped/.test(w.daemon.log()); i++) await new Promise((res) => setTimeout(res, 100));
    expect(w.daemon.log()).toMatch(/MCP server "crashy": the server stopped/);
    // Started again on its own (1 s later): its tools answer.
    await new Promise((res) => setTimeout(res, 1500));
    const echo = client.callTool({ name: 'crashy__echo', arguments: { text: 'back' } });
    const again = await nextCard(w);
    await w.threshold(['ctl', '--data-dir', w.dataDir, 'decide', again.id, 'approve_once']);
    expect(text(await echo)).toMatch(/back/);
  });

  it('every call is in the history with where it came from', async () => {
    const calls = JSON.parse((await w.threshold(['ctl', '--data-dir', w.dataDir, '--json', 'calls', '--tool', 'mcp.everything.echo'])).stdout) as { calls: { state: string; decided_by: string; session_id: string }[] };
    expect(calls.calls[0]).toMatchObject({ state: 'succeeded', decided_by: 'grant:config-1', session_id: expect.stringMatching(/^mcp-stdio-/) });
  });

  it('over Streamable HTTP on loopback: the same tools; another Host or Origin is refused', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'threshold.js'), 'mcp-gateway', '--data-dir', w.dataDir, '--http', '0'], { env: { PATH: process.env['PATH'] ?? '', HOME: w.home }, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    try {
      let url = '';
      for (let i = 0; i < 200 && !url; i++) {
        url = /Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err)?.[1] ?? '';
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(url, err).not.toBe('');
      const http = new Client({ name: 'http-client', version: '1.0.0' });
      await http.connect(new StreamableHTTPClientTransport(new URL(url)));
      const r = await http.callTool({ name: 'everything__echo', arguments: { message: 'over http' } });
      expect(text(r)).toBe('Echo: over http');
      await http.close();
      const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '1' } } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      // A page on another name for this machine (DNS rebinding) sends its own Host; fetch() will not, so a raw request does.
      const rebound = await rawPost(url, { ...headers, host: 'evil.example' }, init);
      const crossOrigin = await rawPost(url, { ...headers, origin: 'http://evil.example' }, init);
      const same = await rawPost(url, headers, init);
      expect({ rebound, crossOrigin, same }).toEqual({ rebound: 403, crossOrigin: 403, same: 200 });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
