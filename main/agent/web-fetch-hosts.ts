// web_fetch follows the egress proxy's hosts: a hop may reach a host on [network] allow_hosts or under a
// host grant in force for the session. The first hop's host also counts as consented when a person
// approved this very call (the card showed the URL) or a url grant the user made covered it; a redirect
// elsewhere is checked like any other hop. Pure: the patterns and the consented host are passed in.
import type { Evaluation } from '../policy/evaluate';
import { hostAllowed, normalizeHost } from '../policy/hosts';

export type HopVerdict = { ok: true } | { ok: false; host: string; port: number; reason: string };

export function urlHostPort(u: URL): { host: string; port: number } {
  return { host: normalizeHost(u.hostname) ?? u.hostname, port: u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80 };
}

/** The host:port the user consented to by approving or granting this call, or null when nobody did. */
export function consentedHost(url: string, e: Pick<Evaluation, 'decision' | 'decider'>): string | null {
  if (e.decision !== 'ask' && e.decider.kind !== 'grant') return null;
  try {
    const { host, port } = urlHostPort(new URL(url));
    return `${host}:${port}`;
  } catch {
    return null;
  }
}

export function hopVerdict(u: URL, o: { patterns: readonly string[]; consented: string | null }): HopVerdict {
  const { host, port } = urlHostPort(u);
  if (o.consented === `${host}:${port}` || hostAllowed(host, port, o.patterns)) return { ok: true };
  return { ok: false, host, port, reason: `${host}:${port} is not on the allowed hosts ([network] allow_hosts) and no grant covers it` };
}
