// Plain HTTP bodies moved by the bridge's helper (./forward.ts hands the rest of a long stated body to
// ./helper.ts, which splices it from the host's socket to the client's). The helper runs on the host's
// loopback here, as in bridge.test.ts. What a client gets must be exactly what Node's own framing would
// give, and the splice must open no way past the checks: a host cannot append a second response, a
// request sent during the splice is parsed and checked on its own, a connection cannot reach a second,
// disallowed host after a spliced body, and a body cut short is not taken for a whole one.
import { createHash, randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHelper, type Bridge } from './bridge';
import { SPLICE_MIN_BYTES } from './forward';
import { EgressProxy, REFUSAL_HEADER } from './proxy';

const PORT = 20_000 + ((process.pid + 7_919) % 20_000);
const payload = randomBytes(3 * 1024 * 1024 + 11);
const small = randomBytes(SPLICE_MIN_BYTES - 1);
const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// /stated (the payload), /small (below the splice threshold), /slow (the payload, in two halves 300 ms
// apart), /stall (half the payload, then nothing until the connection closes)
let web: HttpServer;
let raw: Server; // answers by hand: /more (a second response after the stated body), /short (half the stated body, then closes)
let denied: Server; // a host no pattern allows
const ports = { web: 0, raw: 0, denied: 0 };
let deniedConnections = 0;
let hostSaw: string[] = [];
/** Host-side sockets of /stall, to see them closed when the client leaves. */
const stalled: Socket[] = [];
let proxy: EgressProxy;
let bridge: Bridge | null;
/** Lengths handed to the helper, in order. */
let spliced: number[] = [];

beforeAll(async () => {
  web = createHttpServer((req, res) => {
    hostSaw.push(`${req.method} ${req.url} host=${req.headers.host}`);
    if (req.url === '/small') return void res.writeHead(200, { 'content-length': small.length }).end(small);
    res.writeHead(200, { 'content-length': payload.length });
    if (req.url !== '/slow' && req.url !== '/stall') return void res.end(payload);
    res.write(payload.subarray(0, payload.length >> 1));
    if (req.url === '/stall') return void stalled.push(req.socket);
    setTimeout(() => res.end(payload.subarray(payload.length >> 1)), 300);
  });
  raw = createServer((s) => {
    s.on('error', () => {}); // the proxy closes the host's connection once the stated length has gone
    s.once('data', (d: Buffer) => {
      const head = `HTTP/1.1 200 OK\r\nContent-Length: ${payload.length}\r\n\r\n`;
      if (d.toString('latin1').includes('/short')) return void s.end(Buffer.concat([Buffer.from(head), payload.subarray(0, payload.length >> 1)]));
      s.end(Buffer.concat([Buffer.from(head), payload, Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nsmuggled')]));
    });
  });
  denied = createServer((s) => {
    deniedConnections++;
    s.end('HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nreached');
  });
  for (const [name, server] of [['web', web], ['raw', raw], ['denied', denied]] as const) {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    ports[name] = (server.address() as AddressInfo).port;
  }
  proxy = new EgressProxy({ patterns: [`127.0.0.1:${ports.web}`, `127.0.0.1:${ports.raw}`] });
  bridge = await startHelper([], PORT, performance.now() + 10_000, (listener, relay) =>
    proxy.adopt(listener, {
      ...relay,
      splice: (client, host, length) => {
        spliced.push(length);
        return relay.splice(client, host, length);
      },
    }),
  );
});

afterAll(async () => {
  bridge?.stop();
  await proxy.close();
  for (const s of [web, raw, denied]) s.close();
});

const get = (port: number, path: string, host = 'a', close = false) => `GET http://127.0.0.1:${port}${path} HTTP/1.1\r\nHost: ${host}\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;

/**
 * Sends `first`, then `then` once `thenAt` bytes have come back (1: as soon as anything came), and
 * collects everything until the proxy closes the connection (or 1 s of quiet).
 */
function talk(first: string, then?: string, thenAt = 1): Promise<Buffer> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port: PORT });
    const got: Buffer[] = [];
    let size = 0;
    let sent = then === undefined;
    let quiet: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(quiet);
      s.destroy();
      resolve(Buffer.concat(got));
    };
    s.on('data', (d: Buffer) => {
      got.push(d);
      size += d.length;
      clearTimeout(quiet);
      quiet = setTimeout(done, 1_000);
      if (!sent && size >= thenAt) {
        sent = true;
        s.write(then!);
      }
    });
    s.on('connect', () => s.write(first));
    s.on('close', done);
    s.on('error', () => {});
  });
}

interface Seen {
  status: string;
  refused: boolean;
  length: number;
  /** The stated length arrived in full. */
  whole: boolean;
  sha: string;
}

/** The responses in a stream, each framed by its Content-Length; what is left over after the last one. */
function responses(all: Buffer): { seen: Seen[]; after: string } {
  const seen: Seen[] = [];
  let rest = all;
  for (let end = rest.indexOf('\r\n\r\n'); end >= 0; end = rest.indexOf('\r\n\r\n')) {
    const head = rest.subarray(0, end).toString('latin1');
    const stated = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    const body = rest.subarray(end + 4, end + 4 + stated);
    seen.push({ status: head.split('\r\n')[0]!, refused: head.toLowerCase().includes(`${REFUSAL_HEADER}: refused`), length: body.length, whole: body.length === stated, sha: digest(body) });
    rest = rest.subarray(end + 4 + body.length);
  }
  return { seen, after: rest.toString('latin1') };
}

const ok = (b: Buffer): Seen => ({ status: 'HTTP/1.1 200 OK', refused: false, length: b.length, whole: true, sha: digest(b) });
const refusal = (): Omit<Seen, 'length' | 'sha'> => ({ status: 'HTTP/1.1 403 Forbidden', refused: true, whole: true });
/** A refusal's length and digest depend on the sentence: compare the rest. */
const shape = (s: Seen) => (s.refused ? { status: s.status, refused: s.refused, whole: s.whole } : s);

describe('plain HTTP bodies spliced by the bridge helper', () => {
  it('came up and took the listener', () => {
    expect(bridge).not.toBeNull();
  });

  it.each([
    {
      name: 'a long stated body arrives whole, moved by the helper, and the kept-alive connection then carries a checked request',
      first: () => get(ports.web, '/stated'),
      then: () => get(ports.web, '/stated', 'b', true),
      thenAt: () => payload.length + 40,
      expected: () => ({ seen: [ok(payload), ok(payload)], after: '', splices: 2, hostSaw: ['GET /stated host=a', 'GET /stated host=b'], deniedConnections: 0 }),
    },
    {
      name: 'an allowed request sent while the body is being spliced waits for it, then arrives whole (spliced too, once its response has the socket)',
      first: () => get(ports.web, '/slow'),
      then: () => get(ports.web, '/stated', 'b', true),
      thenAt: () => 1,
      expected: () => ({ seen: [ok(payload), ok(payload)], after: '', splices: 2, hostSaw: ['GET /slow host=a', 'GET /stated host=b'], deniedConnections: 0 }),
    },
    {
      name: 'a body below the threshold stays in the proxy and arrives whole',
      first: () => get(ports.web, '/small', 'a', true),
      then: () => undefined,
      thenAt: () => 1,
      expected: () => ({ seen: [ok(small)], after: '', splices: 0, hostSaw: ['GET /small host=a'], deniedConnections: 0 }),
    },
    {
      name: 'a request to a host not allowed, sent while the body is being spliced, is refused after the whole body, and that host is never dialled',
      first: () => get(ports.web, '/slow'),
      then: () => get(ports.denied, '/', 'evil'),
      thenAt: () => 1,
      expected: () => ({ seen: [ok(payload), refusal()], after: '', splices: 1, hostSaw: ['GET /slow host=a'], deniedConnections: 0 }),
    },
    {
      name: 'a request to a host not allowed, pipelined in the same write as the first, is refused after the spliced body',
      first: () => get(ports.web, '/stated') + get(ports.denied, '/', 'evil'),
      then: () => undefined,
      thenAt: () => 1,
      expected: () => ({ seen: [ok(payload), refusal()], after: '', splices: 1, hostSaw: ['GET /stated host=a'], deniedConnections: 0 }),
    },
    {
      name: 'a second Host on the kept-alive connection after a spliced body is checked and refused',
      first: () => get(ports.web, '/stated'),
      then: () => `GET http://127.0.0.1:${ports.denied}/ HTTP/1.1\r\nHost: 127.0.0.1:${ports.denied}\r\n\r\n`,
      thenAt: () => payload.length + 40,
      expected: () => ({ seen: [ok(payload), refusal()], after: '', splices: 1, hostSaw: ['GET /stated host=a'], deniedConnections: 0 }),
    },
    {
      name: 'a host that sends a second response after its stated length gets only that length to the client, and the next request is still checked',
      first: () => get(ports.raw, '/more'),
      then: () => get(ports.denied, '/', 'evil'),
      thenAt: () => 1,
      expected: () => ({ seen: [ok(payload), refusal()], after: '', splices: 1, hostSaw: [], deniedConnections: 0 }),
    },
    {
      name: 'a host that closes before its stated length leaves the client a short body on a closed connection, with nothing after it',
      first: () => get(ports.raw, '/short'),
      then: () => get(ports.web, '/stated', 'b'),
      thenAt: () => payload.length + 40,
      expected: () => ({
        seen: [{ status: 'HTTP/1.1 200 OK', refused: false, length: payload.length >> 1, whole: false, sha: digest(payload.subarray(0, payload.length >> 1)) }],
        after: '',
        splices: 1,
        hostSaw: [],
        deniedConnections: 0,
      }),
    },
  ])('$name', { timeout: 20_000 }, async (c) => {
    spliced = [];
    hostSaw = [];
    deniedConnections = 0;
    const got = responses(await talk(c.first(), c.then(), c.thenAt()));
    expect({ seen: got.seen.map(shape), after: got.after, splices: spliced.filter((n) => n >= SPLICE_MIN_BYTES).length, hostSaw, deniedConnections }).toEqual(c.expected());
  });

  it('ten long bodies on ten connections at once each arrive whole, each moved by the helper', { timeout: 30_000 }, async () => {
    spliced = [];
    const got = await Promise.all(Array.from({ length: 10 }, (_, i) => talk(get(ports.web, '/stated', `h${i}`, true))));
    expect({ seen: got.map((g) => responses(g).seen), splices: spliced.length }).toEqual({ seen: Array.from({ length: 10 }, () => [ok(payload)]), splices: 10 });
  });

  it('a client that leaves during the splice ends it (the host connection is closed though the host sends nothing more), and the next download is whole', { timeout: 20_000 }, async () => {
    stalled.length = 0;
    spliced = [];
    await new Promise<void>((resolve) => {
      const s = connect({ host: '127.0.0.1', port: PORT });
      s.on('connect', () => s.write(get(ports.web, '/stall')));
      // Once all the host has sent is here, the helper has nothing to write and waits on the host alone.
      let size = 0;
      s.on('data', (d: Buffer) => {
        size += d.length;
        if (size < (payload.length >> 1) + 40) return;
        s.destroy();
        resolve();
      });
    });
    const hostClosed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5_000);
      const watch = () => (stalled[0] ? stalled[0].once('close', () => (clearTimeout(timer), resolve(true))) : setTimeout(watch, 20));
      watch();
    });
    const next = responses(await talk(get(ports.web, '/stated', 'a', true)));
    expect({ hostClosed, splices: spliced.length, next: next.seen }).toEqual({ hostClosed: true, splices: 2, next: [ok(payload)] });
  });
});
