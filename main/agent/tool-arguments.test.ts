// A model's tool-call arguments nested thousands deep used to overflow the AI SDK's stack and end the
// turn with no record of the call. Now the call is recorded, refused with a sentence, and the turn goes on.
import { describe, expect, it } from 'vitest';
import { useAgentHarness, type Protocol } from '../../test/support/agent';

const h = useAgentHarness();
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const refusal = (tool: string) => `Denied: Invalid arguments for ${tool}: they nest deeper than 64 levels, more than Threshold accepts.`;

describe.each<Protocol>(['openai-compatible', 'anthropic'])('deeply nested tool-call arguments over %s', (kind) => {
  it.each([
    { name: 'run_command with an extra argument nested 5,000 deep', tool: 'run_command', raw: `{"command":"ls","x":${nested(5000)}}` },
    { name: 'an MCP tool with arguments nested 100,000 deep', tool: 'mcp.srv.tool', raw: `{"x":${nested(100_000)}}` },
    { name: 'ask_user with a question and a deep extra key', tool: 'ask_user', raw: `{"question":"ok?","x":${nested(3000)}}` },
  ])('$name: recorded, refused, and the turn goes on', async ({ tool, raw }) => {
    const { agent, core } = await h.setup(kind);
    h.fake.enqueue({ toolCalls: [{ name: tool.replace(/\./g, '__'), args: raw }] }, { toolCalls: [{ name: 'list_dir', args: { path: '.' } }] }, { text: 'Done.' });
    const turn = agent.send(null, 'go');
    const r = await turn.done;
    const calls = core.store.calls.listForSession(turn.sessionId).map((c) => ({ tool: c.tool, decision: c.decision, decided_by: c.decided_by }));
    expect({ reason: r.reason, text: r.text, calls }).toEqual({
      reason: 'completed',
      text: 'Done.',
      calls: [
        { tool, decision: 'deny', decided_by: 'tool:invalid_args' },
        { tool: 'list_dir', decision: 'allow', decided_by: expect.any(String) },
      ],
    });
    const results = h.fake.requests[1]!;
    expect(JSON.stringify(results.body)).toContain(refusal(tool).slice(0, 60));
  });
});
