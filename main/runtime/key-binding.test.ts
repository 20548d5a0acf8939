// The key-binding rule as data: which endpoints are the same, what counts as this machine, where each
// source's key is bound by default, and the spellings that would slip a key past a careless comparison.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type ProviderConfig } from '../config/load';
import { isLoopbackHost, keyNeverGoesTo, KeyBindings, keyUseQuestion, sameEndpoint, type Endpoint } from './key-binding';

const file: ProviderConfig = { ...DEFAULT_CONFIG.provider, kind: 'openai', baseUrl: 'https://llm.example.com/v1', apiKeyEnv: 'OPENAI_API_KEY' };
const at = (kind: Endpoint['kind'], base_url: string): Endpoint => ({ kind, base_url });

describe('the same endpoint', () => {
  it.each([
    { name: 'a trailing slash', b: at('openai', 'https://llm.example.com/v1/'), same: true },
    { name: 'upper-case host and scheme', b: at('openai', 'HTTPS://LLM.EXAMPLE.COM/v1'), same: true },
    { name: 'the default port written out', b: at('openai', 'https://llm.example.com:443/v1'), same: true },
    { name: 'another kind', b: at('anthropic', 'https://llm.example.com/v1'), same: false },
    { name: 'another port', b: at('openai', 'https://llm.example.com:8443/v1'), same: false },
    { name: 'http instead of https', b: at('openai', 'http://llm.example.com/v1'), same: false },
    { name: 'a longer host that starts the same', b: at('openai', 'https://llm.example.com.evil.test/v1'), same: false },
    { name: 'the host as user info before another host', b: at('openai', 'https://llm.example.com@evil.test/v1'), same: false },
    { name: 'another path prefix', b: at('openai', 'https://llm.example.com/evil/v1'), same: false },
    { name: 'a dot segment that climbs out', b: at('openai', 'https://llm.example.com/v1/../evil'), same: false },
    { name: 'an encoded slash', b: at('openai', 'https://llm.example.com/v1%2F..%2Fevil'), same: false },
    { name: 'a query added', b: at('openai', 'https://llm.example.com/v1?x=1'), same: false },
  ])('$name: $same', ({ b, same }) => {
    expect(sameEndpoint(at('openai', 'https://llm.example.com/v1'), b)).toBe(same);
  });
});

describe('this machine (plain http:// is allowed to carry a key only here)', () => {
  it.each([
    { url: 'http://127.0.0.1:1/v1', loopback: true },
    { url: 'http://127.9.8.7:1/v1', loopback: true },
    { url: 'http://localhost:1/v1', loopback: true },
    { url: 'http://[::1]:1/v1', loopback: true },
    { url: 'http://[::ffff:127.0.0.1]:1/v1', loopback: true },
    { url: 'http://2130706433:1/v1', loopback: true },
    { url: 'http://0x7f.1:1/v1', loopback: true },
    { url: 'http://localhost.evil.test:1/v1', loopback: false },
    { url: 'http://127.0.0.1.evil.test:1/v1', loopback: false },
    { url: 'http://10.0.0.5:1/v1', loopback: false },
    { url: 'http://[::ffff:10.0.0.5]:1/v1', loopback: false },
    { url: 'http://0.0.0.0:1/v1', loopback: false },
  ])('$url: $loopback', ({ url, loopback }) => {
    expect({ loopback: isLoopbackHost(new URL(url).hostname), keyRefused: keyNeverGoesTo(url) !== null }).toEqual({ loopback, keyRefused: !loopback });
  });

  it.each(['https://10.0.0.5/v1', 'https://api.anthropic.com/v1'])('https:// to %s may carry a key', (url) => {
    expect(keyNeverGoesTo(url)).toBeNull();
  });

  it('a URL with user info never carries a key', () => {
    expect(keyNeverGoesTo('https://user:pw@api.anthropic.com/v1')).toMatch(/user name or password/);
  });
});

describe('where each source is bound by default', () => {
  const b = new KeyBindings(file, () => ({}));
  it.each([
    { source: 'keychain' as const, bound: at('openai', 'https://llm.example.com/v1') },
    { source: 'env:OPENAI_API_KEY' as const, bound: at('openai', 'https://llm.example.com/v1') },
    { source: 'env:ANTHROPIC_API_KEY' as const, bound: at('anthropic', 'https://api.anthropic.com/v1') },
    { source: 'env:SOME_OTHER_KEY' as const, bound: null },
  ])('$source', ({ source, bound }) => {
    expect(b.bindingOf(source)).toEqual(bound);
  });

  it('a moved binding wins over the default, and nothing else changes', () => {
    const moved = new KeyBindings(file, () => ({ keychain: at('anthropic', 'https://proxy.example.com/v1') }));
    expect({ keychain: moved.allows('keychain', at('anthropic', 'https://proxy.example.com/v1')).ok, old: moved.allows('keychain', at('openai', 'https://llm.example.com/v1')).ok, env: moved.allows('env:OPENAI_API_KEY', at('openai', 'https://llm.example.com/v1')).ok }).toEqual({ keychain: true, old: false, env: true });
  });

  it('a stored binding that is not an endpoint is ignored (the default holds)', () => {
    const junk = new KeyBindings(file, () => ({ keychain: { kind: 'evil', base_url: 'http://x' } as unknown as Endpoint }));
    expect(junk.bindingOf('keychain')).toEqual(at('openai', 'https://llm.example.com/v1'));
  });
});

describe('the question the desktop asks', () => {
  it('names the source, both addresses and what saying yes does', () => {
    const q = keyUseQuestion({ purpose: 'save', source: 'the OS keychain', from: at('openai', 'https://llm.example.com/v1'), to: at('anthropic', 'http://127.0.0.1:9/v1') });
    expect(q).toEqual({
      title: 'Send the API key to another address?',
      message: 'Save this provider with the API key from the OS keychain?',
      detail: 'The key is kept for openai at https://llm.example.com/v1.\nIt would be sent to anthropic at http://127.0.0.1:9/v1.\nFrom now on the key would go there instead.\nSend it only if you set this address yourself: a page or a prompt can ask for it too.',
      buttons: ['Send the key', 'Do not send it'],
    });
  });
});
