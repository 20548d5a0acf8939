// Whole turns through the fake provider, for both wire protocols: the real gate, store and jail; only the
// model is scripted.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../main/store/store';
import { closedPort, useAgentHarness, type Protocol } from '../support/agent';

const h = useAgentHarness();
const { setup, pending, lastResults } = h;

describe.each<Protocol>(['openai-compatible', 'anthropic'])('agent turns over %s', (kind) => {
  it('a read call runs unprompted and the model sees its result', async () => {
    const { agent, core } = await setup(kind);
    h.fake.enqueue({ text: 'Looking.', toolCalls: [{ name: 'list_dir', args: { path: '.' } }] }, { text: 'There is a README.' });
    const r = await agent.send(null, 'What is here?').done;
    expect({ reason: r.reason, steps: r.steps, text: r.text, pending: core.gate.listPending().length }).toEqual({ reason: 'completed', steps: 2, text: 'There is a README.', pending: 0 });
    expect(lastResults().join()).toContain('README.md');
  });

  it('a write call parks, is approved, runs in the jail, and the result goes back', async () => {
    const { agent, core } = await setup(kind);
    h.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'echo hello > greeting.txt && cat greeting.txt' } }] }, { text: 'Done.' });
    const turn = agent.send(null, 'Write a greeting');
    const p = await pending(core);
    expect({ tool: p.tool, class: p.class }).toEqual({ tool: 'run_command', class: 'write' });
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
    const r = await turn.done;
    expect({ reason: r.reason, file: readFileSync(join(h.fx.workspace, 'greeting.txt'), 'utf8') }).toEqual({ reason: 'completed', file: 'hello\n' });
    expect(lastResults().join()).toContain('hello');
    expect(core.store.approvals.listDecisions()[0]!.execution).toMatchObject({ status: 'succeeded', exit_code: 0 });
  });

  it('write_file shows a diff preview on the card and writes only after approval', async () => {
    const { agent, core } = await setup(kind);
    writeFileSync(join(h.fx.workspace, 'notes.md'), 'old line\n');
    h.fake.enqueue({ toolCalls: [{ name: 'write_file', args: { path: 'notes.md', content: 'new line\n' } }] }, { text: 'Written.' });
    const turn = agent.send(null, 'Update the notes');
    const p = await pending(core);
    expect(p.preview).toContain('-old line');
    expect(p.preview).toContain('+new line');
    expect(readFileSync(join(h.fx.workspace, 'notes.md'), 'utf8')).toBe('old line\n');
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
    await turn.done;
    expect(readFileSync(join(h.fx.workspace, 'notes.md'), 'utf8')).toBe('new line\n');
  });

  it('deny refuses the call and stops the turn without another model call', async () => {
    const { agent, core } = await setup(kind);
    h.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'rm -rf build' } }] }, { text: 'should not be asked for' });
    const turn = agent.send(null, 'Clean up');
    const p = await pending(core);
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'deny', surface: 'desktop', note: 'keep the build' });
    const r = await turn.done;
    expect({ reason: r.reason, requests: h.fake.requests.length, left: h.fake.remaining }).toEqual({ reason: 'denied', requests: 1, left: 1 });
    h.fake.clear();
    const transcript = core.store.transcripts.list(turn.sessionId).filter((m) => m.role === 'tool');
    expect(JSON.stringify(transcript)).toContain('keep the build');
  });

  it('skip refuses the call and the turn goes on', async () => {
    const { agent, core } = await setup(kind);
    h.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch skipped.txt' } }] }, { text: 'Understood, skipped.' });
    const turn = agent.send(null, 'Touch a file');
    const p = await pending(core);
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'skip', surface: 'desktop' });
    const r = await turn.done;
    expect({ reason: r.reason, text: r.text, file: existsSync(join(h.fx.workspace, 'skipped.txt')) }).toEqual({ reason: 'completed', text: 'Understood, skipped.', file: false });
    expect(lastResults().join()).toMatch(/skipped this call/);
  });

  it('stop during a running command kills it, answers every call, and makes no further model call', async () => {
    const { agent } = await setup(kind, { level: 'auto-edit' });
    h.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'sleep 30; touch late.txt' } }, { name: 'list_dir', args: { path: '.' } }] }, { text: 'never' });
    const turn = agent.send(null, 'Wait a while');
    await new Promise((r) => setTimeout(r, 600));
    agent.stop(turn.sessionId);
    const r = await turn.done;
    expect({ reason: r.reason, requests: h.fake.requests.length, late: existsSync(join(h.fx.workspace, 'late.txt')) }).toEqual({ reason: 'stopped', requests: 1, late: false });
    h.fake.clear();
    // The next turn's history must still pair every call with a result (the fake enforces it).
    h.fake.enqueue({ text: 'ok' });
    const next = await agent.send(turn.sessionId, 'Continue').done;
    expect(next.reason).toBe('completed');
    expect(lastResults()).toEqual([expect.stringMatching(/stopped by the user/), expect.stringMatching(/turn was stopped; this call did not run/)]);
  });

  it('an unattended turn denies what would ask, and never waits', async () => {
    const { agent, core } = await setup(kind);
    h.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch unattended.txt' } }] }, { text: 'Could not.' });
    const r = await agent.send(null, 'Nightly job', { kind: 'unattended' }).done;
    expect({ reason: r.reason, file: existsSync(join(h.fx.workspace, 'unattended.txt')), outcome: core.store.approvals.listDecisions()[0]?.outcome }).toEqual({ reason: 'completed', file: false, outcome: 'no_approver' });
    expect(lastResults().join()).toMatch(/unattended/);
  });

  it('ask_user waits for the answer, which no rule or level can give', async () => {
    const { agent } = await setup(kind);
    h.fake.enqueue({ toolCalls: [{ name: 'ask_user', args: { question: 'Which branch?' } }] }, { text: 'Using main.' });
    const turn = agent.send(null, 'Deploy');
    let q = agent.questions.pending();
    for (let i = 0; i < 200 && q.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      q = agent.questions.pending();
    }
    expect(q[0]!.question).toBe('Which branch?');
    agent.questions.answer(q[0]!.id, 'main');
    await turn.done;
    expect(lastResults()).toEqual([expect.stringContaining('The user answered: main')]);
  });

  it('parallel calls are gated and run strictly in model order', async () => {
    const { agent, core } = await setup(kind);
    const order: string[] = [];
    core.events.on('call.state', (e) => {
      if (e.state === 'awaiting_approval' || e.state === 'executing' || e.state === 'succeeded') order.push(`${e.tool}:${e.state}`);
    });
    core.events.on('approval.requested', (p) => order.push(`${p.tool}:asked`));
    h.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch first.txt' } }, { name: 'read_file', args: { path: 'README.md' } }] }, { text: 'Both done.' });
    const turn = agent.send(null, 'Two things');
    const p = await pending(core);
    await new Promise((r) => setTimeout(r, 200));
    expect(order).toEqual(['run_command:asked', 'run_command:awaiting_approval']);
    await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
    await turn.done;
    expect(order).toEqual(['run_command:asked', 'run_command:awaiting_approval', 'run_command:executing', 'run_command:succeeded', 'read_file:executing', 'read_file:succeeded']);
  });

  it('malformed arguments and unknown tools become errors the model can correct', async () => {
    const { agent } = await setup(kind);
    h.fake.enqueue({ toolCalls: [{ name: 'read_file', args: '{"path": ' }, { name: 'delete_everything', args: {} }] }, { toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] }, { text: 'Read it.' });
    const r = await agent.send(null, 'Read the readme').done;
    expect({ reason: r.reason, steps: r.steps }).toEqual({ reason: 'completed', steps: 3 });
    const firstResults = (h.fake.requests[1]!.body['messages'] as unknown[]).slice(-3);
    expect(JSON.stringify(firstResults)).toMatch(/not valid/);
    expect(lastResults().join()).toContain('# project');
  });

  it('a provider outage is reported with how to fix it, and nothing is invented', async () => {
    const { agent, core } = await setup(kind, { url: await closedPort() });
    const r = await agent.send(null, 'Hello').done;
    expect({ reason: r.reason, text: r.text }).toEqual({ reason: 'provider_error', text: '' });
    expect(r.error).toMatch(/No model answered[\s\S]*\[provider\]/);
    const notes = core.store.transcripts.list(core.store.sessions.list()[0]!.id).filter((m) => m.role === 'note');
    expect(notes).toHaveLength(1);
  });

  it('HTTP 500s after retries are reported as a provider failure', async () => {
    const { agent } = await setup(kind, { maxRetries: 1 });
    h.fake.enqueue({ http: { status: 500 } }, { http: { status: 500 } });
    const r = await agent.send(null, 'Hello').done;
    expect({ reason: r.reason, error: r.error }).toEqual({ reason: 'provider_error', error: expect.stringMatching(/HTTP 500/) });
  });
});

describe('restart with a call pending', () => {
  it('repairs the transcript, lists the orphan, and after approval runs it in a follow-up turn', async () => {
    const store = Store.inMemory();
    const first = await setup('openai-compatible', { store });
    h.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch after-restart.txt' } }] });
    const turn = first.agent.send(null, 'Touch a file');
    const p = await pending(first.core);
    // The process dies: nothing answers the waiter; a new process opens the same store.
    h.live.splice(h.live.indexOf(first), 1);
    const second = await setup('openai-compatible', { store });
    const transcript = second.core.store.transcripts.list(turn.sessionId);
    expect(transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'note']);
    expect(second.core.gate.listPending().map((x) => [x.id, x.orphan])).toEqual([[p.id, true]]);
    expect(second.core.store.sessions.getTurn(turn.turnId)).toMatchObject({ end_reason: 'crashed' });
    h.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch after-restart.txt' } }] }, { text: 'Done after the restart.' });
    const ended = new Promise<void>((resolve) => second.core.events.on('turn.ended', () => resolve()));
    await second.core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'control' });
    await ended;
    expect(existsSync(join(h.fx.workspace, 'after-restart.txt'))).toBe(true);
    expect(second.core.gate.awaitingFollowUps()).toEqual([]);
  });
});
