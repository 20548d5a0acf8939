// Whole turns with a real MCP server (test/fixtures/mcp-server.mjs, over stdio) behind the fake provider:
// MCP tools are offered to the model, judged by the gate at least at the write tier (annotations only
// tighten), and a server that cannot start or crashes is reported, never fatal.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../main/config/load';
import type { ThresholdCore } from '../../main/runtime/core';
import { McpManager } from '../../main/calls/mcp-servers';
import { useAgentHarness, type SetupOptions } from '../support/agent';

const h = useAgentHarness();
const { pending, lastResults } = h;

const FIXTURE = fileURLToPath(new URL('../fixtures/mcp-server.mjs', import.meta.url));

const server = (extra: Partial<McpServerConfig> = {}): McpServerConfig => ({ command: process.execPath, args: [FIXTURE], env: {}, envFrom: [], cwd: null, tier: 'write', ...extra });

/** Like createAgent (main/agent/index.ts): one McpManager for the agent, its declarations for the gate; problems are also collected live. */
async function setupMcp(servers: Record<string, McpServerConfig>, opts: Omit<SetupOptions, 'config' | 'agent'> = {}) {
  // The manager is made before the core (the agent takes it), so its reports reach the core once there is one.
  const ref: { core?: ThresholdCore } = {};
  const liveNotes: string[] = [];
  const mcp = new McpManager(servers, process.env, (p) => {
    const text = `MCP server "${p.server}": ${p.message}`;
    liveNotes.push(text);
    ref.core?.events.emit('session.note', { session_id: null, text });
  });
  const made = await h.setup('openai-compatible', { ...opts, config: { mcpServers: servers }, agent: { mcp } });
  ref.core = made.core;
  made.core.setMcpTools(() => mcp.declarations());
  return { ...made, mcp, liveNotes };
}

function toolNames(requestIndex: number): string[] {
  const tools = (h.fake.requests[requestIndex]!.body['tools'] ?? []) as { function: { name: string } }[];
  return tools.map((t) => t.function.name);
}

function notes(core: ThresholdCore, sessionId: string): string[] {
  return core.store.transcripts
    .list(sessionId)
    .filter((r) => r.role === 'note')
    .map((r) => (r.content as { text: string }).text);
}

/** A follow-up turn completes only if every earlier call had exactly one result (the fake rejects unpaired calls). */
async function expectCleanHistory(agent: Awaited<ReturnType<typeof setupMcp>>['agent'], core: ThresholdCore, sessionId: string) {
  expect(core.gate.listPending()).toEqual([]);
  h.fake.enqueue({ text: 'Still here.' });
  const again = await agent.send(sessionId, 'again').done;
  expect({ reason: again.reason, text: again.text }).toEqual({ reason: 'completed', text: 'Still here.' });
}

describe('MCP tools in agent turns', () => {
  it('an MCP tool is offered to the model, asks at the supervised level, and after approval its output reaches the model', async () => {
    const { agent, core } = await setupMcp({ files: server() });
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__files__echo', args: { text: 'hi there' } }] }, { text: 'Done.' });
    const turn = agent.send(null, 'Echo something');
    const p = await pending(core);
    expect(toolNames(0)).toEqual(expect.arrayContaining(['mcp__files__echo', 'mcp__files__wipe', 'mcp__files__peek', 'mcp__files__crash', 'read_file']));
    expect({ tool: p.tool, class: p.class, args: p.args }).toEqual({ tool: 'mcp.files.echo', class: 'write', args: { text: 'hi there' } });
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
    const r = await turn.done;
    expect({ reason: r.reason, steps: r.steps, text: r.text }).toEqual({ reason: 'completed', steps: 2, text: 'Done.' });
    expect(lastResults()).toEqual([expect.stringMatching(/^\[untrusted output of MCP tool mcp\.files\.echo\]\nhi there$/)]);
    expect(core.store.approvals.listDecisions()[0]!.execution).toMatchObject({ status: 'succeeded' });
    await expectCleanHistory(agent, core, turn.sessionId);
  });

  it('a tool the server marks destructiveHint is judged destructive', async () => {
    const { agent, core } = await setupMcp({ files: server() });
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__files__wipe', args: {} }] }, { text: 'Wiped.' });
    const turn = agent.send(null, 'Wipe it');
    const p = await pending(core);
    expect({ tool: p.tool, class: p.class }).toEqual({ tool: 'mcp.files.wipe', class: 'destructive' });
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
    expect((await turn.done).reason).toBe('completed');
    expect(lastResults()).toEqual([expect.stringContaining('wiped')]);
  });

  it('readOnlyHint does not loosen: at auto-edit a "read-only" MCP tool still asks', async () => {
    const { agent, core } = await setupMcp({ files: server() }, { level: 'auto-edit' });
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__files__peek', args: {} }] }, { text: 'Peeked.' });
    const turn = agent.send(null, 'Peek');
    const p = await pending(core);
    expect({ tool: p.tool, class: p.class }).toEqual({ tool: 'mcp.files.peek', class: 'write' });
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'skip', surface: 'desktop' });
    const r = await turn.done;
    expect({ reason: r.reason, text: r.text }).toEqual({ reason: 'completed', text: 'Peeked.' });
    expect(lastResults().join()).toMatch(/skipped this call/);
  });

  it('a server that cannot start is a session note, its tools are left out, and the turn completes', async () => {
    const { agent, core, liveNotes } = await setupMcp({ ghost: server({ command: '/nonexistent/mcp', args: [] }), files: server() });
    h.fake.enqueue({ text: 'Answered without the ghost.' });
    const turn = agent.send(null, 'Hello');
    const r = await turn.done;
    expect({ reason: r.reason, text: r.text }).toEqual({ reason: 'completed', text: 'Answered without the ghost.' });
    expect(notes(core, turn.sessionId)).toEqual([expect.stringMatching(/^MCP server "ghost": could not start/)]);
    expect(liveNotes).toEqual([expect.stringMatching(/^MCP server "ghost"/)]);
    const offered = toolNames(0);
    expect(offered).toContain('mcp__files__echo');
    expect(offered.filter((n) => n.startsWith('mcp__ghost__'))).toEqual([]);
    await expectCleanHistory(agent, core, turn.sessionId);
  });

  it('a call to a tool of a server that did not start is refused as an error, and the turn goes on', async () => {
    const { agent, core } = await setupMcp({ ghost: server({ command: '/nonexistent/mcp', args: [] }) });
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__ghost__echo', args: { text: 'x' } }] }, { text: 'It is not there.' });
    const turn = agent.send(null, 'Use the ghost');
    const r = await turn.done;
    expect({ reason: r.reason, text: r.text, pending: core.gate.listPending().length }).toEqual({ reason: 'completed', text: 'It is not there.', pending: 0 });
    expect(lastResults()).toEqual([expect.stringContaining('mcp.ghost.echo')]);
    await expectCleanHistory(agent, core, turn.sessionId);
  });

  it('a server that crashes mid-call gives that call an error result, the turn completes, and the next turn restarts it', async () => {
    const { agent, core, liveNotes } = await setupMcp({ files: server() });
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__files__crash', args: {} }] }, { text: 'The server crashed.' });
    const turn = agent.send(null, 'Crash it');
    const p = await pending(core);
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
    const r = await turn.done;
    expect({ reason: r.reason, text: r.text, pending: core.gate.listPending().length }).toEqual({ reason: 'completed', text: 'The server crashed.', pending: 0 });
    expect(lastResults()).toEqual([expect.stringMatching(/The MCP tool mcp\.files\.crash failed: .*Connection closed/)]);
    expect(core.store.approvals.listDecisions()[0]!.execution).toMatchObject({ status: 'failed' });
    expect(liveNotes).toEqual([expect.stringMatching(/^MCP server "files": the server stopped/)]);

    // The agent survives: the next turn starts the server again, and its tools work.
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__files__echo', args: { text: 'back' } }] }, { text: 'It is back.' });
    const next = agent.send(turn.sessionId, 'Try again');
    const q = await pending(core);
    expect(q.tool).toBe('mcp.files.echo');
    await core.gate.decideApproval({ approvalId: q.id, hash: q.hash, outcome: 'approve_once', surface: 'desktop' });
    const r2 = await next.done;
    expect({ reason: r2.reason, text: r2.text }).toEqual({ reason: 'completed', text: 'It is back.' });
    expect(lastResults().at(-1)).toBe('[untrusted output of MCP tool mcp.files.echo]\nback');
    expect(notes(core, turn.sessionId)).toContainEqual(expect.stringMatching(/^MCP server "files": the server stopped/));
    await expectCleanHistory(agent, core, turn.sessionId);
  });

  it('with two calls in one step, a crash fails the first and the second restarts the server and runs', async () => {
    const { agent, core } = await setupMcp({ files: server() });
    const asked: string[] = [];
    core.events.on('approval.requested', (p) => {
      asked.push(p.tool);
      void core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
    });
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__files__crash', args: {} }, { name: 'mcp__files__echo', args: { text: 'after' } }] }, { text: 'Handled both.' });
    const turn = agent.send(null, 'Two calls');
    const r = await turn.done;
    expect({ reason: r.reason, text: r.text, asked, pending: core.gate.listPending().length }).toEqual({ reason: 'completed', text: 'Handled both.', asked: ['mcp.files.crash', 'mcp.files.echo'], pending: 0 });
    expect(lastResults()).toEqual([expect.stringMatching(/mcp\.files\.crash failed/), expect.stringMatching(/mcp\.files\.echo\]\nafter$/)]);
    // The crash is noted in the session whose call met it.
    expect(notes(core, turn.sessionId)).toEqual([expect.stringMatching(/^MCP server "files": the server stopped/)]);
    await expectCleanHistory(agent, core, turn.sessionId);
  });

  it('a server that writes a lot to stderr does not freeze: its stderr is drained', async () => {
    // 300 kB of stderr before the server starts: more than a pipe holds, so an undrained pipe would block it.
    const chatty = server({ command: '/bin/sh', args: ['-c', `head -c 300000 /dev/zero | tr '\\0' x >&2; exec "${process.execPath}" "${FIXTURE}"`] });
    const { agent, core } = await setupMcp({ files: chatty });
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__files__echo', args: { text: 'still here' } }] }, { text: 'Done.' });
    const turn = agent.send(null, 'Echo');
    const p = await pending(core);
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
    const r = await turn.done;
    expect({ reason: r.reason, result: lastResults().join() }).toEqual({ reason: 'completed', result: expect.stringContaining('still here') });
  });
});
