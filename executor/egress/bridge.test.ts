// The bridge's helper on the host's loopback (no jail: test/jail/egress.test.ts runs it inside one). The
// proxy adopts the helper's listener and hands it every allowed tunnel, which the helper then relays with
// splice: what a client sends and gets must be exactly what it would get from the host, tunnel by tunnel.
import { createHash, randomBytes } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHelper, type Bridge } from './bridge';
import { EgressProxy } from './proxy';

const PORT = 20_000 + (process.pid % 20_000);
const payload = randomBytes(3 * 1024 * 1024 + 5);
const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let echo: Server; // answers every byte with the same byte, and "bye" and the end after a "!"
let banner: Server; // speaks first
let big: Server; // sends the payload and closes
const ports = { echo: 0, banner: 0, big: 0 };
let proxy: EgressProxy;
let bridge: Bridge | null;

beforeAll(async () => {
  echo = createServer((s) => {
    s.on('data', (d: Buffer) => {
      s.write(d);
      if (d.includes('!')) s.end('bye');
    });
  });
  banner = createServer((s) => s.end('220 banner first'));
  big = createServer((s) => s.end(payload));
  for (const [name, server] of [['echo', echo], ['banner', banner], ['big', big]] as const) {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    ports[name] = (server.address() as AddressInfo).port;
  }
  proxy = new EgressProxy({ patterns: Object.values(ports).map((p) => `127.0.0.1:${p}`) });
  bridge = await startHelper([], PORT, performance.now() + 10_000, (listener, relay) => proxy.adopt(listener, relay));
});

afterAll(async () => {
  bridge?.stop();
  await proxy.close();
  for (const s of [echo, banner, big]) s.close();
});

/** Sends `first` (and, once answered, `then`) and returns all that came back until the host ended. */
function talk(first: Buffer | string, then?: Buffer | string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port: PORT });
    const got: Buffer[] = [];
    let sentThen = then === undefined;
    s.on('data', (d: Buffer) => {
      got.push(d);
      if (!sentThen) {
        sentThen = true;
        s.write(then!);
      }
    });
    s.on('connect', () => s.write(first));
    s.on('end', () => resolve(Buffer.concat(got)));
    s.on('error', reject);
  });
}

const CONNECT = (port: number) => `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: x\r\n\r\n`;
const OK = 'HTTP/1.1 200 Connection Established\r\n\r\n';

describe('the bridge helper relaying tunnels', () => {
  it('came up and took the listener', () => {
    expect(bridge).not.toBeNull();
  });

  it.each([
    { name: 'bytes sent after the answer reach the host, and its answer comes back', first: () => CONNECT(ports.echo), then: 'ping!', expected: () => `${OK}ping!bye` },
    { name: 'bytes sent in the same write as the CONNECT request (ahead of the answer) reach the host', first: () => `${CONNECT(ports.echo)}early!`, then: undefined, expected: () => `${OK}early!bye` },
    { name: 'a host that speaks first is heard only after the proxy has answered', first: () => CONNECT(ports.banner), then: undefined, expected: () => `${OK}220 banner first` },
    { name: 'a CONNECT to a port not allowed is refused before anything is handed over', first: () => CONNECT(1), then: undefined, expected: () => 'HTTP/1.1 403 Forbidden' },
  ])('CONNECT: $name', async (c) => {
    const got = (await talk(c.first(), c.then)).toString('latin1');
    expect(got.startsWith('HTTP/1.1 403') ? got.split('\r\n')[0] : got).toEqual(c.expected());
  });

  it('CONNECT: a large download arrives whole', async () => {
    const got = await talk(CONNECT(ports.big));
    const body = got.subarray(OK.length);
    expect({ head: got.subarray(0, OK.length).toString('latin1'), length: body.length, sha: digest(body) }).toEqual({ head: OK, length: payload.length, sha: digest(payload) });
  });

  it('SOCKS5: a tunnel is relayed the same way, bytes sent before its reply included', { timeout: 10_000 }, async () => {
    const p = Buffer.alloc(2);
    p.writeUInt16BE(ports.echo);
    const request = Buffer.concat([Buffer.from([0x05, 0x01, 0x00, 0x05, 0x01, 0x00, 0x01, 127, 0, 0, 1]), p]);
    const got = await talk(request, 'socks ping!');
    expect({ replies: [...got.subarray(0, 4)], rest: got.subarray(12).toString('latin1') }).toEqual({ replies: [0x05, 0x00, 0x05, 0x00], rest: 'socks ping!bye' });
  });

  it('twenty tunnels opened at once each get back their own bytes (no socket is paired with another tunnel)', async () => {
    const mine = Array.from({ length: 20 }, (_, i) => `tunnel ${i} ${randomBytes(8).toString('hex')}`);
    const got = await Promise.all(mine.map((m) => talk(`${CONNECT(ports.echo)}${m}!`)));
    expect(got.map((g) => g.toString('latin1'))).toEqual(mine.map((m) => `${OK}${m}!bye`));
  });
});
