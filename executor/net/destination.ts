// The one way a host name becomes the address Threshold connects to, for the egress proxy (CONNECT,
// plain HTTP, SOCKS5) and for web_fetch alike (DESIGN.md rule 17: a value is checked in the form in
// which it is used). In order:
//   1. the name is read by `canonicalHost` (common/hosts.ts): control and non-LDH characters, empty or
//      overlong labels, look-alikes and odd IPv4 spellings are refused; what is left is the one form
//      that is matched, resolved and dialled;
//   2. it is matched against the allowed patterns, before any lookup (a refused name never reaches DNS);
//   3. it is resolved once;
//   4. each address is checked (common/addresses.ts): loopback, link-local, private, shared (CGNAT),
//      multicast, reserved and metadata addresses, and IPv6 forms that carry one, are refused unless a
//      pattern names that very address (or the name is localhost, named exactly, and the address loopback);
//   5. the caller connects to those addresses and nothing else: `pinnedLookup` for an HTTP client,
//      a plain connect to the address for the proxy. Nothing looks the name up a second time.
import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressRange, canonicalAddress } from '../../common/addresses';
import { canonicalHost, covered, hostPort, isLocalhostName, namedExactly, visibleHost } from '../../common/hosts';

/** Name resolution: the system's unless a test gives its own (the outside boundary: a fake DNS answer). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export interface Destination {
  ok: true;
  /** The canonical name (or address) that was checked: what SNI and Host carry. */
  host: string;
  port: number;
  /** The checked addresses, in the resolver's order: a connection goes to one of these and nowhere else. */
  addresses: readonly string[];
}

export interface DestinationRefusal {
  ok: false;
  /**
   * unsupported: the name or port is malformed; not_allowed: no pattern or grant covers host:port (what a
   * consent card may change); local_address: the name resolves only to addresses a name may not reach;
   * unresolved: the name does not resolve (the network's answer, not the sandbox's).
   */
  kind: 'unsupported' | 'not_allowed' | 'local_address' | 'unresolved';
  /** The canonical host, or the raw one with every invisible character escaped when it could not be read. */
  host: string;
  port: number;
  reason: string;
}

export interface DestinationPolicy {
  /** The allowed patterns: the allowlist and the grants in force (and, for web_fetch, the host:port a person approved). */
  patterns: readonly string[];
  resolve?: Resolver;
}

/** How many of a name's addresses are tried in turn (each one checked). */
const MAX_ADDRESSES = 4;

export async function resolveDestination(rawHost: string, port: number, policy: DestinationPolicy): Promise<Destination | DestinationRefusal> {
  const c = canonicalHost(rawHost);
  if (!c.ok) return { ok: false, kind: 'unsupported', host: visibleHost(rawHost), port, reason: c.reason };
  const host = c.host;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, kind: 'unsupported', host, port, reason: `the port ${port} is outside 1-65535` };
  if (!covered(host, c.kind, port, policy.patterns)) {
    return { ok: false, kind: 'not_allowed', host, port, reason: `${hostPort(host, port)} is not on the allowed hosts ([network] allow_hosts) and no grant covers it` };
  }
  // An IP literal that a pattern covers is named by it (literals match only themselves): nothing to resolve or check.
  if (c.kind !== 'name') return { ok: true, host, port, addresses: [host] };

  let answers: string[];
  try {
    answers = await (policy.resolve ?? systemResolver)(host);
  } catch {
    answers = [];
  }
  const addresses = [...new Set(answers.map((a) => canonicalAddress(a)?.address).filter((a): a is string => a !== undefined))];
  if (addresses.length === 0) return { ok: false, kind: 'unresolved', host, port, reason: `${host} could not be resolved` };

  const localhostNamed = isLocalhostName(host) && namedExactly(host, 'name', port, policy.patterns);
  const permitted: string[] = [];
  let firstRefusal: string | null = null;
  for (const address of addresses) {
    const range = addressRange(address);
    const named = covered(address, address.includes(':') ? 'ipv6' : 'ipv4', port, policy.patterns);
    if (range === null || named || (localhostNamed && range.range === 'loopback')) permitted.push(address);
    else firstRefusal ??= `${host} resolves to ${address}, ${range.description}, which a host name may reach only when [network] allow_hosts or a grant names that address itself (${hostPort(address, port)})`;
  }
  if (permitted.length === 0) return { ok: false, kind: 'local_address', host, port, reason: firstRefusal! };
  return { ok: true, host, port, addresses: permitted.slice(0, MAX_ADDRESSES) };
}

/**
 * A `lookup` for Node's HTTP and TLS clients that answers only the checked name, and only with its
 * checked addresses: the client keeps the name for SNI, the certificate check and Host, and connects
 * to what was checked. Any other name fails instead of being resolved.
 */
export function pinnedLookup(d: Destination): LookupFunction {
  const answers: LookupAddress[] = d.addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return ((hostname: string, options: { all?: boolean; family?: number | string } | number, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    const canonical = canonicalHost(hostname);
    if (!canonical.ok || canonical.host !== d.host) {
      const err: NodeJS.ErrnoException = new Error(`${visibleHost(hostname)} was not checked for this connection`);
      err.code = 'ENOTFOUND';
      return void process.nextTick(callback, err, '', 0);
    }
    const family = typeof options === 'number' ? options : options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const fitting = family === 4 || family === 6 ? answers.filter((a) => a.family === family) : answers;
    if (typeof options === 'object' && options.all) return void process.nextTick(callback, null, fitting);
    const first = fitting[0];
    if (!first) {
      const err: NodeJS.ErrnoException = new Error(`${d.host} has no checked IPv${family} address`);
      err.code = 'ENOTFOUND';
      return void process.nextTick(callback, err, '', 0);
    }
    process.nextTick(callback, null, first.address, first.family);
  }) as LookupFunction;
}
