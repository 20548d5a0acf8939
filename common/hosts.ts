// Host names and host patterns: the one reading of a host that every protocol's name field goes through
// (the egress proxy's CONNECT authority, absolute URI, Host header and SOCKS5 name; web_fetch's URLs;
// the classifier's download hosts), and how such a host is compared with the allowed patterns. A name is
// checked in the form in which it is dialled (DESIGN.md rule 17): `canonicalHost` gives that form, and
// the resolving dial (executor/net/destination.ts) resolves exactly it. Pure: no Node built-ins.
//
// A pattern is a lower-case host name (`registry.npmjs.org`) or `*.` followed by a domain
// (`*.pythonhosted.org`), which matches every name below that domain but not the domain itself, or an
// IP literal (`127.0.0.1`, `[::1]`). Optional `:port` pins one port; without it ports 80 and 443 match.
// IP literals never match a name pattern; they match only a pattern that is the same address.
import { formatIPv6, parseIPv4, parseIPv6 } from './addresses';

/** The package registries and their download hosts: enough for installs to work through the proxy. */
export const DEFAULT_ALLOW_HOSTS: readonly string[] = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  'proxy.golang.org',
  'sum.golang.org',
  'rubygems.org',
  'index.rubygems.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
  'deb.debian.org',
  'security.debian.org',
  'archive.ubuntu.com',
  'security.ubuntu.com',
  'github.com',
  'codeload.github.com',
  'objects.githubusercontent.com',
  'raw.githubusercontent.com',
];

export type HostKind = 'name' | 'ipv4' | 'ipv6';
export type CanonicalHost = { ok: true; host: string; kind: HostKind } | { ok: false; reason: string };

/** A character as a person can read it in a sentence, whatever it is: `"%"`, `U+0000 (a control character)`. */
function describeChar(ch: string): string {
  const code = ch.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return `${hex} (a control character)`;
  if (code === 0x20) return `${hex} (a space)`;
  if (code > 0x7f) return `${hex} (a non-ASCII character; an internationalised name must be sent in its ASCII xn-- form)`;
  return `"${ch}"`;
}

/** Shows a host as received, with every control, space or non-ASCII character escaped: safe in a log line or on a card. */
export function visibleHost(raw: string): string {
  const shown = [...raw].map((ch) => (/^[\x21-\x7e]$/.test(ch) ? ch : `\\u{${ch.codePointAt(0)!.toString(16)}}`)).join('');
  return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
}

const LDH = /^[A-Za-z0-9.-]+$/;

/** WHATWG's "ends in a number": a last label of digits or 0x-hex makes the whole name an IPv4 address in some spelling. */
const NUMERIC_LABEL = /^(?:[0-9]+|0[xX][0-9a-fA-F]*)$/;

/**
 * The one form of a host that is matched, resolved and dialled, or why it is refused. Accepted: an IP
 * literal in its standard spelling (IPv4 dotted quad; IPv6, with or without brackets, written back in
 * RFC 5952 form), or a name of letters, digits and hyphens (LDH) in dot-separated labels of 1-63
 * characters, at most 253 in all; upper case is folded; one trailing dot (the root) is dropped. Refused:
 * control characters (NUL included), spaces, non-ASCII (look-alikes: an internationalised name must
 * come as its xn-- form, which is compared as written), `%`, `_`, `@` and every other character, empty
 * labels, labels that begin or end with a hyphen, and IPv4 in any other spelling (`127.1`, `0x7f.1`,
 * `2130706433`), which resolvers would read as an address.
 */
export function canonicalHost(raw: string): CanonicalHost {
  if (raw.length === 0) return { ok: false, reason: 'the host name is empty' };
  const v4 = parseIPv4(raw);
  if (v4) return { ok: true, host: raw, kind: 'ipv4' };
  if (raw.length > 300) return { ok: false, reason: 'the host name is longer than 253 characters' };
  if (raw.startsWith('[') || raw.includes(':')) {
    const inner = !raw.startsWith('[') ? raw : raw.endsWith(']') ? raw.slice(1, -1) : null;
    const words = inner === null ? null : parseIPv6(inner);
    if (!words) return { ok: false, reason: `"${visibleHost(raw)}" is not an IPv6 address in a standard form` };
    return { ok: true, host: formatIPv6(words), kind: 'ipv6' };
  }
  if (!LDH.test(raw)) {
    const ch = [...raw].find((c) => !LDH.test(c))!;
    return { ok: false, reason: `the host name contains ${describeChar(ch)}, which a host name may not (letters, digits, hyphens and dots only)` };
  }
  let name = raw.toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name.length === 0) return { ok: false, reason: 'the host name is empty' };
  if (name.length > 253) return { ok: false, reason: 'the host name is longer than 253 characters' };
  const labels = name.split('.');
  for (const label of labels) {
    if (label.length === 0) return { ok: false, reason: 'the host name has an empty label (a leading dot or two dots in a row)' };
    if (label.length > 63) return { ok: false, reason: `the host name has a label of ${label.length} characters (at most 63)` };
    if (label.startsWith('-') || label.endsWith('-')) return { ok: false, reason: `the host name has a label that begins or ends with a hyphen ("${label}")` };
  }
  if (NUMERIC_LABEL.test(labels[labels.length - 1]!)) {
    const address = parseIPv4(name);
    if (!address) return { ok: false, reason: `"${name}" is an IP address in a non-standard spelling (write it as four decimal numbers, like 127.0.0.1)` };
    return { ok: true, host: address.join('.'), kind: 'ipv4' };
  }
  return { ok: true, host: name, kind: 'name' };
}

/**
 * A host read out of command text, lower-cased with one trailing dot and IPv6 brackets dropped, or null
 * for something that is no host: how the classifier names a download's host. Whether that host may be
 * reached is decided by `hostAllowed`, which reads it through `canonicalHost`.
 */
export function normalizeHost(host: string): string | null {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h === '' || h.length > 253 || /[\s/@?#\\]/.test(h) || [...h].some((c) => c < ' ' || c === '\x7f')) return null;
  return h;
}

/** `host:port` as written in a pattern, a card or a log line: IPv6 in brackets. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

interface ParsedPattern {
  wildcard: boolean;
  host: string;
  kind: HostKind;
  /** null: ports 80 and 443. */
  port: number | null;
}

const PATTERN_PROBLEM = (p: string) => `"${p}" is not a host name or *.domain pattern (lower-case, optional :port)`;

/** Patterns read once: the same few dozen are matched on every connection. */
const parsed = new Map<string, ParsedPattern | string>();

function parsePattern(pattern: string): ParsedPattern | string {
  let p = parsed.get(pattern);
  if (p === undefined) {
    p = readPattern(pattern);
    if (parsed.size >= 4096) parsed.clear();
    parsed.set(pattern, p);
  }
  return p;
}

function readPattern(pattern: string): ParsedPattern | string {
  let hostPart = pattern;
  let port: number | null = null;
  if (pattern.startsWith('[')) {
    const close = pattern.indexOf(']');
    const after = close === -1 ? '' : pattern.slice(close + 1);
    if (close === -1 || (after !== '' && !/^:[0-9]{1,5}$/.test(after))) return PATTERN_PROBLEM(pattern);
    if (after) port = Number(after.slice(1));
    hostPart = pattern.slice(0, close + 1);
  } else {
    const colon = pattern.indexOf(':');
    if (colon !== -1) {
      if (!/^[0-9]{1,5}$/.test(pattern.slice(colon + 1))) return PATTERN_PROBLEM(pattern);
      port = Number(pattern.slice(colon + 1));
      hostPart = pattern.slice(0, colon);
    }
  }
  if (port !== null && (port < 1 || port > 65535)) return `"${pattern}" has a port outside 1-65535`;
  const wildcard = hostPart.startsWith('*.');
  const written = wildcard ? hostPart.slice(2) : hostPart.startsWith('[') ? hostPart.slice(1, -1) : hostPart;
  const c = canonicalHost(written);
  // A pattern is written the way hosts are compared, so what the user reads is exactly what matches.
  if (!c.ok || c.host !== written || (wildcard && c.kind !== 'name') || (c.kind === 'ipv6') !== hostPart.startsWith('[')) return PATTERN_PROBLEM(pattern);
  return { wildcard, host: c.host, kind: c.kind, port };
}

/** An error message for a pattern that is not one, or null when it is valid (config validation). */
export function hostPatternProblem(pattern: string): string | null {
  const p = parsePattern(pattern);
  return typeof p === 'string' ? p : null;
}

function matches(p: ParsedPattern, host: string, kind: HostKind, port: number): boolean {
  if (p.port === null ? port !== 80 && port !== 443 : p.port !== port) return false;
  if (p.wildcard) return kind === 'name' && host.endsWith(`.${p.host}`);
  return p.host === host;
}

/** The patterns that cover a canonical `host:port`, each as written. */
export function coveringPatterns(host: string, kind: HostKind, port: number, patterns: readonly string[]): string[] {
  const out: string[] = [];
  for (const pattern of patterns) {
    const p = parsePattern(pattern);
    if (typeof p !== 'string' && matches(p, host, kind, port)) out.push(pattern);
  }
  return out;
}

/** True when some pattern covers a canonical `host:port`. */
export function covered(host: string, kind: HostKind, port: number, patterns: readonly string[]): boolean {
  for (const pattern of patterns) {
    const p = parsePattern(pattern);
    if (typeof p !== 'string' && matches(p, host, kind, port)) return true;
  }
  return false;
}

/** True when a pattern names exactly this host (no wildcard), with the port rule. */
export function namedExactly(host: string, kind: HostKind, port: number, patterns: readonly string[]): boolean {
  return coveringPatterns(host, kind, port, patterns).some((p) => !p.startsWith('*.'));
}

/** True when `host:port` is covered by one of the patterns; a host that is refused by `canonicalHost` never is. */
export function hostAllowed(host: string, port: number, patterns: readonly string[]): boolean {
  const c = canonicalHost(host);
  return c.ok && covered(c.host, c.kind, port, patterns);
}

/** `localhost` and the names below it: loopback by definition (RFC 6761). */
export function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}
