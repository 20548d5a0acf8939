// Where a URL, a git remote or an ssh target points, judged from its text. Anything whose host a
// program might read differently than this parser (globs, escapes, several @) is an unknown host: a
// host named here is only shown and compared, the egress proxy still checks every connection.
import { normalizeHost } from '../../../../common/hosts';
import type { HostTarget } from './types';

const DEFAULT_PORTS: Readonly<Record<string, number>> = {
  http: 80, https: 443, 'git+http': 80, 'git+https': 443, ftp: 21, ftps: 990, ssh: 22, 'git+ssh': 22, 'ssh+git': 22,
  sftp: 22, scp: 22, git: 9418, rsync: 873, ws: 80, wss: 443, smtp: 25, smtps: 465, imap: 143, imaps: 993,
  pop3: 110, pop3s: 995, ldap: 389, ldaps: 636, telnet: 23, gopher: 70, gophers: 70, dict: 2628, mqtt: 1883, tftp: 69,
  s3: 443, gs: 443, 'hg+https': 443, 'svn+ssh': 22, svn: 3690,
};

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** The scheme of a URL (lower-case), or null when the text is not one. */
export function urlScheme(text: string): string | null {
  // Most words are not URLs: a plain search for the :// every match holds is cheaper than the pattern.
  if (!text.includes('://')) return null;
  const m = SCHEME.exec(text);
  return m ? m[1]!.toLowerCase() : null;
}

/** True when a word looks like a URL with a scheme. */
export function isUrl(text: string): boolean {
  return text.includes('://') && SCHEME.test(text);
}

/** The host of a URL (`https://user@host:8443/x`); null when the text is not a URL. */
export function urlTarget(text: string): HostTarget | null {
  const scheme = urlScheme(text);
  if (scheme === null) return null;
  if (scheme === 'file') return null;
  const rest = text.slice(text.indexOf('://') + 3);
  return authorityTarget(beforePathQueryOrFragment(rest), DEFAULT_PORTS[scheme] ?? null, text);
}

/** A host written without a scheme (curl and wget default to http): `example.com/x`, `host:8080`. */
export function bareHostTarget(text: string): HostTarget {
  return authorityTarget(beforePathQueryOrFragment(text), 80, text);
}

/** The text before the first /, ? or # (what `split(/[/?#]/, 1)[0]` gives, without the pattern and the array). */
function beforePathQueryOrFragment(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 47 || c === 63 || c === 35) return text.slice(0, i);
  }
  return text;
}

/** No known host, and why, naming the text (a module function: see addReasons in analyze.ts). */
function unknownTarget(why: string, whole: string): HostTarget {
  return { host: null, why: `${why}: ${clip(whole)}` };
}

function authorityTarget(authority: string, defaultPort: number | null, whole: string): HostTarget {
  if (authority === '') return unknownTarget('the URL names no host', whole);
  // Two or more @: the first and the last differ.
  if (/[\s\\%{}$`'"]/.test(authority) || authority.indexOf('@') !== authority.lastIndexOf('@')) return unknownTarget('the URL\'s host can be read more than one way', whole);
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  let host: string;
  let port: string | null;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close === -1) return unknownTarget('the URL\'s host is malformed', whole);
    host = hostPort.slice(1, close);
    const after = hostPort.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return unknownTarget('the URL\'s host is malformed', whole);
    port = after ? after.slice(1) : null;
  } else {
    if (/[[\]]/.test(hostPort)) return unknownTarget('the URL\'s host is a glob', whole);
    const colon = hostPort.indexOf(':');
    host = colon === -1 ? hostPort : hostPort.slice(0, colon);
    port = colon === -1 ? null : hostPort.slice(colon + 1);
  }
  const normal = normalizeHost(host);
  if (normal === null || !/^[a-z0-9.:_-]+$/.test(normal)) return unknownTarget('the URL\'s host is malformed', whole);
  if (port !== null && port !== '' && !/^\d{1,5}$/.test(port)) return unknownTarget('the URL\'s port is not a number', whole);
  const n = port ? Number(port) : defaultPort;
  if (n === null || n < 1 || n > 65535) return unknownTarget('the URL\'s port is not known', whole);
  return { host: normal, port: n };
}

/** How a git, scp or rsync location is written. */
export type RemoteSpec =
  | { kind: 'url'; target: HostTarget; scheme: string }
  /** `[user@]host:path`, reached over ssh; `host` may be an ssh config alias. */
  | { kind: 'ssh'; user: string | null; host: string }
  /** `host::module`, an rsync daemon. */
  | { kind: 'rsync-daemon'; host: string }
  | { kind: 'local' };

/** Reads a git remote URL, an scp/rsync operand or a git clone source. */
export function remoteSpec(text: string): RemoteSpec {
  const scheme = urlScheme(text);
  if (scheme !== null) {
    if (scheme === 'file') return { kind: 'local' };
    return { kind: 'url', target: urlTarget(text) ?? { host: null, why: `the URL's host cannot be read: ${text.slice(0, 60)}` }, scheme };
  }
  if (text.startsWith('/') || text.startsWith('./') || text.startsWith('../') || text.startsWith('~') || text === '.' || text === '..') return { kind: 'local' };
  // git and scp: a colon before the first slash makes it host:path (git: and not a Windows drive).
  const colon = text.indexOf(':');
  const slash = text.indexOf('/');
  if (colon <= 0 || (slash !== -1 && slash < colon)) return { kind: 'local' };
  const authority = text.slice(0, colon);
  if (text.slice(colon + 1).startsWith(':')) return { kind: 'rsync-daemon', host: authority.slice(authority.lastIndexOf('@') + 1) };
  const at = authority.lastIndexOf('@');
  const host = authority.slice(at + 1).replace(/^\[|\]$/g, '');
  return { kind: 'ssh', user: at === -1 ? null : authority.slice(0, at), host };
}

/** `[user@]host` as ssh takes it (also `ssh://user@host:port`). */
export function sshDestination(text: string): { host: string; port: number | null } | HostTarget {
  if (urlScheme(text) !== null) return urlTarget(text) ?? { host: null, why: `not an ssh destination: ${clip(text)}` };
  const host = text.slice(text.lastIndexOf('@') + 1);
  if (host === '' || /[\s\\%{}$`'"/]/.test(host)) return { host: null, why: `the destination's host can be read more than one way: ${clip(text)}` };
  return { host, port: null };
}

function clip(s: string, n = 60): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}
