import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationName as Channel } from '../../common/operations';
import { nextPending, shellCall, testCore } from '../../test/support/core';
import { createAgent } from '../runtime/create-agent';
import type { Agent } from '../agent/agent';
import type { ThresholdCore } from '../runtime/core';
import { createHandlers } from '../runtime/handlers';
import { registerHandlers, type IpcEventLike } from './ipc';
import { isAppUrl } from './window';

const TRUSTED = 'app://threshold/index.html';
let core: ThresholdCore;
const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
const call = (channel: Channel, payload?: unknown, url = TRUSTED) => handlers.get(channel)!({ senderFrame: { url } }, payload) as Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;

beforeAll(async () => {
  core = await testCore();
  registerHandlers({ handle: (c, f) => handlers.set(c, f) }, { handlers: createHandlers({ version: '1.2.3', core, surface: 'desktop' }), trustedFrame: isAppUrl });
});
afterAll(() => core.dispose());

describe('IPC handlers', () => {
  it('answers app.get-info with the name, version and runtime', async () => {
    expect(await call('app.get_info')).toEqual({ ok: true, value: { name: 'Threshold', version: '1.2.3', runtime: 'electron' } });
  });

  it.each([
    { name: 'a frame that is not the app', channel: 'settings.get' as Channel, payload: undefined, url: 'https://evil.example/', code: 'untrusted_sender' },
    { name: 'a file:// frame', channel: 'settings.get' as Channel, payload: undefined, url: 'file:///opt/threshold/out/renderer/index.html', code: 'untrusted_sender' },
    { name: 'a frame with no url', channel: 'approval.list_pending' as Channel, payload: undefined, url: '', code: 'untrusted_sender' },
    { name: 'an unknown outcome', channel: 'approval.decide' as Channel, payload: { id: 'ap_x', hash: 'a'.repeat(64), outcome: 'expired' }, url: TRUSTED, code: 'invalid_params' },
    { name: 'an extra field', channel: 'approval.decide' as Channel, payload: { id: 'ap_x', hash: 'a'.repeat(64), outcome: 'deny', force: true }, url: TRUSTED, code: 'invalid_params' },
    { name: 'a payload where none is expected', channel: 'settings.get' as Channel, payload: { x: 1 }, url: TRUSTED, code: 'invalid_params' },
    { name: 'an unknown level', channel: 'settings.set_level' as Channel, payload: { level: 'yolo' }, url: TRUSTED, code: 'invalid_params' },
    { name: 'an unknown approval', channel: 'approval.decide' as Channel, payload: { id: 'ap_x', hash: 'a'.repeat(64), outcome: 'deny' }, url: TRUSTED, code: 'not_found' },
  ])('refuses $name with a value, not a throw', async ({ channel, payload, url, code }) => {
    expect(await call(channel, payload, url)).toMatchObject({ ok: false, error: { code } });
  });

  it('offers the window only the UI operations: it cannot submit tool calls or record outcomes', () => {
    expect([...handlers.keys()].filter((c) => ['approval.request', 'approval.record_outcome', 'approval.list_follow_ups'].includes(c))).toEqual([]);
    expect(handlers.has('grant.preview')).toBe(true);
  });

  it("previews the card's grant with the card's own command first", async () => {
    const review = core.calls.review(shellCall('npm test'));
    const p = await nextPending(core);
    const r = (await call('grant.preview', { tool: 'run_command', patterns: p.proposed_grant!.patterns, approval_id: p.id })) as { ok: true; value: { samples: { text: string; source: string; covered: boolean }[] } };
    const judged = (text: string) => r.value.samples.filter((s) => s.text === text).map((s) => [s.text, s.source, s.covered]);
    expect([r.value.samples[0] && [r.value.samples[0].text, r.value.samples[0].source, r.value.samples[0].covered], ...judged('npm test --verbose'), ...judged("npm test; python3 -c 'import os'")]).toEqual([
      ['npm test', 'call', true],
      ['npm test --verbose', 'sample', false],
      ["npm test; python3 -c 'import os'", 'sample', false],
    ]);
    await call('approval.decide', { id: p.id, hash: p.hash, outcome: 'skip' });
    await review;
  });

  it('decides a pending approval as the desktop surface', async () => {
    const review = core.calls.review(shellCall('touch ipc.txt'));
    const p = await nextPending(core);
    const listed = await call('approval.list_pending');
    expect((listed.value as { id: string }[]).map((x) => x.id)).toEqual([p.id]);
    expect(await call('approval.decide', { id: p.id, hash: p.hash, outcome: 'approve_once' })).toMatchObject({ ok: true, value: { outcome: 'approve_once', decided_by: 'desktop' } });
    expect((await review).run).toBe(true);
  });
});

describe('IPC handlers for the agent', () => {
  const agentHandlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  const ask = (channel: Channel, payload?: unknown) => agentHandlers.get(channel)!({ senderFrame: { url: TRUSTED } }, payload) as Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
  let agentCore: ThresholdCore;
  let agent: Agent;
  beforeAll(async () => {
    agentCore = await testCore();
    agent = createAgent(agentCore, { demo: true, env: {} });
    registerHandlers({ handle: (c, f) => agentHandlers.set(c, f) }, { handlers: createHandlers({ version: '1', core: agentCore, agent, surface: 'desktop' }), trustedFrame: (u) => u === TRUSTED });
  });
  afterAll(async () => {
    await agent.dispose();
    agentCore.dispose();
  });

  it('names the model, so the demo is labelled as scripted', async () => {
    expect(await ask('agent.get_info')).toEqual({ ok: true, value: { model: 'Demo: scripted model', running: [] } });
  });

  it('starts a turn at once, shows it in the sessions and transcript, and stops it', async () => {
    const sent = (await ask('agent.send', { message: 'Show me around' })) as { ok: true; value: { session_id: string; appended: boolean } };
    expect(sent).toMatchObject({ ok: true, value: { appended: false } });
    await nextPending(agentCore);
    const sessions = (await ask('agent.list_sessions')).value as { id: string; running: boolean }[];
    expect(sessions.map((s) => [s.id, s.running])).toEqual([[sent.value.session_id, true]]);
    expect(await ask('agent.stop', { session_id: sent.value.session_id })).toEqual({ ok: true, value: { stopped: true } });
    const transcript = (await ask('agent.get_transcript', { session_id: sent.value.session_id })).value as { role: string }[];
    expect(transcript[0]).toMatchObject({ role: 'user' });
  });

  it.each([
    { name: 'an empty message', channel: 'agent.send' as Channel, payload: { message: '' }, code: 'invalid_params' },
    { name: 'an unknown session', channel: 'agent.get_transcript' as Channel, payload: { session_id: 's_nope' }, code: 'not_found' },
    { name: 'an answer to no question', channel: 'question.answer' as Channel, payload: { id: 'q_nope', answer: 'yes' }, code: 'not_found' },
    { name: 'a dismissal with an extra field', channel: 'question.dismiss' as Channel, payload: { id: 'q_x', all: true }, code: 'invalid_params' },
  ])('refuses $name', async ({ channel, payload, code }) => {
    expect(await ask(channel, payload)).toMatchObject({ ok: false, error: { code } });
  });

  it('says there is no agent when the app runs without one', async () => {
    expect(await call('agent.get_info')).toMatchObject({ ok: false, error: { code: 'agent_unavailable' } });
  });
});
