// The rules of Settings → Model, attention and grant suggestions, each with the case that would get
// past it, through the operation handlers every surface uses.
import { describe, expect, it } from 'vitest';
import { nextPending, shellCall, useCores } from '../../test/support/core';
import { invokeOperation } from '../../common/invoke';
import { createHandlers } from './handlers';
import { ModelSettings } from './model-settings';

const cores = useCores();
const core = () => cores({ config: { provider: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY', timeoutMs: 300_000 } } });

describe('the API key never comes over the web socket', () => {
  it.each([
    { name: 'the browser page (web surface)', surface: 'web' as const, transport: 'ui' as const, code: 'keychain_unavailable' },
    { name: 'the control socket', surface: 'control' as const, transport: 'control' as const, code: 'unknown_operation' },
  ])('from $name a key is refused ($code)', async ({ surface, transport, code }) => {
    const c = await core();
    const model = new ModelSettings({ core: c, agent: null, env: {} });
    // runtime.ts gives setApiKey to the desktop surface only: these surfaces are built without it.
    const handlers = createHandlers({ version: '0', core: c, surface, model });
    const r = await invokeOperation(handlers, transport, 'settings.set_api_key', { key: 'sk-ant-typed-in-a-browser' });
    expect({ code: r.ok ? null : r.error.code, view: model.view(false).key_source }).toEqual({ code, view: 'none' });
    if (surface === 'web') expect(r.ok ? '' : r.error.message).toEqual('This Threshold has no OS keychain; set the key in the environment variable ANTHROPIC_API_KEY before starting it.');
  });

  it('the model view says where a key comes from, never what it is', async () => {
    const c = await core();
    const handlers = createHandlers({ version: '0', core: c, surface: 'web', model: new ModelSettings({ core: c, agent: null, env: { ANTHROPIC_API_KEY: 'sk-ant-from-the-environment' } }) });
    const r = await invokeOperation(handlers, 'ui', 'model.get', undefined);
    expect({ source: r.ok ? (r.value as { key_source: string }).key_source : null, leaked: JSON.stringify(r).includes('sk-ant-from') }).toEqual({ source: 'environment', leaked: false });
  });

  it.each([
    { name: 'a file: URL', base_url: 'file:///etc/passwd' },
    { name: 'a javascript: URL', base_url: 'javascript:alert(1)' },
    { name: 'no URL at all', base_url: 'api.anthropic.com' },
  ])('refuses to save a provider at $name', async ({ base_url }) => {
    const c = await core();
    const handlers = createHandlers({ version: '0', core: c, surface: 'web', model: new ModelSettings({ core: c, agent: null, env: {} }) });
    const r = await invokeOperation(handlers, 'ui', 'model.set', { kind: 'anthropic', base_url, model: 'm' });
    expect({ code: r.ok ? null : r.error.code, saved: c.store.settings.get('provider') ?? null }).toEqual({ code: 'invalid_params', saved: null });
  });
});

describe('a card never suggests a grant a floor forbids', () => {
  it('a credential read approved again and again gets no suggestion on its card', async () => {
    const c = await core();
    const handlers = createHandlers({ version: '0', core: c, surface: 'desktop' });
    const command = 'cat /home/user/.ssh/id_ed25519';
    for (let n = 1; n <= 3; n++) {
      const review = c.calls.review(shellCall(command, { sessionId: `s${n}`, turnId: `t${n}` }));
      const p = await nextPending(c);
      await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
      await review;
    }
    const review = c.calls.review(shellCall(command, { sessionId: 's4', turnId: 't4' }));
    const p = await nextPending(c);
    expect(await invokeOperation(handlers, 'ui', 'grant.list_suggestions', { approval_id: p.id })).toEqual({ ok: true, value: [] });
    expect(await invokeOperation(handlers, 'ui', 'grant.list_suggestions', undefined)).toEqual({ ok: true, value: [] });
    await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'deny', surface: 'desktop' });
    await review;
  });
});
