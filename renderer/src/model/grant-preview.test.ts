import { describe, expect, it } from 'vitest';
import type { GrantPattern } from '../../../common/domain';
import { editableToPattern, patternToEditable, previewCoverage, tokenize } from './grant-preview';

const argv = (...a: string[]): GrantPattern => ({ kind: 'argv', argv: a });

describe('the grant editor', () => {
  it.each([
    ['plain words', 'npm test', { ok: true, tokens: ['npm', 'test'] }],
    ['single quotes keep spaces', "git commit -m 'a b'", { ok: true, tokens: ['git', 'commit', '-m', 'a b'] }],
    ['double quotes and escapes', 'echo "a \\"b\\"" c\\ d', { ok: true, tokens: ['echo', 'a "b"', 'c d'] }],
    ['an unclosed quote is an error', "echo 'a", { ok: false, error: 'A quote is not closed.' }],
  ])('tokenizes %s', (_n, line, expected) => {
    expect(tokenize(line)).toEqual(expected);
  });

  it.each([
    ['an edited argv pattern', argv('npm', 'test'), 'npm run test', { ok: true, pattern: argv('npm', 'run', 'test') }],
    ['redirects the proposal named are kept', { kind: 'argv', argv: ['make'], redirects: ['build.log'] } as GrantPattern, 'make all', { ok: true, pattern: { kind: 'argv', argv: ['make', 'all'], redirects: ['build.log'] } }],
    ['an empty argv pattern is refused', argv('ls'), '  ', { ok: false, error: 'The command pattern needs at least one word.' }],
    ['a pattern that joins commands is refused', argv('ls'), 'ls ; rm -rf x', { ok: false, error: '";" joins commands; a grant covers one command (each part of a compound command needs its own).' }],
    ['a bare * program is refused', argv('ls'), '* foo', { ok: false, error: 'The first word must name the program; "*" would allow any command.' }],
    ['a path glob', { kind: 'path', glob: 'notes/a.md' } as GrantPattern, 'notes/*.md', { ok: true, pattern: { kind: 'path', glob: 'notes/*.md' } }],
    ['a glob for every file is refused', { kind: 'path', glob: 'a' } as GrantPattern, '**', { ok: false, error: '"**" would cover every file; choose a narrower glob.' }],
    ['a URL prefix without the host slash is refused', { kind: 'url', prefix: 'https://a.example/' } as GrantPattern, 'https://a.example', { ok: false, error: 'A URL prefix must include the scheme, the host and the slash after it (https://example.com/).' }],
  ])('parses %s', (_n, original, text, expected) => {
    expect(editableToPattern(original, text)).toEqual(expected);
  });

  it('shows an argv pattern as the words a person typed, quoting where needed', () => {
    expect(patternToEditable(argv('git', 'commit', '-m', 'a b'))).toEqual("git commit -m 'a b'");
  });

  it('previews what an argv grant covers and never covers (the issue example)', () => {
    expect(previewCoverage('run_command', argv('npm', 'test'))).toEqual({
      covers: ['npm test', 'npm test -- --watch (more arguments after these)'],
      never: ['npm test; rm -rf x (each joined command needs its own grant)', 'npm test > out.txt (a redirection the grant does not name)', 'npm test $(…) (a substitution)', 'anything destructive, or reading credentials (floors always ask)'],
    });
  });
});
