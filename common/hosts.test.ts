import { describe, expect, it } from 'vitest';
import { canonicalHost, DEFAULT_ALLOW_HOSTS, hostAllowed, hostPatternProblem, visibleHost } from './hosts';

describe('host allowlist', () => {
  it.each([
    ['registry.npmjs.org', 443, ['registry.npmjs.org'], true],
    ['REGISTRY.npmjs.org.', 443, ['registry.npmjs.org'], true],
    ['registry.npmjs.org', 22, ['registry.npmjs.org'], false],
    ['registry.npmjs.org', 8443, ['registry.npmjs.org:8443'], true],
    ['evil-registry.npmjs.org.attacker.com', 443, ['registry.npmjs.org'], false],
    ['files.pythonhosted.org', 443, ['*.pythonhosted.org'], true],
    ['pythonhosted.org', 443, ['*.pythonhosted.org'], false],
    ['xpythonhosted.org', 443, ['*.pythonhosted.org'], false],
    ['127.0.0.1', 80, ['*.npmjs.org'], false],
    ['user@registry.npmjs.org', 443, ['registry.npmjs.org'], false],
    ['', 443, ['registry.npmjs.org'], false],
  ] as const)('%s port %d against %j is allowed: %s', (host, port, patterns, expected) => {
    expect(hostAllowed(host, port, patterns)).toBe(expected);
  });

  it.each([
    ['registry.npmjs.org', null],
    ['*.pythonhosted.org', null],
    ['localhost:8080', null],
    ['Registry.npmjs.org', '"Registry.npmjs.org" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['*', '"*" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['a.*.com', '"a.*.com" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['host:70000', '"host:70000" has a port outside 1-65535'],
    ['127.0.0.1:8080', null],
    ['[::1]:8080', null],
    ['[fd00::5]', null],
    // A pattern is written as hosts are compared: anything the name check would change or refuse is refused.
    ['::1', '"::1" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['[0:0::1]:80', '"[0:0::1]:80" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['*.0.0.1', '"*.0.0.1" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['127.1', '"127.1" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['allowed.test.', '"allowed.test." is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['a..test', '"a..test" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['-a.test', '"-a.test" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['a_b.test', '"a_b.test" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['\u0430llowed.test', '"\u0430llowed.test" is not a host name or *.domain pattern (lower-case, optional :port)'],
    ['xn--llowed-2nf.test', null],
  ])('the pattern %s has the problem %j', (pattern, problem) => {
    expect(hostPatternProblem(pattern)).toBe(problem);
  });

  it.each([
    { name: 'the same address in another spelling matches an IPv6 pattern', host: '0:0:0:0:0:0:0:1', port: 8080, patterns: ['[::1]:8080'], expected: true },
    { name: 'an IPv4-mapped address does not match the IPv4 pattern', host: '::ffff:127.0.0.1', port: 8080, patterns: ['127.0.0.1:8080'], expected: false },
    { name: 'an IP literal never matches a wildcard', host: '10.0.0.1', port: 443, patterns: ['*.0.0.1'], expected: false },
    { name: 'a NUL before an allowed suffix does not match it', host: 'collector.evil\0.allowed.test', port: 443, patterns: ['*.allowed.test'], expected: false },
    { name: 'a Cyrillic look-alike does not match the ASCII name', host: '\u0430llowed.test', port: 443, patterns: ['allowed.test'], expected: false },
    { name: 'a look-alike in xn-- form does not match the ASCII name', host: 'xn--llowed-2nf.test', port: 443, patterns: ['allowed.test'], expected: false },
    { name: 'the xn-- form matches its own pattern', host: 'XN--LLOWED-2NF.test', port: 443, patterns: ['xn--llowed-2nf.test'], expected: true },
    { name: 'full-width dots are not dots', host: 'x\uff0eallowed.test', port: 443, patterns: ['*.allowed.test'], expected: false },
    { name: 'an odd IPv4 spelling does not match the address', host: '127.1', port: 8080, patterns: ['127.0.0.1:8080'], expected: false },
    { name: 'a name with the trailing root dot matches its pattern', host: 'registry.npmjs.org.', port: 443, patterns: ['registry.npmjs.org'], expected: true },
  ])('$name: $expected', ({ host, port, patterns, expected }) => {
    expect(hostAllowed(host, port, patterns)).toBe(expected);
  });

  it('every default host is a valid pattern', () => {
    expect(DEFAULT_ALLOW_HOSTS.map(hostPatternProblem).filter(Boolean)).toEqual([]);
  });
});

const CONTROL = [...Array(0x20).keys(), 0x7f, 0x85, 0x9b].map((c) => String.fromCharCode(c));

describe('the one reading of a host name (canonicalHost)', () => {
  it.each([
    { name: 'a plain name', raw: 'files.pythonhosted.org', expected: { ok: true, host: 'files.pythonhosted.org', kind: 'name' } },
    { name: 'upper case, folded', raw: 'X.Allowed.TEST', expected: { ok: true, host: 'x.allowed.test', kind: 'name' } },
    { name: 'one trailing dot (the root), dropped', raw: 'x.allowed.test.', expected: { ok: true, host: 'x.allowed.test', kind: 'name' } },
    { name: 'an xn-- name, kept as written', raw: 'xn--llowed-2nf.test', expected: { ok: true, host: 'xn--llowed-2nf.test', kind: 'name' } },
    { name: 'a 63-character label', raw: `${'a'.repeat(63)}.test`, expected: { ok: true, host: `${'a'.repeat(63)}.test`, kind: 'name' } },
    { name: 'a 253-character name', raw: `${'a.'.repeat(126)}a`, expected: { ok: true, host: `${'a.'.repeat(126)}a`, kind: 'name' } },
    { name: 'an IPv4 address', raw: '127.0.0.1', expected: { ok: true, host: '127.0.0.1', kind: 'ipv4' } },
    { name: 'an IPv4 address with the root dot', raw: '127.0.0.1.', expected: { ok: true, host: '127.0.0.1', kind: 'ipv4' } },
    { name: 'an IPv6 address in brackets', raw: '[0:0::1]', expected: { ok: true, host: '::1', kind: 'ipv6' } },
    { name: 'an IPv6 address without', raw: '::FFFF:127.0.0.1', expected: { ok: true, host: '::ffff:7f00:1', kind: 'ipv6' } },
    { name: 'a NUL that ends the name for the C resolver', raw: '127.0.0.1\0.allowed.test', expected: { ok: false, reason: 'the host name contains U+0000 (a control character), which a host name may not (letters, digits, hyphens and dots only)' } },
    { name: 'a space', raw: 'a b.allowed.test', expected: { ok: false, reason: 'the host name contains U+0020 (a space), which a host name may not (letters, digits, hyphens and dots only)' } },
    { name: 'a percent-encoded NUL', raw: '127.0.0.1%00.allowed.test', expected: { ok: false, reason: 'the host name contains "%", which a host name may not (letters, digits, hyphens and dots only)' } },
    { name: 'an underscore', raw: 'a_b.allowed.test', expected: { ok: false, reason: 'the host name contains "_", which a host name may not (letters, digits, hyphens and dots only)' } },
    { name: 'a user name', raw: 'user@x.allowed.test', expected: { ok: false, reason: 'the host name contains "@", which a host name may not (letters, digits, hyphens and dots only)' } },
    { name: 'a Cyrillic look-alike letter', raw: 'x.\u0430llowed.test', expected: { ok: false, reason: 'the host name contains U+0430 (a non-ASCII character; an internationalised name must be sent in its ASCII xn-- form), which a host name may not (letters, digits, hyphens and dots only)' } },
    { name: 'a full-width dot', raw: 'x\uff0eallowed.test', expected: { ok: false, reason: 'the host name contains U+FF0E (a non-ASCII character; an internationalised name must be sent in its ASCII xn-- form), which a host name may not (letters, digits, hyphens and dots only)' } },
    { name: 'an ideographic full stop', raw: 'x\u3002allowed.test', expected: { ok: false, reason: 'the host name contains U+3002 (a non-ASCII character; an internationalised name must be sent in its ASCII xn-- form), which a host name may not (letters, digits, hyphens and dots only)' } },
    { name: 'the Kelvin sign, which lower-cases to k', raw: '\u212a.allowed.test', expected: { ok: false, reason: 'the host name contains U+212A (a non-ASCII character; an internationalised name must be sent in its ASCII xn-- form), which a host name may not (letters, digits, hyphens and dots only)' } },
    { name: 'two trailing dots', raw: 'x.allowed.test..', expected: { ok: false, reason: 'the host name has an empty label (a leading dot or two dots in a row)' } },
    { name: 'two dots in a row', raw: 'x..allowed.test', expected: { ok: false, reason: 'the host name has an empty label (a leading dot or two dots in a row)' } },
    { name: 'a leading dot', raw: '.allowed.test', expected: { ok: false, reason: 'the host name has an empty label (a leading dot or two dots in a row)' } },
    { name: 'a 64-character label', raw: `${'a'.repeat(64)}.allowed.test`, expected: { ok: false, reason: 'the host name has a label of 64 characters (at most 63)' } },
    { name: 'a 254-character name', raw: `${'a.'.repeat(126)}ab`, expected: { ok: false, reason: 'the host name is longer than 253 characters' } },
    { name: 'a label that begins with a hyphen', raw: '-x.allowed.test', expected: { ok: false, reason: 'the host name has a label that begins or ends with a hyphen ("-x")' } },
    { name: 'an empty name', raw: '', expected: { ok: false, reason: 'the host name is empty' } },
    { name: 'only the root dot', raw: '.', expected: { ok: false, reason: 'the host name is empty' } },
    { name: 'IPv4 as one number', raw: '2130706433', expected: { ok: false, reason: '"2130706433" is an IP address in a non-standard spelling (write it as four decimal numbers, like 127.0.0.1)' } },
    { name: 'IPv4 in two parts', raw: '127.1', expected: { ok: false, reason: '"127.1" is an IP address in a non-standard spelling (write it as four decimal numbers, like 127.0.0.1)' } },
    { name: 'IPv4 in hex', raw: '0x7f.0.0.1', expected: { ok: false, reason: '"0x7f.0.0.1" is an IP address in a non-standard spelling (write it as four decimal numbers, like 127.0.0.1)' } },
    { name: 'a name whose last label is a number', raw: 'evil.0x7f', expected: { ok: false, reason: '"evil.0x7f" is an IP address in a non-standard spelling (write it as four decimal numbers, like 127.0.0.1)' } },
    { name: 'an IPv6 zone index', raw: '[fe80::1%25eth0]', expected: { ok: false, reason: '"[fe80::1%25eth0]" is not an IPv6 address in a standard form' } },
    { name: 'an IPv6 bracket left open', raw: '[::1', expected: { ok: false, reason: '"[::1" is not an IPv6 address in a standard form' } },
  ])('$name: $raw', ({ raw, expected }) => {
    expect(canonicalHost(raw)).toEqual(expected);
  });

  it.each(CONTROL.map((c) => ({ code: `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, raw: `x${c}y.allowed.test` })))('the control character $code anywhere in a name is refused', ({ raw }) => {
    expect(canonicalHost(raw).ok).toBe(false);
  });

  it.each([
    ['127.0.0.1\0.allowed.test', '127.0.0.1\\u{0}.allowed.test'],
    ['a\u001b[31mred', 'a\\u{1b}[31mred'],
    ['\u0430llowed.test', '\\u{430}llowed.test'],
  ])('a refused name is shown with its invisible characters escaped: %j reads %s', (raw, shown) => {
    expect(visibleHost(raw)).toBe(shown);
  });
});
