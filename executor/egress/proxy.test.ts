// The egress proxy over its real Unix socket, against real servers on loopback. Name resolution is the
// one outside boundary replaced (a table of names), so no test depends on the machine's DNS.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressProxy, isLocalAddress, REFUSAL_HEADER, splitHostPort, type EgressRefusal } from './proxy';

let web: HttpServer;
let other: Server;
let webPort: number;
let otherPort: number;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threshold-egress-'));
  web = createHttpServer((req, res) => res.end(`web:${req.method} ${req.url} host=${req.headers.host}`));
  other = createServer((s) => s.end('other service'));
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  webPort = (web.address() as AddressInfo).port;
  otherPort = (other.address() as AddressInfo).port;
});

afterAll(() => {
  web.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

const NAMES: Record<string, string> = { localhost: '127.0.0.1', 'rebind.test': '127.0.0.1', 'metadata.test': '169.254.169.254' };

async function withProxy<T>(patterns: string[], fn: (path: string) => Promise<T>): Promise<{ result: T; refused: EgressRefusal[]; lookups: string[] }> {
  const lookups: string[] = [];
  const path = join(dir, `p-${Math.random().toString(36).slice(2)}.sock`);
  const proxy = new EgressProxy({
    patterns,
    resolve: async (h) => {
      lookups.push(h);
      return NAMES[h] ? [NAMES[h]!] : [];
    },
  });
  await proxy.listen({ path });
  try {
    return { result: await fn(path), refused: proxy.refused, lookups };
  } finally {
    await proxy.close();
  }
}

/** Sends raw bytes, returns everything the proxy answered until it closed (or a short quiet time). */
function exchange(path: string, steps: (Buffer | string)[]): Promise<Buffer> {
  return new Promise((resolve) => {
    const s = connect({ path });
    const chunks: Buffer[] = [];
    let i = 0;
    let quiet: NodeJS.Timeout;
    const done = () => {
      s.destroy();
      resolve(Buffer.concat(chunks));
    };
    const next = () => {
      if (i < steps.length) s.write(steps[i++]!);
    };
    s.on('data', (c) => {
      chunks.push(c);
      clearTimeout(quiet);
      quiet = setTimeout(done, 300);
      next();
    });
    s.on('close', done);
    s.on('connect', next);
  });
}

const http11 = (host: string) => `GET /x HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

function socksConnect(host: string | number[], port: number): Buffer {
  const addr = typeof host === 'string' ? Buffer.concat([Buffer.from([0x03, host.length]), Buffer.from(host, 'latin1')]) : Buffer.from([0x01, ...host]);
  const p = Buffer.alloc(2);
  p.writeUInt16BE(port);
  return Buffer.concat([Buffer.from([0x05, 0x01, 0x00]), addr, p]);
}

/** What a client saw, reduced to what matters: the first status line or SOCKS reply, and the body's end. */
function summarize(raw: Buffer): string {
  const text = raw.toString('latin1');
  if (raw[0] === 0x05) {
    // The greeting's answer (2 bytes), then the request's reply (10 bytes), then the tunnel's data.
    const reply = `socks reply ${raw.length >= 4 ? raw[3] : raw[1]}`;
    const after = raw.subarray(2 + 10).toString('latin1');
    return after ? `${reply} | ${after.split('\r\n\r\n').pop()}` : reply;
  }
  const status = [...text.matchAll(/HTTP\/1\.1 \d{3} [^\r]*/g)].map((m) => m[0]).join(' then ');
  const refused = new RegExp(`${REFUSAL_HEADER}: refused`, 'i').test(text) ? ' (refused by the proxy)' : '';
  const last = text.split('\r\n\r\n').pop()!.trim();
  return `${status}${refused} | ${last.startsWith("Threshold's sandbox") ? 'sandbox sentence' : last}`;
}

describe('the egress proxy', () => {
  const cases: { name: string; patterns: () => string[]; steps: () => (Buffer | string)[]; expected: () => string; refused: () => EgressRefusal[]; lookups: string[] }[] = [
    {
      name: 'CONNECT to an allowed address:port opens a tunnel to it',
      patterns: () => [`127.0.0.1:${webPort}`],
      steps: () => [`CONNECT 127.0.0.1:${webPort} HTTP/1.1\r\nHost: 127.0.0.1:${webPort}\r\n\r\n`, http11('inner')],
      expected: () => 'HTTP/1.1 200 Connection Established then HTTP/1.1 200 OK | web:GET /x host=inner',
      refused: () => [],
      lookups: [],
    },
    {
      name: 'CONNECT to another port of the same address is refused',
      patterns: () => [`127.0.0.1:${webPort}`],
      steps: () => [`CONNECT 127.0.0.1:${otherPort} HTTP/1.1\r\n\r\n`],
      expected: () => 'HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence',
      refused: () => [{ host: '127.0.0.1', port: otherPort, protocol: 'connect', kind: 'not_allowed', reason: `127.0.0.1:${otherPort} is not on the allowed hosts ([network] allow_hosts) and no grant covers it` }],
      lookups: [],
    },
    {
      name: 'CONNECT to a host not allowed is refused before its name is looked up',
      patterns: () => ['registry.npmjs.org'],
      steps: () => ['CONNECT example.com:443 HTTP/1.1\r\n\r\n'],
      expected: () => 'HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence',
      refused: () => [{ host: 'example.com', port: 443, protocol: 'connect', kind: 'not_allowed', reason: 'example.com:443 is not on the allowed hosts ([network] allow_hosts) and no grant covers it' }],
      lookups: [],
    },
    {
      name: 'a plain HTTP request to an allowed address is forwarded in origin form',
      patterns: () => [`127.0.0.1:${webPort}`],
      steps: () => [`GET http://127.0.0.1:${webPort}/x?y=1 HTTP/1.1\r\nHost: 127.0.0.1:${webPort}\r\nProxy-Connection: keep-alive\r\nConnection: close\r\n\r\n`],
      expected: () => `HTTP/1.1 200 OK | web:GET /x?y=1 host=127.0.0.1:${webPort}`,
      refused: () => [],
      lookups: [],
    },
    {
      name: 'a plain HTTP request to a name not allowed is refused without a lookup',
      patterns: () => [`127.0.0.1:${webPort}`],
      steps: () => ['GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n'],
      expected: () => 'HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence',
      refused: () => [{ host: 'example.com', port: 80, protocol: 'http', kind: 'not_allowed', reason: 'example.com:80 is not on the allowed hosts ([network] allow_hosts) and no grant covers it' }],
      lookups: [],
    },
    {
      name: 'a second request on a kept-alive connection is checked again',
      patterns: () => [`127.0.0.1:${webPort}`],
      steps: () => [`GET http://127.0.0.1:${webPort}/x HTTP/1.1\r\nHost: a\r\n\r\n`, `GET http://127.0.0.1:${otherPort}/ HTTP/1.1\r\nHost: b\r\n\r\n`],
      expected: () => 'HTTP/1.1 200 OK then HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence',
      refused: () => [{ host: '127.0.0.1', port: otherPort, protocol: 'http', kind: 'not_allowed', reason: `127.0.0.1:${otherPort} is not on the allowed hosts ([network] allow_hosts) and no grant covers it` }],
      lookups: [],
    },
    {
      name: 'a request in origin form (not a proxy request) is refused',
      patterns: () => [`127.0.0.1:${webPort}`],
      steps: () => ['GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      expected: () => 'HTTP/1.1 400 Bad Request (refused by the proxy) | only http:// URLs may be proxied as plain requests (https goes through CONNECT)',
      refused: () => [{ host: '', port: 0, protocol: 'http', kind: 'unsupported', reason: 'only http:// URLs may be proxied as plain requests (https goes through CONNECT)' }],
      lookups: [],
    },
    {
      name: 'SOCKS5 CONNECT to an allowed IPv4 address succeeds',
      patterns: () => [`127.0.0.1:${otherPort}`],
      steps: () => [Buffer.from([0x05, 0x01, 0x00]), socksConnect([127, 0, 0, 1], otherPort)],
      expected: () => 'socks reply 0 | other service',
      refused: () => [],
      lookups: [],
    },
    {
      name: 'SOCKS5 with a host name is resolved at the proxy (localhost, named with its port)',
      patterns: () => [`localhost:${otherPort}`],
      steps: () => [Buffer.from([0x05, 0x01, 0x00]), socksConnect('localhost', otherPort)],
      expected: () => 'socks reply 0 | other service',
      refused: () => [],
      lookups: ['localhost'],
    },
    {
      name: 'SOCKS5 to a name not allowed is refused by ruleset, and the name never reaches DNS',
      patterns: () => ['registry.npmjs.org'],
      steps: () => [Buffer.from([0x05, 0x01, 0x00]), socksConnect('exfil.example', 443)],
      expected: () => 'socks reply 2',
      refused: () => [{ host: 'exfil.example', port: 443, protocol: 'socks5', kind: 'not_allowed', reason: 'exfil.example:443 is not on the allowed hosts ([network] allow_hosts) and no grant covers it' }],
      lookups: [],
    },
    {
      name: 'SOCKS5 UDP ASSOCIATE is refused (no UDP through the proxy)',
      patterns: () => ['*.example'],
      steps: () => [Buffer.from([0x05, 0x01, 0x00]), Buffer.from([0x05, 0x03, 0x00, 0x01, 0, 0, 0, 0, 0, 53])],
      expected: () => 'socks reply 7',
      refused: () => [{ host: '0.0.0.0', port: 53, protocol: 'socks5-udp', kind: 'unsupported', reason: 'UDP through the proxy is not supported' }],
      lookups: [],
    },
    {
      name: 'SOCKS5 without the no-authentication method is turned away',
      patterns: () => ['*.example'],
      steps: () => [Buffer.from([0x05, 0x01, 0x02])],
      expected: () => 'socks reply 255',
      refused: () => [],
      lookups: [],
    },
    {
      name: 'an allowed name that resolves to loopback is refused (DNS rebinding onto host services)',
      patterns: () => [`rebind.test:${webPort}`],
      steps: () => [`CONNECT rebind.test:${webPort} HTTP/1.1\r\n\r\n`],
      expected: () => 'HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence',
      refused: () => [{ host: 'rebind.test', port: webPort, protocol: 'connect', kind: 'local_address', reason: `rebind.test resolves to 127.0.0.1, a loopback address (this computer), which a host name may reach only when [network] allow_hosts or a grant names that address itself (127.0.0.1:${webPort})` }],
      lookups: ['rebind.test'],
    },
    {
      name: 'an allowed name that resolves to the link-local metadata address is refused',
      patterns: () => ['metadata.test'],
      steps: () => [Buffer.from([0x05, 0x01, 0x00]), socksConnect('metadata.test', 80)],
      expected: () => 'socks reply 2',
      refused: () => [{ host: 'metadata.test', port: 80, protocol: 'socks5', kind: 'local_address', reason: 'metadata.test resolves to 169.254.169.254, a cloud metadata service address (AWS, Google Cloud, Azure, Oracle, DigitalOcean), which a host name may reach only when [network] allow_hosts or a grant names that address itself (169.254.169.254:80)' }],
      lookups: ['metadata.test'],
    },
    {
      name: 'an allowed name that does not resolve is answered as the network would, not as a refusal',
      patterns: () => ['nowhere.test'],
      steps: () => ['CONNECT nowhere.test:443 HTTP/1.1\r\n\r\n'],
      expected: () => 'HTTP/1.1 502 Bad Gateway | nowhere.test could not be resolved',
      refused: () => [],
      lookups: ['nowhere.test'],
    },
    {
      name: 'an allowed name on a port other than 80 and 443 is refused (a pattern without a port)',
      patterns: () => ['registry.npmjs.org'],
      steps: () => ['CONNECT registry.npmjs.org:22 HTTP/1.1\r\n\r\n'],
      expected: () => 'HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence',
      refused: () => [{ host: 'registry.npmjs.org', port: 22, protocol: 'connect', kind: 'not_allowed', reason: 'registry.npmjs.org:22 is not on the allowed hosts ([network] allow_hosts) and no grant covers it' }],
      lookups: [],
    },
  ];

  it.each(cases)('$name', async (c) => {
    const { result, refused, lookups } = await withProxy(c.patterns(), (path) => exchange(path, c.steps()));
    expect({ seen: summarize(result), refused, lookups }).toEqual({ seen: c.expected(), refused: c.refused(), lookups: c.lookups });
  });

  it('streams a large plain HTTP body through unchanged', async () => {
    const big = Buffer.alloc(8 * 1024 * 1024, 7);
    const server = createHttpServer((_q, r) => r.end(big));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const { result } = await withProxy([`127.0.0.1:${port}`], (socketPath) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ socketPath, path: `http://127.0.0.1:${port}/big`, headers: { host: `127.0.0.1:${port}` } }, (res) => {
          let n = 0;
          res.on('data', (c: Buffer) => (n += c.length));
          res.on('end', () => resolve(n));
        });
        req.on('error', reject);
        req.end();
      }),
    );
    server.close();
    expect(result).toEqual(big.length);
  });
});

describe('address helpers', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['0.0.0.0', true],
    ['169.254.169.254', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['fe80::1', true],
    ['10.0.0.1', false],
    ['104.16.0.1', false],
    ['2606:4700::1', false],
  ])('%s is an address of this computer or its link: %s', (ip, local) => {
    expect(isLocalAddress(ip)).toEqual(local);
  });

  it.each([
    ['example.com:443', 443, { host: 'example.com', port: 443 }],
    ['example.com', 443, { host: 'example.com', port: 443 }],
    ['[::1]:8080', 443, { host: '::1', port: 8080 }],
    ['a b:1', 443, null],
    ['host:port', 443, null],
  ])('the CONNECT target %s reads as %j', (s, d, expected) => {
    expect(splitHostPort(s, d)).toEqual(expected);
  });
});

// The bodies' fast paths (./relay.ts, ./forward.ts): the same bytes as Node's own framing would give, and
// no way to slip a second request or host past the checks on a connection whose body is copied straight.
describe('bodies copied straight from the host', () => {
  const payload = randomBytes(3 * 1024 * 1024 + 17);
  const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  let bodies: HttpServer;
  let bodiesPort: number;
  let raw: Server;
  let rawPort: number;
  let rawConnections = 0;
  let requests: string[] = [];

  beforeAll(async () => {
    bodies = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('latin1')));
      req.on('end', () => {
        requests.push(`${req.method} ${req.url} host=${req.headers.host} body=${body}`);
        if (req.url === '/chunked') {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          for (let i = 0; i < payload.length; i += 100_000) res.write(payload.subarray(i, i + 100_000));
          return void res.end();
        }
        res.writeHead(200, { 'content-length': payload.length }).end(req.method === 'HEAD' ? undefined : payload);
      });
    });
    // A host that answers by hand: states 5 bytes and sends more (a second response tacked on), or sends
    // a body that ends only with the connection.
    raw = createServer((s) => {
      rawConnections++;
      s.once('data', (d: Buffer) => {
        if (d.toString('latin1').includes('/until-close')) {
          s.write('HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n');
          s.end(payload);
        } else s.end('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nsmuggled');
      });
    });
    await new Promise<void>((r) => bodies.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    bodiesPort = (bodies.address() as AddressInfo).port;
    rawPort = (raw.address() as AddressInfo).port;
  });

  afterAll(() => {
    bodies.close();
    raw.close();
  });

  /** One request through the proxy with Node's client; the body's digest and length, and the status. */
  function fetchThrough(socketPath: string, method: string, url: string): Promise<{ status: number; length: number; sha: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ socketPath, method, path: url, headers: { host: new URL(url).host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const b = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, length: b.length, sha: digest(b) });
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  it.each([
    { name: 'a body with a stated length arrives whole', method: 'GET', path: '/stated', expected: () => ({ status: 200, length: payload.length, sha: digest(payload) }) },
    { name: 'a chunked body (Node framing it) arrives whole', method: 'GET', path: '/chunked', expected: () => ({ status: 200, length: payload.length, sha: digest(payload) }) },
    { name: 'a HEAD answer carries no body although it states a length', method: 'HEAD', path: '/stated', expected: () => ({ status: 200, length: 0, sha: digest(Buffer.alloc(0)) }) },
  ])('plain HTTP: $name', async (c) => {
    const { result } = await withProxy([`127.0.0.1:${bodiesPort}`], (p) => fetchThrough(p, c.method, `http://127.0.0.1:${bodiesPort}${c.path}`));
    expect(result).toEqual(c.expected());
  });

  it('plain HTTP: a body that ends with the host closing arrives whole', async () => {
    const { result } = await withProxy([`127.0.0.1:${rawPort}`], (p) => fetchThrough(p, 'GET', `http://127.0.0.1:${rawPort}/until-close`));
    expect(result).toEqual({ status: 200, length: payload.length, sha: digest(payload) });
  });

  it('CONNECT: a large download arrives whole through the tunnel', async () => {
    const { result } = await withProxy([`127.0.0.1:${bodiesPort}`], (p) =>
      exchange(p, [`CONNECT 127.0.0.1:${bodiesPort} HTTP/1.1\r\n\r\n`, `GET /stated HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]),
    );
    const body = result.subarray(result.lastIndexOf('\r\n\r\n') + 4);
    expect({ head: result.subarray(0, 39).toString('latin1'), length: body.length, sha: digest(body) }).toEqual({ head: 'HTTP/1.1 200 Connection Established\r\n\r\n', length: payload.length, sha: digest(payload) });
  });

  it('CONNECT: a host that speaks first is heard only after the proxy has answered the client', async () => {
    const { result } = await withProxy([`127.0.0.1:${otherPort}`], (p) => exchange(p, [`CONNECT 127.0.0.1:${otherPort} HTTP/1.1\r\n\r\n`]));
    expect(result.toString('latin1')).toEqual('HTTP/1.1 200 Connection Established\r\n\r\nother service');
  });

  const smuggling: { name: string; steps: () => string[]; expected: () => { seen: string; hostSaw: string[]; rawConnections: number } }[] = [
    {
      name: 'a pipelined second request to a host not allowed is refused, and that host is never dialled',
      steps: () => [`GET http://127.0.0.1:${bodiesPort}/stated HTTP/1.1\r\nHost: a\r\n\r\nGET http://127.0.0.1:${rawPort}/ HTTP/1.1\r\nHost: b\r\n\r\n`],
      expected: () => ({ seen: 'HTTP/1.1 200 OK then HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence', hostSaw: ['GET /stated host=a body='], rawConnections: 0 }),
    },
    {
      name: 'a request hidden after a body is parsed as a request of its own and refused, not sent on with the body',
      steps: () => [`POST http://127.0.0.1:${bodiesPort}/up HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhelloGET http://127.0.0.1:${rawPort}/ HTTP/1.1\r\nHost: b\r\n\r\n`],
      expected: () => ({ seen: 'HTTP/1.1 200 OK then HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence', hostSaw: ['POST /up host=a body=hello'], rawConnections: 0 }),
    },
    {
      name: 'a kept-alive connection reused for another host after a copied body is refused',
      steps: () => [`GET http://127.0.0.1:${bodiesPort}/stated HTTP/1.1\r\nHost: a\r\n\r\n`, `GET http://127.0.0.1:${rawPort}/ HTTP/1.1\r\nHost: 127.0.0.1:${rawPort}\r\n\r\n`],
      expected: () => ({ seen: 'HTTP/1.1 200 OK then HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence', hostSaw: ['GET /stated host=a body='], rawConnections: 0 }),
    },
  ];

  it.each(smuggling)('plain HTTP: $name', async (c) => {
    requests = [];
    rawConnections = 0;
    const { result } = await withProxy([`127.0.0.1:${bodiesPort}`], (p) => exchange(p, c.steps()));
    expect({ seen: summarize(result), hostSaw: requests, rawConnections }).toEqual(c.expected());
  });

  it('plain HTTP: a host that sends more than its stated length gets only that length to the client, and the next request is checked', async () => {
    const { result, refused } = await withProxy([`127.0.0.1:${rawPort}`], (p) =>
      exchange(p, [`GET http://127.0.0.1:${rawPort}/ HTTP/1.1\r\nHost: a\r\n\r\n`, `GET http://127.0.0.1:${bodiesPort}/ HTTP/1.1\r\nHost: b\r\n\r\n`]),
    );
    const text = result.toString('latin1');
    expect({ seen: summarize(result), smuggledReached: text.includes('smuggled'), firstBody: /\r\n\r\nhello/.test(text), refused: refused.map((r) => `${r.host}:${r.port}`) }).toEqual({
      seen: 'HTTP/1.1 200 OK then HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence',
      smuggledReached: false,
      firstBody: true,
      refused: [`127.0.0.1:${bodiesPort}`],
    });
  });
});

// ── Names checked as they are dialled (issue 26) ────────────────────────────────────────────────────────
// With `*.allowed.test:PORT` allowed, each name below is sent in every protocol's name field. The fake DNS
// reads a name as getaddrinfo does (a C string: it ends at the first NUL), so a name that reached it would
// show up in `lookups`; none may. A refused name is answered (never silence) and reported with its
// invisible characters escaped.
describe('a host name is checked in the form in which it is dialled, in every protocol', () => {
  type Proto = 'socks5' | 'connect' | 'http';
  const bytes = (name: string) => Buffer.from(name, 'utf8');
  const send: Record<Proto, (name: Buffer, port: number) => (Buffer | string)[]> = {
    socks5: (name, port) => {
      const p = Buffer.alloc(2);
      p.writeUInt16BE(port);
      return [Buffer.from([0x05, 0x01, 0x00]), Buffer.concat([Buffer.from([0x05, 0x01, 0x00, 0x03, name.length]), name, p]), http11('inner')];
    },
    connect: (name, port) => [Buffer.concat([Buffer.from('CONNECT '), name, Buffer.from(`:${port} HTTP/1.1\r\n\r\n`)]), http11('inner')],
    http: (name, port) => [Buffer.concat([Buffer.from('GET http://'), name, Buffer.from(`:${port}/x HTTP/1.1\r\nHost: inner\r\nConnection: close\r\n\r\n`)])],
  };
  const refusedAnswer: Record<Proto, string> = { socks5: 'socks reply 2', connect: 'HTTP/1.1 400 Bad Request (refused by the proxy)', http: 'HTTP/1.1 400 Bad Request (refused by the proxy)' };
  const long = (n: number) => `${'a'.repeat(n - '.allowed.test'.length)}.allowed.test`;

  const refusedNames: { name: string; host: string; why: string }[] = [
    { name: 'a NUL that ends the name for the C resolver', host: '127.0.0.1\0.allowed.test', why: 'U+0000' },
    { name: 'a NUL hiding another host before the allowed suffix', host: 'collector.evil\0.allowed.test', why: 'U+0000' },
    { name: 'an escape character', host: 'x\u001b.allowed.test', why: 'U+001B' },
    { name: 'a DEL', host: 'x\u007f.allowed.test', why: 'U+007F' },
    { name: 'a tab', host: 'x\ty.allowed.test', why: 'U+0009' },
    { name: 'a space', host: 'x y.allowed.test', why: 'U+0020' },
    { name: 'a percent-encoded NUL', host: '127.0.0.1%00.allowed.test', why: '"%"' },
    { name: 'a percent-encoded letter (which a URL parser would decode)', host: 'x%41.allowed.test', why: '"%"' },
    { name: 'an underscore', host: 'x_y.allowed.test', why: '"_"' },
    { name: 'a backslash', host: 'x\\y.allowed.test', why: '"\\"' },
    { name: 'a 64-character label', host: `${'a'.repeat(64)}.allowed.test`, why: 'a label of 64 characters' },
    { name: 'a 254-character name', host: `${'a.'.repeat(120)}${long(14)}`, why: 'longer than 253' },
    { name: 'two dots in a row', host: 'x..allowed.test', why: 'an empty label' },
    { name: 'two trailing dots', host: 'x.allowed.test..', why: 'an empty label' },
    { name: 'a Cyrillic а in the allowed name', host: 'x.\u0430llowed.test', why: 'U+00D0' },
    { name: 'a Cyrillic а below the allowed suffix', host: 'x\u0430.allowed.test', why: 'U+00D0' },
    { name: 'a full-width dot (．) before the allowed suffix', host: 'evil\uff0ecom.allowed.test', why: 'U+00EF' },
    { name: 'an ideographic full stop (。) before the allowed suffix', host: 'evil\u3002com.allowed.test', why: 'U+00E3' },
    { name: 'the Kelvin sign, which lower-cases to k', host: '\u212a.allowed.test', why: 'U+00E2' },
  ];

  const protos: Proto[] = ['socks5', 'connect', 'http'];
  const refusedCases = refusedNames.flatMap((n) => protos.map((protocol) => ({ ...n, protocol })));

  it.each(refusedCases)('$protocol: $name is refused before any lookup, and answered', async ({ host, why, protocol }) => {
    const NAMES_SEEN: string[] = [];
    const { result, refused, lookups } = await withProxyResolving(
      [`*.allowed.test:${webPort}`, `127.0.0.1:${webPort}`],
      (h) => {
        NAMES_SEEN.push(h);
        return ['127.0.0.1'];
      },
      (path) => exchange(path, send[protocol](bytes(host), webPort)),
    );
    const r = refused[0];
    expect({
      seen: summarize(result).split(' | ')[0],
      refused: refused.length,
      kind: r?.kind,
      // The parser refuses control and non-ASCII bytes in a request line before the name check sees them.
      reasonNamesTheProblem: r ? r.reason.includes(why) || (protocol !== 'socks5' && /could not be read as HTTP|not host:port|authority/.test(r.reason)) : false,
      shownHostIsPrintable: r ? /^[\x21-\x7e]*$/.test(r.host) : false,
      lookups,
    }).toEqual({ seen: refusedAnswer[protocol], refused: 1, kind: 'unsupported', reasonNamesTheProblem: true, shownHostIsPrintable: true, lookups: [] });
  });

  it.each([...Array(0x20).keys(), 0x7f].map((c) => ({ code: `U+${c.toString(16).toUpperCase().padStart(4, '0')}`, c })))(
    'socks5: the control character $code inside a name is refused before any lookup',
    async ({ c }) => {
      const { result, refused, lookups } = await withProxy([`*.allowed.test:${webPort}`], (path) => exchange(path, send.socks5(Buffer.concat([Buffer.from('x'), Buffer.from([c]), Buffer.from('.allowed.test')]), webPort)));
      expect({ seen: summarize(result), kinds: refused.map((r) => r.kind), lookups }).toEqual({ seen: 'socks reply 2', kinds: ['unsupported'], lookups: [] });
    },
  );

  const acceptedCases = [
    { name: 'one trailing dot (the root) is dropped: matched and resolved as x.allowed.test', host: 'x.allowed.test.' },
    { name: 'upper case is folded: matched and resolved as x.allowed.test', host: 'X.ALLOWED.TEST' },
  ].flatMap((n) => protos.map((protocol) => ({ ...n, protocol })));

  it.each(acceptedCases)('$protocol: $name', async ({ host, protocol }) => {
    const { result, lookups } = await withProxyResolving([`*.allowed.test:${webPort}`, `127.0.0.1:${webPort}`], () => ['127.0.0.1'], (path) => exchange(path, send[protocol](bytes(host), webPort)));
    expect({ body: summarize(result).split(' | ').pop(), lookups }).toEqual({ body: 'web:GET /x host=inner', lookups: ['x.allowed.test'] });
  });

  it('socks5: an IPv6 address is read in its one spelling, so its pattern matches', async () => {
    const addr = Buffer.alloc(16);
    addr[15] = 1;
    const p = Buffer.alloc(2);
    p.writeUInt16BE(otherPort);
    const { result, refused } = await withProxy([`[::1]:${otherPort}`], (path) => exchange(path, [Buffer.from([0x05, 0x01, 0x00]), Buffer.concat([Buffer.from([0x05, 0x01, 0x00, 0x04]), addr, p])]));
    // Nothing listens on [::1] here, or the other service does: either way the pattern matched (no refusal).
    expect({ refused, answered: /^socks reply (0|5)/.test(summarize(result)) }).toEqual({ refused: [], answered: true });
  });
});

/** Like withProxy, with a resolver that reads a name as a C string (up to the first NUL), as getaddrinfo does. */
async function withProxyResolving<T>(patterns: string[], answer: (h: string) => string[], fn: (path: string) => Promise<T>): Promise<{ result: T; refused: EgressRefusal[]; lookups: string[] }> {
  const lookups: string[] = [];
  const path = join(dir, `p-${Math.random().toString(36).slice(2)}.sock`);
  const proxy = new EgressProxy({
    patterns,
    resolve: async (h) => {
      lookups.push(h);
      return answer(h.split('\0')[0]!);
    },
  });
  await proxy.listen({ path });
  try {
    return { result: await fn(path), refused: proxy.refused, lookups };
  } finally {
    await proxy.close();
  }
}

describe('every request gets an answer', () => {
  let ws: HttpServer;
  let wsPort = 0;
  const upgrades: string[] = [];

  beforeAll(async () => {
    ws = createHttpServer((req, res) => res.end(`plain answer to ${req.url}`));
    ws.on('upgrade', (req, socket: Socket) => {
      upgrades.push(`${req.method} ${req.url} host=${req.headers.host} upgrade=${req.headers.upgrade}`);
      // A host that declines the upgrade but keeps the connection: what the client sends next reaches it, raw.
      if (req.url === '/decline') socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nno');
      else socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      socket.on('data', (d: Buffer) => socket.end(`echo:${d.toString().split('\r\n')[0]}`));
    });
    await new Promise<void>((r) => ws.listen(0, '127.0.0.1', r));
    wsPort = (ws.address() as AddressInfo).port;
  });
  afterAll(() => ws.close());

  const upgrade = (target: string, host = 'inner') => `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`;

  it.each([
    {
      name: 'an Upgrade to an allowed host is relayed: the host answers 101 and the connection becomes a tunnel to it',
      patterns: () => [`127.0.0.1:${wsPort}`],
      steps: () => [upgrade(`http://127.0.0.1:${wsPort}/socket?x=1`), 'frame'],
      expected: () => ({ seen: 'HTTP/1.1 101 Switching Protocols | echo:frame', hostSaw: ['GET /socket?x=1 host=inner upgrade=websocket'], refused: [] }),
    },
    {
      name: 'after an Upgrade the host declined, a request for another host on the same connection goes only to the checked host',
      patterns: () => [`127.0.0.1:${wsPort}`, `127.0.0.1:${otherPort}`],
      steps: () => [upgrade(`http://127.0.0.1:${wsPort}/decline`), `GET http://127.0.0.1:${otherPort}/ HTTP/1.1\r\nHost: b\r\n\r\n`],
      expected: () => ({ seen: `HTTP/1.1 200 OK | noecho:GET http://127.0.0.1:${otherPort}/ HTTP/1.1`, hostSaw: ['GET /decline host=inner upgrade=websocket'], refused: [] }),
    },
    {
      name: 'an Upgrade to a host not allowed is refused with a 403 and reported',
      patterns: () => ['registry.npmjs.org'],
      steps: () => [upgrade(`http://127.0.0.1:${wsPort}/socket`)],
      expected: () => ({ seen: 'HTTP/1.1 403 Forbidden (refused by the proxy) | sandbox sentence', hostSaw: [], refused: [`127.0.0.1:${wsPort} not_allowed`] }),
    },
    {
      name: 'an Upgrade with a NUL in the host name is refused with a 400',
      patterns: () => [`*.allowed.test:${wsPort}`],
      steps: () => [upgrade(`http://x.allowed.test:${wsPort}/`, 'x\u0000.allowed.test')],
      expected: () => ({ seen: 'HTTP/1.1 400 Bad Request (refused by the proxy) | the request could not be read as HTTP (HPE_INVALID_HEADER_TOKEN): a control or non-ASCII character, or a malformed request line or header', hostSaw: [], refused: [':0 unsupported'] }),
    },
    {
      name: 'an Upgrade in origin form (not a proxy request) is refused with a 400',
      patterns: () => [`127.0.0.1:${wsPort}`],
      steps: () => [upgrade('/socket')],
      expected: () => ({ seen: 'HTTP/1.1 400 Bad Request (refused by the proxy) | only http:// URLs may be proxied as plain requests (https goes through CONNECT)', hostSaw: [], refused: [':0 unsupported'] }),
    },
  ])('$name', async (c) => {
    upgrades.length = 0;
    const { result, refused } = await withProxy(c.patterns(), (path) => exchange(path, c.steps()));
    expect({ seen: summarize(result), hostSaw: [...upgrades], refused: refused.map((r) => `${r.host}:${r.port} ${r.kind}`) }).toEqual(c.expected());
  });

  it.each([
    {
      name: 'a SOCKS4 request is rejected in SOCKS4 (reply 91) and reported',
      steps: () => [Buffer.from([0x04, 0x01, (webPort >> 8) & 0xff, webPort & 0xff, 127, 0, 0, 1, 0x00])],
      expected: () => ({ reply: '005b000000000000', refused: [`127.0.0.1:${webPort} socks4 unsupported`] }),
    },
    {
      name: 'bytes that are no HTTP (a TLS hello sent to the proxy itself) get a 400',
      steps: () => [Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00])],
      expected: () => ({ reply: 'HTTP/1.1 400 Bad Request', refused: [':0 http unsupported'] }),
    },
    {
      name: 'a request head larger than the parser takes gets a 431',
      steps: () => [`GET http://127.0.0.1:${webPort}/ HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      expected: () => ({ reply: 'HTTP/1.1 431 Request Header Fields Too Large', refused: [':0 http unsupported'] }),
    },
    {
      name: 'a Host header that is not a host name is refused with a 400, before any lookup',
      steps: () => [`GET http://127.0.0.1:${webPort}/ HTTP/1.1\r\nHost: a\u00e9b\r\n\r\n`],
      expected: () => ({ reply: 'HTTP/1.1 400 Bad Request', refused: ['a\\u{c3}\\u{a9}b:0 http unsupported'] }),
    },
    {
      name: 'two Host headers are refused with a 400',
      steps: () => [`GET http://127.0.0.1:${webPort}/ HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`],
      expected: () => ({ reply: 'HTTP/1.1 400 Bad Request', refused: [':0 http unsupported'] }),
    },
    {
      name: 'a user name in the URL is refused with a 400, not dropped and sent on',
      steps: () => [`GET http://user:pw@127.0.0.1:${webPort}/ HTTP/1.1\r\nHost: a\r\n\r\n`],
      expected: () => ({ reply: 'HTTP/1.1 400 Bad Request', refused: [':0 http unsupported'] }),
    },
  ])('$name', async (c) => {
    const { result, refused } = await withProxy([`127.0.0.1:${webPort}`], (path) => exchange(path, c.steps()));
    const reply = result[0] === 0x00 ? result.toString('hex') : result.toString('latin1').split('\r\n')[0];
    expect({ reply, refused: refused.map((r) => `${r.host}:${r.port} ${r.protocol} ${r.kind}`) }).toEqual(c.expected());
  });
});
