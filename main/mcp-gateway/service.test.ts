// The gateway's servers under the core's supervision, with the gate in front: a server that cannot start
// is listed as failed with its problem after its restarts are spent, never dropped from the list; a call
// to it says why it did not run; every call is judged first (nothing reaches a server the gate refused).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpManager } from '../calls/mcp-servers';
import type { McpServerConfig } from '../config/load';
import { testCore } from '../../test/support/core';
import { McpGatewayService } from './service';
import { gatewayParts } from '../runtime/parts';

const ROOT = join(import.meta.dirname, '..', '..');
const fixture: McpServerConfig = { command: process.execPath, args: [join(ROOT, 'test', 'fixtures', 'mcp-server.mjs')], env: {}, envFrom: [], cwd: ROOT, tier: 'write' };
const broken: McpServerConfig = { command: process.execPath, args: ['-e', 'process.stderr.write("no config for me\\n"); process.exit(3)'], env: {}, envFrom: [], cwd: null, tier: 'write' };

async function gateway(level: 'supervised' | 'full', servers: Record<string, McpServerConfig>) {
  const core = await testCore({ level });
  const mcp = new McpManager(servers, process.env);
  core.setMcpTools(() => mcp.declarations());
  const log: string[] = [];
  const g = new McpGatewayService(gatewayParts(core), mcp, (l) => log.push(l), [10, 10]);
  return { core, mcp, g, log, close: async () => { g.dispose(); await mcp.close(); core.dispose(); } };
}

describe('the MCP gateway service', () => {
  it('a server that cannot start is retried, then listed as failed with its last words; the others are listed as usual', async () => {
    const t = await gateway('full', { good: fixture, bad: broken });
    try {
      await t.g.listTools();
      await new Promise((r) => setTimeout(r, 400));
      const listed = await t.g.listTools();
      expect({ good: listed.tools.filter((x) => x.server === 'good').map((x) => x.tool).sort(), bad: listed.servers.find((s) => s.name === 'bad') }).toEqual({
        good: ['crash', 'echo', 'peek', 'wipe'],
        bad: { name: 'bad', state: 'failed', problem: expect.stringMatching(/could not start.*no config for me/), restarts: 2 },
      });
      const r = await t.g.callTool({ server: 'bad', tool: 'anything', args: {}, client: 'test', sessionId: 's' });
      // Never started, it declared no tools: the gate refuses the call, and the answer says the server is down.
      expect({ isError: r.isError, text: (r.content[0] as { text: string }).text }).toEqual({ isError: true, text: expect.stringMatching(/There is no tool named "mcp\.bad\.anything"\..*The MCP server "bad" is failed \(could not start/) });
      expect(t.log.some((l) => /MCP server "bad": could not start/.test(l))).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('a destructive tool asks even at full, and an unattended refusal never reaches the server', async () => {
    const t = await gateway('full', { good: fixture });
    try {
      await t.g.listTools();
      t.core.approvers.add('control');
      const gone = new AbortController();
      const pending = t.g.callTool({ server: 'good', tool: 'wipe', args: {}, client: 'test', sessionId: 's' }, gone.signal);
      for (let i = 0; i < 100 && !t.core.gate.listPending().length; i++) await new Promise((r) => setTimeout(r, 10));
      expect(t.core.gate.listPending()[0]).toMatchObject({ tool: 'mcp.good.wipe', floor: 'destructive' });
      gone.abort();
      const r = await pending;
      expect({ decision: r.decision, isError: r.isError }).toEqual({ decision: 'deny', isError: true });
    } finally {
      await t.close();
    }
  });

  it('an allowed call runs on its server and its outcome is recorded', async () => {
    const t = await gateway('full', { good: fixture });
    try {
      await t.g.listTools();
      const r = await t.g.callTool({ server: 'good', tool: 'echo', args: { text: 'hi' }, client: 'test', sessionId: 's' });
      expect({ decision: r.decision, content: r.content, state: t.core.store.calls.get(r.callId)?.state }).toEqual({ decision: 'allow', content: [{ type: 'text', text: 'hi' }], state: 'succeeded' });
    } finally {
      await t.close();
    }
  });
});
