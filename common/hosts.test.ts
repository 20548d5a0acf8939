import { describe, expect, it } from 'vitest';
import { DEFAULT_ALLOW_HOSTS, hostAllowed, hostPatternProblem } from './hosts';

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
  ])('the pattern %s has the problem %j', (pattern, problem) => {
    expect(hostPatternProblem(pattern)).toBe(problem);
  });

  it('every default host is a valid pattern', () => {
    expect(DEFAULT_ALLOW_HOSTS.map(hostPatternProblem).filter(Boolean)).toEqual([]);
  });
});
