// Which network hosts a jailed call may reach without a grant. One place for the default allowlist
// and for how a host is compared with a pattern: the classifier (is every host of a download
// allowed?), the egress proxy (may this CONNECT pass?) and web_fetch all ask this module.
//
// A pattern is a lower-case host name (`registry.npmjs.org`) or `*.` followed by a domain
// (`*.pythonhosted.org`), which matches every name below that domain but not the domain itself.
// Optional `:port` pins one port; without it ports 80 and 443 match. IP literals never match a
// name pattern; they match only a pattern that is the same literal.

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

const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]{0,62})(\.[a-z0-9]([a-z0-9-]{0,62}))*(:[0-9]{1,5})?$/;

/** An error message for a pattern that is not one, or null when it is valid (config validation). */
export function hostPatternProblem(pattern: string): string | null {
  if (!HOST_PATTERN.test(pattern)) return `"${pattern}" is not a host name or *.domain pattern (lower-case, optional :port)`;
  const port = pattern.includes(':') ? Number(pattern.split(':')[1]) : null;
  if (port !== null && (port < 1 || port > 65535)) return `"${pattern}" has a port outside 1-65535`;
  return null;
}

/** Lower-cases, drops one trailing dot and IPv6 brackets; returns null for something that is no host. */
export function normalizeHost(host: string): string | null {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h === '' || h.length > 253 || /[\s/@?#\\]/.test(h)) return null;
  return h;
}

/** True when `host:port` is covered by one of the patterns. */
export function hostAllowed(host: string, port: number, patterns: readonly string[]): boolean {
  const h = normalizeHost(host);
  if (h === null) return false;
  return patterns.some((p) => patternMatches(p, h, port));
}

function patternMatches(pattern: string, host: string, port: number): boolean {
  const colon = pattern.lastIndexOf(':');
  const hasPort = colon > 0 && /^[0-9]+$/.test(pattern.slice(colon + 1));
  const name = hasPort ? pattern.slice(0, colon) : pattern;
  if (hasPort ? Number(pattern.slice(colon + 1)) !== port : port !== 80 && port !== 443) return false;
  if (name.startsWith('*.')) return host.endsWith(name.slice(1)) && host.length > name.length - 1;
  return host === name;
}
