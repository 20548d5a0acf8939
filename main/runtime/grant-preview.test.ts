import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_PATHS } from '../../test/support/policy';
import { initClassifier } from '../policy/classifier';
import { previewGrant } from './grant-preview';

beforeAll(() => initClassifier());
const NOW = 1_000_000;
const summary = (xs: ReturnType<typeof previewGrant>) => xs.map((x) => [x.text, x.source, x.covered ? 'covered' : x.never ? 'never' : 'not covered']);

describe('the grant preview', () => {
  it("shows the call's own command, then what the pattern still covers and what it never covers", () => {
    const r = previewGrant({ tool: 'run_command', patterns: [{ kind: 'argv', argv: ['npm', 'test'] }], callText: 'npm test' }, TEST_PATHS, { now: NOW });
    expect(summary(r)).toEqual([
      ['npm test', 'call', 'covered'],
      ['npm test -- --watch', 'sample', 'covered'],
      ['npm test; rm -rf x', 'sample', 'not covered'],
      ['npm test && curl https://example.com/', 'sample', 'not covered'],
      ['npm test > out.txt', 'sample', 'not covered'],
      ['npm test $(cat secret.txt)', 'sample', 'never'],
    ]);
  });

  it.each([
    { name: 'a compound command whose second part the grant does not name', text: 'npm test; rm -rf x', never: false, reason: 'Not covered: "rm -rf x": no grant matches it; it would ask.' },
    { name: 'a substitution', text: 'npm test $(cat secret.txt)', never: true, reason: 'Never covered by any grant: "npm test $(cat secret.txt)" it contains a substitution.' },
    { name: 'a redirection the grant does not name', text: 'npm test > out.txt', never: false, reason: 'Not covered: "npm test > out.txt": no grant matches it; it would ask.' },
  ])('says why $name is not covered', ({ text, never, reason }) => {
    const r = previewGrant({ tool: 'run_command', patterns: [{ kind: 'argv', argv: ['npm', 'test'] }] }, TEST_PATHS, { now: NOW });
    expect(r.find((x) => x.text === text)).toEqual({ text, source: 'sample', covered: false, never, reason });
  });

  it.each([
    { name: 'a given command the prefix covers', sample: 'npm test --coverage', expected: 'covered' },
    { name: 'a given command with another program', sample: 'npx jest', expected: 'not covered' },
    { name: 'a given command that names the prefix as an argument only', sample: 'echo npm test', expected: 'not covered' },
  ])('judges $name: $expected', ({ sample, expected }) => {
    const r = previewGrant({ tool: 'run_command', patterns: [{ kind: 'argv', argv: ['npm', 'test'] }], samples: [sample] }, TEST_PATHS, { now: NOW });
    expect(summary(r.filter((x) => x.source === 'given'))).toEqual([[sample, 'given', expected]]);
  });

  it('judges path globs by the files they cover', () => {
    const r = previewGrant({ tool: 'write_file', patterns: [{ kind: 'path', glob: 'src/**' }] }, TEST_PATHS, { now: NOW });
    expect(summary(r)).toEqual([
      ['src/sub/', 'sample', 'covered'],
      ['/home/user/.ssh/id_ed25519', 'sample', 'not covered'],
      ['../outside.txt', 'sample', 'not covered'],
    ]);
  });

  it('judges URL prefixes by the addresses they cover', () => {
    const r = previewGrant({ tool: 'web_fetch', patterns: [{ kind: 'url', prefix: 'https://docs.example.com/' }] }, TEST_PATHS, { now: NOW });
    expect(summary(r)).toEqual([
      ['https://docs.example.com/page', 'sample', 'covered'],
      ['https://example.org/elsewhere', 'sample', 'not covered'],
    ]);
  });
});
