// web_fetch and the egress hosts: the pure verdict per hop, then the real tool against a loopback server
// (web_fetch runs in Threshold itself, not in the jail, so loopback is where a test server can be).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThresholdCore } from '../runtime/core';
import type { ConsentOffer } from './sandbox-consent';
import type { Evaluation } from '../policy/evaluate';
import { runTool, testCore } from '../../test/support/core';
import { resolveDestination } from '../../executor/net/destination';
import { consentedHost } from './web-fetch-hosts';

const ev = (over: Partial<Evaluation>): Evaluation => ({ decision: 'allow', tool: 'web_fetch', tier: 'exec', class: 'network', effects: ['network'], flags: [], hardline: false, reasons: [], decider: { kind: 'level', level: 'full' }, decidedBy: 'level:full', confined: false, segment: null, explanation: '', floor: null, grants: [], reviewable: false, ...over });

describe('which host a web_fetch hop may reach', () => {
  it.each([
    { name: 'an allowlisted host', url: 'https://registry.npmjs.org/zod', consented: null, ok: true },
    { name: 'a host under a wildcard grant', url: 'https://docs.example.org/a', consented: null, patterns: ['*.example.org'], ok: true },
    { name: 'a host nobody allowed', url: 'https://exfil.example/?d=secret', consented: null, ok: false },
    { name: 'the host a person approved this call for', url: 'https://news.example/x', consented: 'news.example:443', ok: true },
    { name: 'the approved host on another port', url: 'https://news.example:8443/x', consented: 'news.example:443', ok: false },
    { name: 'an allowlisted name on a port other than 80/443', url: 'http://registry.npmjs.org:8080/', consented: null, ok: false },
  ])('$name: allowed $ok', async ({ url, consented, patterns, ok }) => {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    // Every name here resolves to an ordinary public address: only the patterns decide.
    const d = await resolveDestination(u.hostname, port, { patterns: [...(patterns ?? ['registry.npmjs.org']), ...(consented ? [consented] : [])], resolve: async () => ['93.184.215.14'] });
    expect(d.ok).toEqual(ok);
  });

  it.each([
    { name: 'approved by a person after asking', e: { decision: 'ask' as const, decider: { kind: 'level' as const, level: 'supervised' as const } }, want: 'example.com:443' },
    { name: 'covered by a url grant the user made', e: { decision: 'allow' as const, decider: { kind: 'grant' as const, grantIds: ['g1'] } }, want: 'example.com:443' },
    { name: 'allowed by the level alone', e: { decision: 'allow' as const, decider: { kind: 'level' as const, level: 'full' as const } }, want: null },
  ])('a call $name consents to its own host: $want', ({ e, want }) => {
    expect(consentedHost('https://Example.com/page', e as Pick<Evaluation, 'decision' | 'decider'>)).toEqual(want);
  });
});

let core: ThresholdCore;
let server: Server;
let port = 0;
const offers: ConsentOffer[] = [];

beforeAll(async () => {
  core = await testCore({ config: { network: { allowHosts: [] } } });
  core.events.on('sandbox.denied', (o) => offers.push(o));
  server = createServer((req, res) => {
    if (req.url === '/hop') res.writeHead(302, { location: `http://localhost:${port}/landed` }).end();
    else res.end(`page ${req.url}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => {
  server.close();
  core.dispose();
});

const fetchTool = (url: string, evaluation: Evaluation, sessionId = 'w1') =>
  runTool(core, 'web_fetch', { url }, { sessionId, callId: `c-${Math.random()}`, cwd: '/', evaluation });

describe('the web_fetch tool follows the egress hosts and grants', () => {
  it('an unprompted fetch of a host nobody allowed is refused, said plainly, and offered as a host grant', async () => {
    offers.length = 0;
    const out = await fetchTool(`http://127.0.0.1:${port}/secret`, ev({}));
    expect({ out, offers: offers.map((o) => [o.access, o.path]) }).toEqual({
      out: { text: `[threshold] The sandbox, not the task, blocked web_fetch from reaching 127.0.0.1:${port}: 127.0.0.1:${port} is not on the allowed hosts ([network] allow_hosts) and no grant covers it. Do not try to work around it.`, isError: true, status: 'failed' },
      offers: [],
    });
  });

  it('a fetch a person approved reaches its host; a redirect to another host is checked and refused', async () => {
    const direct = await fetchTool(`http://127.0.0.1:${port}/ok`, ev({ decision: 'ask' }));
    const redirected = await fetchTool(`http://127.0.0.1:${port}/hop`, ev({ decision: 'ask' }));
    expect({ direct: direct.text.split('\n').pop(), redirected: redirected.text }).toEqual({
      direct: 'page /ok',
      redirected: `[threshold] The sandbox, not the task, blocked web_fetch from reaching localhost:${port}: localhost:${port} is not on the allowed hosts ([network] allow_hosts) and no grant covers it. Do not try to work around it.`,
    });
  });

  it('a remote host nobody allowed is offered as a card, and the grant takes effect at the next fetch', async () => {
    offers.length = 0;
    const out = await fetchTool('https://unlisted.example/x', ev({}), 'w2');
    expect({ text: out.text, offers: offers.map((o) => [o.access, o.path]) }).toEqual({
      text: '[threshold] The sandbox, not the task, blocked web_fetch from reaching unlisted.example:443: unlisted.example:443 is not on the allowed hosts ([network] allow_hosts) and no grant covers it. The user was asked whether to allow unlisted.example; if they allow it, retry.',
      offers: [['host', 'unlisted.example']],
    });
    core.consent.decide(offers[0]!.id, 'session', 'test');
    expect(core.commands.allowHostsFor('w2')).toEqual(['unlisted.example']);
  });
});
