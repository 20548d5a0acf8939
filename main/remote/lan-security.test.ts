import { describe, expect, it } from 'vitest';
import { lanHost, lanHostAllowed, lanOriginAllowed } from '../web/security';

const LAN = lanHost('192.168.1.20', 4, 8443);
const LAN6 = lanHost('fd00::5', 6, 8443);

// The phone listener's Host and Origin: exactly the paired address. Each refused line names a way in under another name.
describe('the phone listener answers only to its own address', () => {
  it.each([
    { host: '192.168.1.20:8443', ok: true },
    { host: undefined, ok: false },
    { host: '', ok: false },
    { host: '192.168.1.20', ok: false },
    { host: '192.168.1.20:443', ok: false },
    { host: '192.168.001.020:8443', ok: false },
    { host: '3232235796:8443', ok: false },
    { host: 'localhost:8443', ok: false },
    { host: '127.0.0.1:8443', ok: false },
    { host: 'laptop.local:8443', ok: false },
    { host: '192.168.1.20:8443.evil.example', ok: false },
    { host: '192.168.1.20:8443 ', ok: false },
  ])('Host $host → $ok', ({ host, ok }) => {
    expect(lanHostAllowed(host, LAN)).toBe(ok);
  });

  it.each([
    { host: '[fd00::5]:8443', ok: true },
    { host: '[FD00::5]:8443', ok: true },
    { host: '[fd00:0:0:0:0:0:0:5]:8443', ok: false },
    { host: 'fd00::5:8443', ok: false },
  ])('IPv6 Host $host → $ok', ({ host, ok }) => {
    expect(lanHostAllowed(host, LAN6)).toBe(ok);
  });

  it.each([
    { origin: undefined, ok: true },
    { origin: 'https://192.168.1.20:8443', ok: true },
    { origin: 'http://192.168.1.20:8443', ok: false },
    { origin: 'https://192.168.1.20', ok: false },
    { origin: 'http://127.0.0.1:8443', ok: false },
    { origin: 'null', ok: false },
    { origin: 'https://192.168.1.20:8443.evil.example', ok: false },
  ])('Origin $origin → $ok', ({ origin, ok }) => {
    expect(lanOriginAllowed(origin, LAN)).toBe(ok);
  });
});
