// Where a bridge's credential may be sent: an https:// address, or plain http:// to this machine only
// (a local fake in tests, a homeserver on the same computer). A bot token sent over plain http to any
// other host would be readable on the way, so such an address is refused at load, not at first use.
import { addressRange } from '../../common/addresses';
import { isLocalhostName } from '../../common/hosts';

/** Why `url` may not carry a bridge's token, or null when it may. */
export function bridgeEndpointProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'must be an address such as https://api.telegram.org';
  }
  if (u.username || u.password) return 'must not carry a user name or password (the token is read from the environment or the keychain)';
  if (u.search || u.hash) return 'must not carry a query or a fragment';
  if (u.protocol === 'https:') return null;
  if (u.protocol !== 'http:') return 'must be an https:// address';
  // The host as URL parsed it: 127.0.0.1.evil.example is a name, not the loopback address.
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  const loopback = isLocalhostName(host.toLowerCase()) || addressRange(host)?.range === 'loopback';
  return loopback ? null : 'must be an https:// address (plain http:// is allowed only to this computer: 127.0.0.1, [::1] or localhost)';
}

/** The address without a trailing slash, so paths join the same way whatever was written. */
export function endpointBase(url: string): string {
  return url.replace(/\/+$/, '');
}
