import { describe, expect, it } from 'vitest';
import { bridgeEndpointProblem } from './remote-endpoint';

// Where a bridge's token may be sent: https anywhere, plain http only to this computer. Each refused line
// is a way to get a token sent in the clear, or somewhere other than the address as read.
describe('a bridge token goes only over https, or plain http to this computer', () => {
  it.each([
    { url: 'https://api.telegram.org', ok: true },
    { url: 'https://matrix.example.org:8448/', ok: true },
    { url: 'http://127.0.0.1:8081', ok: true },
    { url: 'http://127.9.9.9:8081', ok: true },
    { url: 'http://localhost:8008', ok: true },
    { url: 'http://[::1]:8008', ok: true },
    { url: 'http://api.telegram.org', ok: false },
    { url: 'http://127.0.0.1.evil.example', ok: false },
    { url: 'http://localhost.evil.example', ok: false },
    { url: 'http://192.168.1.5:8008', ok: false },
    { url: 'http://[::ffff:8.8.8.8]', ok: false },
    { url: 'http://0x7f000001.evil', ok: false },
    { url: 'https://user:pass@api.telegram.org', ok: false },
    { url: 'https://api.telegram.org/?token=x', ok: false },
    { url: 'ftp://api.telegram.org', ok: false },
    { url: 'api.telegram.org', ok: false },
  ])('$url → allowed: $ok', ({ url, ok }) => {
    expect(bridgeEndpointProblem(url) === null).toBe(ok);
  });
});
