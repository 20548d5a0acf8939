// Which hosts web_fetch may reach: those of the egress proxy ([network] allow_hosts and the session's
// host grants), plus the host:port a person consented to by approving this very call (the card showed the
// URL) or by making the url grant that covered it. The consent is a pattern like any other, so the first
// request and every redirect are checked the same way (./web-fetch.ts), and a redirect elsewhere needs
// its own pattern. Pure: the evaluation is passed in.
import { canonicalHost, hostPort } from '../../common/hosts';
import type { Evaluation } from '../policy/evaluate';

/** The host:port the user consented to by approving or granting this call (as a pattern), or null when nobody did. */
export function consentedHost(url: string, e: Pick<Evaluation, 'decision' | 'decider'>): string | null {
  if (e.decision !== 'ask' && e.decider.kind !== 'grant') return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const c = canonicalHost(u.hostname);
  if (!c.ok) return null;
  return hostPort(c.host, u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);
}
