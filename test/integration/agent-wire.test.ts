// The provider's wire, as it misbehaves in the field, for both protocols: retries, overload, errors in the
// middle of a stream, dropped connections, hangs, refusals, tool calls in pieces or whole, a finish reason
// that lies; and the turn's own rules: what the user types meanwhile, notifications, questions that time out.
import { describe, expect, it } from 'vitest';
import type { Notifier } from '../../main/agent/questions';
import { useAgentHarness, type Protocol } from '../support/agent';

const h = useAgentHarness();

describe.each<Protocol>(['openai-compatible', 'anthropic'])('the provider wire over %s', (kind) => {
  it.each([
    { name: 'a 429 is retried and the turn completes', script: [{ http: { status: 429 } }, { text: 'Hello after a retry.' }], retries: 1, want: { reason: 'completed', text: 'Hello after a retry.' } },
    { name: 'a 529 that persists is reported as overload', script: [{ http: { status: 529 } }, { http: { status: 529 } }], retries: 1, want: { reason: 'provider_error', error: expect.stringMatching(/overloaded \(HTTP 529\)/) } },
    { name: 'an error in the middle of the stream is reported, not turned into an answer', script: [{ text: 'Partial', midStreamError: 'overloaded_error' }], retries: 0, want: { reason: 'provider_error', error: expect.stringMatching(/model provider/i) } },
    { name: 'a dropped connection is reported', script: [{ text: 'Some words here', dropAfterChunks: 2 }], retries: 0, want: { reason: 'provider_error', error: expect.any(String) } },
  ])('$name', async ({ script, retries, want }) => {
    const { agent } = await h.setup(kind, { maxRetries: retries });
    h.fake.enqueue(...script);
    const r = await agent.send(null, 'Hello').done;
    expect(r).toMatchObject(want);
    if (r.reason === 'provider_error') expect(r.text).toBe('');
  });

  it('a provider that hangs is cut off by the timeout and reported', async () => {
    const { agent } = await h.setup(kind, { timeoutMs: 800 });
    h.fake.enqueue({ hang: true });
    const r = await agent.send(null, 'Hello').done;
    expect({ reason: r.reason, text: r.text }).toEqual({ reason: 'provider_error', text: '' });
  });

  it.each([
    { name: 'split into many pieces', step: { argsChunks: 7 } },
    { name: 'whole in one chunk', step: { wholeCallInOneChunk: true } },
    { name: "with a finish reason of 'stop' (as Ollama sends)", step: { finishReason: 'stop' } },
  ])('a tool call $name still runs', async ({ step }) => {
    const { agent } = await h.setup(kind);
    h.fake.enqueue({ toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }], ...step }, { text: 'Read.' });
    const r = await agent.send(null, 'Read the readme').done;
    expect({ reason: r.reason, steps: r.steps }).toEqual({ reason: 'completed', steps: 2 });
    expect(h.lastResults().join()).toContain('# project');
  });
});

describe('the provider wire, refusals', () => {
  it("an OpenAI refusal reaches the user as the model's own words, and the turn ends", async () => {
    const { agent } = await h.setup('openai-compatible');
    h.fake.enqueue({ refusal: 'I cannot help with that.' });
    const r = await agent.send(null, 'Do something bad').done;
    expect({ reason: r.reason, text: r.text, requests: h.fake.requests.length }).toEqual({ reason: 'completed', text: 'I cannot help with that.', requests: 1 });
  });

  it('an Anthropic refusal stop reason ends the turn without inventing an answer', async () => {
    const { agent } = await h.setup('anthropic');
    h.fake.enqueue({ text: 'I will not do that.', finishReason: 'refusal' });
    const r = await agent.send(null, 'Do something bad').done;
    expect({ reason: r.reason, text: r.text, requests: h.fake.requests.length }).toEqual({ reason: 'completed', text: 'I will not do that.', requests: 1 });
  });
});

describe('the fake provider, like the real services', () => {
  it.each<Protocol>(['openai-compatible', 'anthropic'])('rejects a %s history in which a tool call has no result', async (kind) => {
    const openai = kind === 'openai-compatible';
    const body = openai
      ? { model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'list_dir', arguments: '{}' } }] }, { role: 'user', content: 'and?' }] }
      : { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_dir', input: {} }] }, { role: 'user', content: 'and?' }] };
    const res = await fetch(`${h.fake.url}/v1/${openai ? 'chat/completions' : 'messages'}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/tool/i);
  });
});

describe('the turn', () => {
  it('adds what the user types while it runs to that turn, before the next model step', async () => {
    const { agent, core } = await h.setup('openai-compatible');
    h.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch later.txt' } }] }, { text: 'Done, and noted.' });
    const turn = agent.send(null, 'Touch a file');
    const p = await h.pending(core);
    const extra = agent.send(turn.sessionId, 'Also, call it later.txt');
    expect({ appended: extra.appended, turn: extra.turnId }).toEqual({ appended: true, turn: turn.turnId });
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
    await turn.done;
    const last = h.fake.requests[h.fake.requests.length - 1]!.body['messages'] as { role: string; content: unknown }[];
    expect(last[last.length - 1]).toMatchObject({ role: 'user', content: 'Also, call it later.txt' });
    expect(core.store.sessions.list().length).toBe(1);
  });

  it('shows a notification without waiting, and a failing notification service does not fail the call', async () => {
    const shown: string[] = [];
    const notifier: Notifier = {
      notify: (n) => {
        shown.push(n.body);
        throw new Error('the notification service is down');
      },
    };
    const { agent } = await h.setup('openai-compatible', { agent: { notifier } });
    h.fake.enqueue({ toolCalls: [{ name: 'notify_user', args: { message: 'Build finished', urgency: 'attention' } }] }, { text: 'Told you.' });
    const r = await agent.send(null, 'Tell me when done').done;
    expect({ reason: r.reason, shown }).toEqual({ reason: 'completed', shown: ['Build finished'] });
    expect(h.lastResults()).toEqual(['The notification was shown.']);
  });

  it('a question that times out tells the model to use its best judgment', async () => {
    const { agent } = await h.setup('openai-compatible', { agent: { questionTimeoutMs: 300 } });
    h.fake.enqueue({ toolCalls: [{ name: 'ask_user', args: { question: 'Which branch?' } }] }, { text: 'Using main.' });
    const r = await agent.send(null, 'Deploy').done;
    expect(r.reason).toBe('completed');
    expect(h.lastResults().join()).toMatch(/best judgment/);
  });

  it('a dismissed question tells the model to use its best judgment too', async () => {
    const { agent } = await h.setup('openai-compatible');
    h.fake.enqueue({ toolCalls: [{ name: 'ask_user', args: { question: 'Tabs or spaces?' } }] }, { text: 'Spaces.' });
    const turn = agent.send(null, 'Format it');
    for (let i = 0; i < 200 && agent.questions.pending().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    agent.questions.dismiss(agent.questions.pending()[0]!.id);
    await turn.done;
    expect(h.lastResults().join()).toMatch(/dismissed[\s\S]*best judgment/);
  });

  it('stops after the step cap with a note', async () => {
    const { agent, core } = await h.setup('openai-compatible', { agent: { maxSteps: 2 } });
    h.fake.enqueue({ toolCalls: [{ name: 'list_dir', args: { path: '.' } }] }, { toolCalls: [{ name: 'list_dir', args: { path: '.' } }] }, { text: 'never' });
    const r = await agent.send(null, 'Loop').done;
    expect({ reason: r.reason, steps: r.steps, requests: h.fake.requests.length }).toEqual({ reason: 'step_limit', steps: 2, requests: 2 });
    const notes = core.store.transcripts.list(core.store.sessions.list()[0]!.id).filter((m) => m.role === 'note');
    expect(JSON.stringify(notes)).toMatch(/step limit/);
  });
});
