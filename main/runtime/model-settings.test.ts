// Settings → Model over a real store and real HTTP: "Test connection" talks to the fake provider (the
// outside boundary) in its real wire formats; a saved provider is a layer over the config, audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProvider } from '../../test/fake-provider/server';
import { freePort } from '../../test/e2e/support';
import { testCore } from '../../test/support/core';
import { DEFAULT_CONFIG } from '../config/load';
import { ModelSettings, TEST_PROMPT } from './model-settings';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await FakeProvider.start();
});
afterAll(() => fake.close());

async function settings(opts: { env?: Record<string, string>; keychain?: string | null; demo?: boolean; kind?: 'openai-compatible' | 'openai' | 'anthropic' } = {}) {
  const kind = opts.kind ?? 'openai';
  const core = await testCore({ config: { provider: { ...DEFAULT_CONFIG.provider, kind, baseUrl: `${fake.url}/v1`, model: 'fake-model', apiKeyEnv: kind === 'openai-compatible' ? null : kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY' } } });
  return { core, m: new ModelSettings({ core, agent: null, env: opts.env ?? {}, keychainKey: opts.keychain === undefined ? undefined : () => opts.keychain ?? null, demo: opts.demo }) };
}

describe('the model view', () => {
  it.each([
    { name: 'no key anywhere', env: {} as Record<string, string>, keychain: undefined, source: 'none' },
    { name: 'a key in the environment variable', env: { OPENAI_API_KEY: 'sk-env-123456' }, keychain: undefined, source: 'environment' },
    { name: 'a key in the keychain (it wins over the variable)', env: { OPENAI_API_KEY: 'sk-env-123456' }, keychain: 'sk-chain-123456', source: 'keychain' },
  ])('says where the key comes from with $name, and never shows the key', async ({ env, keychain, source }) => {
    const { m } = await settings({ env, keychain });
    const view = m.view(keychain !== undefined);
    expect(view).toEqual({ kind: 'openai', base_url: `${fake.url}/v1`, model: 'fake-model', api_key_env: 'OPENAI_API_KEY', key_source: source, key_storable: keychain !== undefined, origin: 'config', label: 'OpenAI fake-model', key_applies: source !== 'none', key_note: null });
    expect(JSON.stringify(view)).not.toMatch(/sk-(env|chain)/);
  });
});

describe('Test connection', () => {
  it.each([
    { name: 'OpenAI', kind: 'openai' as const, protocol: 'openai' },
    { name: 'Anthropic', kind: 'anthropic' as const, protocol: 'anthropic' },
    { name: 'an OpenAI-compatible server', kind: 'openai-compatible' as const, protocol: 'openai' },
  ])("reports $name's answer and the latency, sending one short request with the key", async ({ kind, protocol }) => {
    const { m } = await settings({ kind, env: { OPENAI_API_KEY: 'sk-test-openai', ANTHROPIC_API_KEY: 'sk-test-anthropic' } });
    fake.clear();
    fake.enqueue({ text: 'ready' });
    const before = fake.requests.length;
    const r = await m.test(undefined);
    const req = fake.requests[before]!;
    expect({ reached: r.reached, answer: r.answer, error: r.error, latency: r.latency_ms >= 0, requests: fake.requests.length - before, protocol: req.protocol, prompt: JSON.stringify(req.body).includes(TEST_PROMPT) }).toEqual({ reached: true, answer: 'ready', error: null, latency: true, requests: 1, protocol, prompt: true });
    const auth = kind === 'anthropic' ? req.headers['x-api-key'] : kind === 'openai' ? req.headers['authorization'] : undefined;
    expect(auth).toEqual(kind === 'anthropic' ? 'sk-test-anthropic' : kind === 'openai' ? 'Bearer sk-test-openai' : undefined);
  });

  it.each([
    { name: 'refused credentials', step: { http: { status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } } } }, error: (u: string) => `HTTP 401 from ${u}/v1: Incorrect API key provided.` },
    { name: 'an unknown model', step: { http: { status: 404, body: { error: { message: 'The model `nope` does not exist.' } } } }, error: (u: string) => `HTTP 404 from ${u}/v1: The model \`nope\` does not exist.` },
    { name: 'a server error', step: { http: { status: 500, body: { error: { message: 'boom' } } } }, error: (u: string) => `HTTP 500 from ${u}/v1: boom` },
  ])("reports the provider's own error for $name, without retrying", async ({ step, error }) => {
    const { m } = await settings();
    fake.clear();
    fake.enqueue(step);
    const before = fake.requests.length;
    const r = await m.test(undefined);
    expect({ reached: r.reached, answer: r.answer, error: r.error, requests: fake.requests.length - before }).toEqual({ reached: false, answer: null, error: error(fake.url), requests: 1 });
  });

  it('tests the settings on the form before they are saved, and says when nothing listens there', async () => {
    const { m } = await settings();
    const port = await freePort();
    const r = await m.test({ kind: 'openai-compatible', base_url: `http://127.0.0.1:${port}/v1`, model: 'm' });
    expect({ reached: r.reached, error: r.error, label: r.label, saved: m.view(false).base_url }).toEqual({ reached: false, error: `Nothing is listening at http://127.0.0.1:${port}/v1 (connection refused).`, label: `OpenAI-compatible server at http://127.0.0.1:${port}/v1 (m)`, saved: `${fake.url}/v1` });
  });

  it("redacts a key the model repeats in its answer", async () => {
    const { m } = await settings({ env: { OPENAI_API_KEY: 'sk-live-abcdef123456' } });
    fake.clear();
    fake.enqueue({ text: 'your key is sk-live-abcdef123456' });
    const r = await m.test(undefined);
    expect(r.answer).not.toContain('sk-live-abcdef123456');
  });
});

describe('saving a provider', () => {
  it('keeps it over the config file, audits it, and lets the key variable follow the kind', async () => {
    const { core, m } = await settings();
    const r = await m.set({ kind: 'anthropic', base_url: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5' }, 'desktop', false);
    const audit = core.store.audit.list({ limit: 1 })[0]!;
    expect({ r, config: core.config.provider.kind, audit: { kind: audit.kind, subject: audit.subject } }).toEqual({
      r: { ok: true, value: { kind: 'anthropic', base_url: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5', api_key_env: 'ANTHROPIC_API_KEY', key_source: 'none', key_storable: false, origin: 'page', label: 'Anthropic claude-sonnet-4-5', key_applies: false, key_note: null } },
      config: 'openai',
      audit: { kind: 'settings.changed', subject: 'provider' },
    });
  });

  it("refuses in the demo, whose scripted model stays", async () => {
    const { m } = await settings({ demo: true });
    expect(await m.set({ kind: 'openai', base_url: 'https://api.openai.com/v1', model: 'gpt-4o' }, 'web', false)).toMatchObject({ ok: false, error: { code: 'demo_model' } });
  });
});
