import { describe, expect, it } from 'vitest';
import type { GrantPattern } from '../../../common/domain';
import { commandModes, commandPattern, editableToPattern, initialMode, initialPatternText, saveLabel } from './grant-preview';

const exact = (...argv: string[]): GrantPattern => ({ kind: 'argv', argv, match: 'exact' });
const compound: GrantPattern = { kind: 'command', command: 'mkdir -p build && touch build/a.txt && ls build' };

describe('the grant editor: a choice becomes the one pattern stored', () => {
  it.each([
    { name: 'a simple command opens on exactly this command, with prefix and pattern offered', initial: exact('git', 'log', '--oneline'), modes: ['exact', 'prefix', 'pattern'], mode: 'exact' },
    { name: 'a compound command opens on exactly this command, and offers no prefix', initial: compound, modes: ['exact', 'pattern'], mode: 'exact' },
    { name: 'a stored prefix opens as a prefix', initial: { kind: 'argv', argv: ['npm', 'test'], match: 'prefix' } as GrantPattern, modes: ['exact', 'prefix', 'pattern'], mode: 'prefix' },
    { name: 'a stored wildcard opens as a pattern', initial: exact('pytest', 'tests/*.py'), modes: ['exact', 'prefix', 'pattern'], mode: 'pattern' },
  ])('$name', ({ initial, modes, mode }) => {
    expect({ modes: commandModes(initial), mode: initialMode(initial) }).toEqual({ modes, mode });
  });

  it.each([
    ['cut at the first option', exact('git', 'log', '--oneline', '-5'), 'git log *'],
    ['the whole command when it has no option', exact('touch', 'grant-e2e.txt'), 'touch grant-e2e.txt *'],
    ['the program when an option follows it at once', exact('ls', '-la', 'src'), 'ls *'],
    ['nothing for a compound command (the person writes it)', compound, ''],
  ])('the pattern field starts with %s', (_n, initial, text) => {
    expect(initialPatternText(initial)).toEqual(text);
  });

  it.each([
    { name: 'exactly: the proposal, match made explicit', initial: { kind: 'argv', argv: ['make'], redirects: ['build.log'] } as GrantPattern, mode: 'exact' as const, text: '', want: { ok: true, pattern: { kind: 'argv', argv: ['make'], redirects: ['build.log'], match: 'exact' } } },
    { name: 'exactly a compound command: one command grant', initial: compound, mode: 'exact' as const, text: '', want: { ok: true, pattern: compound } },
    { name: 'a prefix keeps the redirections of the call', initial: { kind: 'argv', argv: ['make'], redirects: ['build.log'], match: 'exact' } as GrantPattern, mode: 'prefix' as const, text: '', want: { ok: true, pattern: { kind: 'argv', argv: ['make'], match: 'prefix', redirects: ['build.log'] } } },
    { name: 'a written pattern', initial: exact('git', 'log', '-5'), mode: 'pattern' as const, text: 'git log *', want: { ok: true, pattern: { kind: 'argv', argv: ['git', 'log'], match: 'prefix' } } },
    { name: 'a written pattern that joins commands is refused', initial: compound, mode: 'pattern' as const, text: 'mkdir -p build && ls', want: { ok: false, error: '"&" joins commands, and a pattern covers one command. For a compound command choose "Exactly this command".' } },
    { name: 'no prefix for a compound command', initial: compound, mode: 'prefix' as const, text: '', want: { ok: false, error: 'A compound command can only be granted exactly.' } },
  ])('$name', ({ initial, mode, text, want }) => {
    expect(commandPattern(initial, mode, text)).toEqual(want);
  });

  it.each([
    ['a path glob', { kind: 'path', glob: 'notes/a.md' } as GrantPattern, 'notes/*.md', { ok: true, pattern: { kind: 'path', glob: 'notes/*.md' } }],
    ['an empty glob is refused', { kind: 'path', glob: 'a' } as GrantPattern, '  ', { ok: false, error: 'The path pattern needs a glob.' }],
    ['a URL prefix without the host slash is refused', { kind: 'url', prefix: 'https://a.example/' } as GrantPattern, 'https://a.example', { ok: false, error: 'A URL prefix must include the scheme, the host and the slash after it (https://example.com/).' }],
  ])('parses %s', (_n, original, text, expected) => {
    expect(editableToPattern(original, text)).toEqual(expected);
  });

  it.each([
    ['Allow', 'run_command', exact('touch', 'grant-e2e.txt'), 'always' as const, 'Allow exactly touch grant-e2e.txt (until revoked)'],
    ['Allow', 'run_command', { kind: 'argv', argv: ['npm', 'test'], match: 'prefix' } as GrantPattern, '1h' as const, 'Allow npm test followed by any arguments (1 hour)'],
    ['Allow', 'run_command', compound, 'session' as const, 'Allow exactly mkdir -p build && touch build/a.txt && ls build (this session)'],
    ['Save grant:', 'write_file', { kind: 'path', glob: 'docs/**' } as GrantPattern, '15m' as const, 'Save grant: write_file on docs/** (15 minutes)'],
  ])('the Save button says exactly what is stored: %s %s', (verb, tool, p, d, want) => {
    expect(saveLabel(verb, tool, p, d)).toEqual(want);
  });
});
