// The one resolving check: which names are refused before any lookup, which resolved addresses are
// refused, when a pattern that names an address lets a name reach it, and that a connection made with
// the pinned lookup goes to the checked address without a second lookup. The resolver is the outside
// boundary replaced (a table of answers), recording every name it was asked.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinnedLookup, resolveDestination, type Resolver } from './destination';

function dns(table: Record<string, string[]>): { resolve: Resolver; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolve: async (h) => {
      asked.push(h);
      return table[h] ?? [];
    },
  };
}

const PUBLIC = '93.184.215.14';

describe('a name is refused before it is looked up', () => {
  it.each([
    { name: 'a NUL before an allowed suffix', host: 'collector.evil\0.allowed.test', kind: 'unsupported' },
    { name: 'an escape sequence', host: 'x\u001b[2J.allowed.test', kind: 'unsupported' },
    { name: 'a 64-character label', host: `${'a'.repeat(64)}.allowed.test`, kind: 'unsupported' },
    { name: 'a Cyrillic look-alike', host: 'x.\u0430llowed.test', kind: 'unsupported' },
    { name: 'a host no pattern covers', host: 'exfil.example', kind: 'not_allowed' },
    { name: 'an allowed name on a port its pattern does not give', host: 'x.allowed.test', port: 22, kind: 'not_allowed' },
    { name: 'an odd IPv4 spelling of an allowed address', host: '127.1', kind: 'unsupported' },
  ])('$name ($kind), and nothing is resolved', async ({ host, port, kind }) => {
    const d = dns({});
    const r = await resolveDestination(host, port ?? 443, { patterns: ['*.allowed.test', '127.0.0.1'], resolve: d.resolve });
    expect({ ok: r.ok, kind: r.ok ? null : r.kind, asked: d.asked }).toEqual({ ok: false, kind, asked: [] });
  });
});

const REFUSED_RANGES: [string, string][] = [
  ['127.0.0.1', 'a loopback address (this computer)'],
  ['::1', 'a loopback address (this computer)'],
  ['0.0.0.0', 'an unspecified "this network" address (this computer)'],
  ['::', 'the unspecified address (this computer)'],
  ['169.254.10.10', 'a link-local address (this network link)'],
  ['fe80::1', 'a link-local address (this network link)'],
  ['169.254.169.254', 'a cloud metadata service address (AWS, Google Cloud, Azure, Oracle, DigitalOcean)'],
  ['fd00:ec2::254', 'a cloud metadata service address (AWS, IPv6)'],
  ['10.0.0.5', 'a private network address'],
  ['172.16.0.1', 'a private network address'],
  ['192.168.1.1', 'a private network address'],
  ['fd12::1', 'a unique-local (private network) address'],
  ['100.64.0.1', 'a carrier-grade NAT (shared) address'],
  ['224.0.0.251', 'a multicast address'],
  ['255.255.255.255', 'a reserved or broadcast address'],
  ['::ffff:127.0.0.1', 'an IPv4-mapped form of 127.0.0.1, a loopback address (this computer)'],
  ['64:ff9b::a9fe:a9fe', 'a NAT64 form of 169.254.169.254, a cloud metadata service address (AWS, Google Cloud, Azure, Oracle, DigitalOcean)'],
  ['2002:c0a8:101::', 'a 6to4 form of 192.168.1.1, a private network address'],
];

describe('an allowed name is resolved once and its addresses checked', () => {
  it.each(REFUSED_RANGES)('a name resolving to %s (%s) is refused', async (address, description) => {
    const d = dns({ 'x.allowed.test': [address] });
    const r = await resolveDestination('x.allowed.test', 443, { patterns: ['*.allowed.test'], resolve: d.resolve });
    const shown = address.includes(':') ? (await import('../../common/addresses')).canonicalAddress(address)!.address : address;
    expect({ r, asked: d.asked }).toEqual({
      r: { ok: false, kind: 'local_address', host: 'x.allowed.test', port: 443, reason: `x.allowed.test resolves to ${shown}, ${description}, which a host name may reach only when [network] allow_hosts or a grant names that address itself (${shown.includes(':') ? `[${shown}]` : shown}:443)` },
      asked: ['x.allowed.test'],
    });
  });

  it.each([
    { name: 'a public address is dialled', answers: [PUBLIC], patterns: ['*.allowed.test'], expected: [PUBLIC] },
    { name: 'of a public and a loopback answer, only the public one is dialled', answers: ['127.0.0.1', PUBLIC], patterns: ['*.allowed.test'], expected: [PUBLIC] },
    { name: 'a private address a pattern names (with the port) may be reached by name', answers: ['10.1.2.3'], patterns: ['*.allowed.test', '10.1.2.3:443'], expected: ['10.1.2.3'] },
    { name: 'the same address spelled another way by the resolver is the same address', answers: ['::ffff:a01:203'], patterns: ['*.allowed.test', '[::ffff:a01:203]'], expected: ['::ffff:a01:203'] },
    { name: 'resolver answers that are not addresses are dropped', answers: ['evil.example', PUBLIC], patterns: ['*.allowed.test'], expected: [PUBLIC] },
  ])('$name', async ({ answers, patterns, expected }) => {
    const d = dns({ 'x.allowed.test': answers });
    const r = await resolveDestination('X.Allowed.Test.', 443, { patterns, resolve: d.resolve });
    expect({ r, asked: d.asked }).toEqual({ r: { ok: true, host: 'x.allowed.test', port: 443, addresses: expected }, asked: ['x.allowed.test'] });
  });

  // Each of these would let a name onto an address nobody named.
  it.each([
    { name: 'a pattern naming the address on another port does not open it', answers: ['10.1.2.3'], patterns: ['*.allowed.test', '10.1.2.3:8443'] },
    { name: 'a wildcard covering the name does not open its loopback answer', answers: ['127.0.0.1'], patterns: ['*.allowed.test', '*.test'] },
    { name: 'naming the name itself exactly does not open its private answer', answers: ['192.168.1.1'], patterns: ['x.allowed.test'] },
    { name: 'a *.localhost wildcard does not open loopback for a name under it', answers: ['127.0.0.1'], patterns: ['*.localhost'], host: 'evil.localhost' },
  ])('$name', async ({ answers, patterns, host }) => {
    const name = host ?? 'x.allowed.test';
    const r = await resolveDestination(name, 443, { patterns, resolve: dns({ [name]: answers }).resolve });
    expect(r.ok ? 'reached' : r.kind).toEqual('local_address');
  });

  it.each([
    { name: 'localhost, named exactly with its port, reaches loopback', host: 'localhost', port: 8080, patterns: ['localhost:8080'], ok: true },
    { name: 'an IP literal a pattern names is reached without a lookup', host: '127.0.0.1', port: 8080, patterns: ['127.0.0.1:8080'], ok: true },
    { name: 'the metadata address named as a literal is reached (the user wrote it)', host: '169.254.169.254', port: 80, patterns: ['169.254.169.254'], ok: true },
  ])('$name', async ({ host, port, patterns, ok }) => {
    const r = await resolveDestination(host, port, { patterns, resolve: dns({ localhost: ['127.0.0.1'] }).resolve });
    expect(r.ok).toEqual(ok);
  });

  it('a name that does not resolve is the network\'s answer, not a refusal', async () => {
    const r = await resolveDestination('nowhere.allowed.test', 443, { patterns: ['*.allowed.test'], resolve: async () => { throw new Error('ENOTFOUND'); } });
    expect(r).toEqual({ ok: false, kind: 'unresolved', host: 'nowhere.allowed.test', port: 443, reason: 'nowhere.allowed.test could not be resolved' });
  });
});

describe('a connection goes to the checked address and nowhere else', () => {
  let checked: Server;
  let loopback: Server;
  let port = 0;
  const hits: string[] = [];

  beforeAll(async () => {
    loopback = createServer((_q, r) => r.end('loopback'));
    await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', r));
    port = (loopback.address() as AddressInfo).port;
    checked = createServer((q, r) => {
      hits.push(String(q.headers.host));
      r.end('checked address');
    });
    await new Promise<void>((r) => checked.listen(port, '127.0.0.2', r));
  });
  afterAll(() => {
    checked.close();
    loopback.close();
  });

  function get(host: string, lookup: ReturnType<typeof pinnedLookup>): Promise<string> {
    return new Promise((resolve) => {
      const req = request({ host, port, path: '/', lookup, agent: false, setHost: false, headers: { host: `${JSON.stringify(host).slice(1, -1)}:${port}` } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(body));
      });
      req.on('error', (e) => resolve(`error: ${e.message}`));
      req.end();
    });
  }

  it('a rebinding resolver (a named address first, loopback after) is asked once; the request reaches the first answer, with the name as Host', async () => {
    let n = 0;
    const asked: string[] = [];
    const rebinding: Resolver = async (h) => {
      asked.push(h);
      return n++ === 0 ? ['127.0.0.2'] : ['127.0.0.1'];
    };
    const d = await resolveDestination('rebind.test', port, { patterns: [`rebind.test:${port}`, `127.0.0.2:${port}`], resolve: rebinding });
    if (!d.ok) throw new Error(d.reason);
    const body = await get('rebind.test', pinnedLookup(d));
    expect({ body, asked, host: hits.at(-1) }).toEqual({ body: 'checked address', asked: ['rebind.test'], host: `rebind.test:${port}` });
  });

  it.each([
    { name: 'another name', host: 'other.test' },
    { name: 'the checked name with a NUL appended', host: 'rebind.test\0.x' },
  ])('the pinned lookup refuses $name instead of resolving it', async ({ host }) => {
    const d = { ok: true as const, host: 'rebind.test', port, addresses: ['127.0.0.2'] };
    expect(await get(host, pinnedLookup(d))).toMatch(/^error: .* was not checked for this connection$/);
  });
});
