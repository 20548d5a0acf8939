import { describe, expect, it } from 'vitest';
import { exchangeToken, tokenFromHash } from './web-auth';

describe('the web token exchange', () => {
  it.each([
    ['#token=abc', 'abc'],
    ['#x=1&token=a%2Fb', 'a/b'],
    ['#', null],
    ['', null],
    ['#tokenx=abc', null],
  ])('reads the token from %j', (hash, expected) => {
    expect(tokenFromHash(hash)).toEqual(expected);
  });

  it('posts the token once as a Bearer header and removes it from the address bar first', async () => {
    const calls: unknown[] = [];
    const outcome = await exchangeToken(
      { hash: '#token=t0k', pathname: '/', search: '' },
      {
        fetch: (async (url: string, init: RequestInit) => (calls.push(['fetch', url, init]), { ok: true })) as unknown as typeof fetch,
        replaceState: (url) => calls.push(['replaceState', url]),
      },
    );
    expect(outcome).toEqual('exchanged');
    expect(calls).toEqual([
      ['replaceState', '/'],
      ['fetch', '/auth', { method: 'POST', headers: { Authorization: 'Bearer t0k' }, credentials: 'same-origin' }],
    ]);
  });

  it.each([
    ['refused', async () => ({ ok: false }), 'refused'],
    ['unreachable', async () => Promise.reject(new Error('down')), 'unreachable'],
  ])('reports a %s exchange', async (_n, fetchImpl, expected) => {
    expect(await exchangeToken({ hash: '#token=x', pathname: '/', search: '' }, { fetch: fetchImpl as unknown as typeof fetch, replaceState: () => undefined })).toEqual(expected);
  });

  it('does nothing without a token (the cookie may still be valid)', async () => {
    expect(await exchangeToken({ hash: '', pathname: '/', search: '' }, { fetch: (() => Promise.reject(new Error('no'))) as unknown as typeof fetch, replaceState: () => undefined })).toEqual('no_token');
  });
});
