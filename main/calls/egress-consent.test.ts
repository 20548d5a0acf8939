// A host the egress proxy refused becomes a consent card; the model is told the sandbox blocked it; a
// host grant (this session, for an hour, always) takes effect at the next call. Real gate, real jail,
// a real server on this machine's network address (not loopback, which no host grant may open).
import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/load';
import { Executor } from '../../executor/run';
import { Store } from '../store/store';
import { jailFixture, type JailFixture } from '../../test/support/jail';
import { ThresholdCore } from '../runtime/core';
import { HOST_GRANT_MS, hostGrantPattern, type ConsentOffer } from './sandbox-consent';

/** An address of this machine that is not loopback: where a test server can stand in for a remote host. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

let fx: JailFixture;
let core: ThresholdCore;
let server: Server;
let port = 0;
let clock = 1_000_000;
const offers: ConsentOffer[] = [];

beforeAll(async () => {
  fx = await jailFixture();
  server = createServer((req, res) => res.end(`package index ${req.url}`));
  if (lanAddress) await new Promise<void>((r) => server.listen(0, lanAddress, r));
  port = lanAddress ? (server.address() as { port: number }).port : 0;
  // pkg.test stands for a remote host: the proxy's name lookup is the outside boundary replaced here.
  const executor = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir], resolveHost: async (h) => (h === 'pkg.test' && lanAddress ? [lanAddress] : []) });
  core = await ThresholdCore.open({
    dataDir: fx.dataDir,
    // The stand-in has a private (or reserved) address, which a name may reach only when a pattern names
    // that address itself (executor/net/destination.ts); naming it keeps this test about the card and the grant.
    config: { ...DEFAULT_CONFIG, level: 'supervised', network: { allowHosts: ['registry.npmjs.org', ...(lanAddress ? [`${lanAddress}:${port}`] : [])] } },
    paths: { home: fx.home, workspace: fx.workspace, appDirs: [fx.configDir, fx.dataDir] },
    store: Store.inMemory(),
    executor,
    now: () => clock,
  });
  core.approvers.add('desktop');
  core.events.on('sandbox.denied', (o) => offers.push(o));
  core.events.on('approval.requested', (p) => void core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' }));
});

afterAll(async () => {
  core.dispose();
  server.close();
  await fx.close();
});

async function run(command: string, sessionId: string) {
  const v = await core.calls.review({ sessionId, turnId: `t-${Math.random()}`, turnKind: 'reactive', tool: 'run_command', args: { command }, cwd: fx.workspace });
  if (!v.run) throw new Error(`not allowed: ${v.message}`);
  return core.calls.runCommand({ callId: v.callId, sessionId, command, cwd: fx.workspace, evaluation: v.evaluation });
}

describe.skipIf(!lanAddress)('a refused host becomes a consent card, and a host grant opens it at the next call', () => {
  const fetchIt = () => `curl -sS --fail http://pkg.test:${port}/zod`;

  it('refuses, says so plainly, offers the host once per session; the session grant then lets the next call through', async () => {
    offers.length = 0;
    const first = await run(fetchIt(), 's1');
    const again = await run(fetchIt(), 's1');
    expect({ status: first.status, offers: offers.map((o) => ({ path: o.path, access: o.access, attempted: o.attempted })), secondOffers: again.offers.length }).toEqual({
      status: 'failed',
      offers: [{ path: `pkg.test:${port}`, access: 'host', attempted: `pkg.test:${port}` }],
      secondOffers: 0,
    });
    expect(first.text).toContain(`[threshold] The sandbox, not the task, blocked the connection to pkg.test:${port}: pkg.test:${port} is not on the allowed hosts ([network] allow_hosts) and no grant covers it. The user was asked whether to allow pkg.test:${port}; if they allow it, retry.`);
    expect(core.consent.decide(offers[0]!.id, 'session', 'test')).toMatchObject({ ok: true });
    const after = await run(fetchIt(), 's1');
    const otherSession = await run(fetchIt(), 's2');
    expect({ after: [after.status, after.result?.stdout.text], otherSession: otherSession.status }).toEqual({ after: ['succeeded', 'package index /zod'], otherSession: 'failed' });
  });

  it('an hour grant holds for every session until it expires', async () => {
    offers.length = 0;
    await run(fetchIt(), 's3');
    expect(core.consent.decide(offers[0]!.id, 'hour', 'test')).toMatchObject({ ok: true });
    const within = await run(fetchIt(), 's4');
    clock += HOST_GRANT_MS + 1;
    const expired = await run(fetchIt(), 's4');
    expect({ within: within.status, expired: expired.status }).toEqual({ within: 'succeeded', expired: 'failed' });
  });
});

describe('host consent', () => {
  it.each([
    { name: 'a web host is granted by name (ports 80 and 443)', host: { name: 'Example.COM', port: 443, grantable: true }, pattern: 'example.com' },
    { name: 'another port is granted with that port only', host: { name: 'db.example.com', port: 5432, grantable: true }, pattern: 'db.example.com:5432' },
    { name: 'loopback is never offered', host: { name: '127.0.0.1', port: 8080, grantable: true }, pattern: null },
    { name: 'localhost is never offered', host: { name: 'localhost', port: 80, grantable: true }, pattern: null },
    { name: 'a *.localhost name is never offered', host: { name: 'app.localhost', port: 80, grantable: true }, pattern: null },
    { name: 'the link-local metadata address is never offered', host: { name: '169.254.169.254', port: 80, grantable: true }, pattern: null },
    { name: 'a refusal no grant can change (a name resolving to this computer, UDP) is not offered', host: { name: 'rebind.example', port: 443, grantable: false }, pattern: null },
    { name: 'something that is no host name is not offered', host: { name: 'a b', port: 443, grantable: true }, pattern: null },
  ])('$name', ({ host, pattern }) => {
    expect(hostGrantPattern(host)).toEqual(pattern);
  });

  it('"for an hour" is for hosts only: a path offer refuses it and stays open', () => {
    const [offer] = core.consent.offersFor([{ kind: 'write_denied', target: fx.outside + '/x', evidence: 'Read-only file system' }], { sessionId: 'p1', callId: 'c1' });
    expect(core.consent.decide(offer!.id, 'hour', 'test')).toEqual({ ok: false, error: { code: 'invalid', message: 'Allowing for a time is for hosts only; a path is allowed for this session or always.' } });
    expect(core.consent.pending().map((o) => o.id)).toContain(offer!.id);
  });

  it('a program that goes around the proxy is told the sandbox blocked it, and how to get through', async () => {
    const r = await run("curl -sS --noproxy '*' https://pkg.test/", 'd1');
    expect(r.text).toContain("[threshold] The sandbox, not the task, blocked network access (pkg.test): in the sandbox the network is reachable only through Threshold's egress proxy (HTTP_PROXY, HTTPS_PROXY and ALL_PROXY are set), and this program went around it.");
  });

  it('an always grant is stored and in force for every session, after the allowlist', () => {
    const [offer] = core.consent.offersFor([{ kind: 'host_denied', target: 'files.example.org:443', evidence: 'not allowed', host: { name: 'files.example.org', port: 443, grantable: true } }], { sessionId: 'a1', callId: 'c2' });
    core.consent.decide(offer!.id, 'always', 'test');
    expect(core.commands.allowHostsFor('someone-else').filter((p) => p === 'registry.npmjs.org' || p === 'files.example.org')).toEqual(['registry.npmjs.org', 'files.example.org']);
  });
});
