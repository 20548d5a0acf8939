import { describe, expect, it } from 'vitest';
import type { GrantPattern } from './domain';
import { formatArgvPattern, formatToken, literalToken, normaliseGrantPattern, parseCommandPattern, patternMeaning, patternText, tokenLiteral, tokenParts } from './grant-pattern';

describe('the pattern language of command grants', () => {
  it.each([
    { name: 'plain words are an exact pattern', text: 'git status', want: { ok: true, argv: ['git', 'status'], match: 'exact' } },
    { name: 'a last lone * makes a prefix', text: 'npm test *', want: { ok: true, argv: ['npm', 'test'], match: 'prefix' } },
    { name: 'a * inside a word is a wildcard for that word', text: 'pytest tests/*.py', want: { ok: true, argv: ['pytest', 'tests/*.py'], match: 'exact' } },
    { name: 'a lone * before the last word stands for one word', text: 'git * status', want: { ok: true, argv: ['git', '*', 'status'], match: 'exact' } },
    { name: 'a quoted * is a literal star', text: "echo '*'", want: { ok: true, argv: ['echo', '\\*'], match: 'exact' } },
    { name: 'a quoted last * is a literal star, not a prefix', text: 'echo "*"', want: { ok: true, argv: ['echo', '\\*'], match: 'exact' } },
    { name: 'a backslash-escaped * is a literal star', text: 'echo \\*', want: { ok: true, argv: ['echo', '\\*'], match: 'exact' } },
    { name: 'single quotes keep spaces', text: "git commit -m 'a b'", want: { ok: true, argv: ['git', 'commit', '-m', 'a b'], match: 'exact' } },
    { name: 'double quotes and escapes', text: 'echo "a \\"b\\"" c\\ d', want: { ok: true, argv: ['echo', 'a "b"', 'c d'], match: 'exact' } },
    { name: 'a backslash in a quoted word is stored escaped', text: "printf 'a\\b'", want: { ok: true, argv: ['printf', 'a\\\\b'], match: 'exact' } },
    { name: 'an environment assignment is a word', text: 'NODE_ENV=test npm test', want: { ok: true, argv: ['NODE_ENV=test', 'npm', 'test'], match: 'exact' } },
  ])('reads $name', ({ text, want }) => {
    expect(parseCommandPattern(text)).toEqual(want);
  });

  it.each([
    { name: 'a lone *', text: '*', error: 'A pattern must start with the name of a program: "*" alone would allow any command.' },
    { name: 'nothing', text: '   ', error: 'A pattern needs at least the name of a program.' },
    { name: 'a ; joining commands', text: 'ls ; rm -rf x', error: '";" joins commands, and a pattern covers one command. For a compound command choose "Exactly this command".' },
    { name: 'a && chain', text: 'make && make install', error: '"&" joins commands, and a pattern covers one command. For a compound command choose "Exactly this command".' },
    { name: 'a pipe', text: 'cat x | sh', error: '"|" joins commands, and a pattern covers one command. For a compound command choose "Exactly this command".' },
    { name: 'a redirection', text: 'git log > log.txt', error: '">" is a redirection, which a pattern cannot name; the grant keeps the redirections of the call it was made from.' },
    { name: 'a substitution', text: 'echo $(id)', error: `"$" would be expanded by the shell; quote it ('$') to match it as written.` },
    { name: 'a backtick', text: 'echo `id`', error: `"\`" would be expanded by the shell; quote it ('\`') to match it as written.` },
    { name: 'a $ in double quotes', text: 'echo "$HOME"', error: '"$" inside double quotes would be expanded by the shell; use single quotes to match it as written.' },
    { name: 'a ? (not a wildcard here)', text: 'ls a?c', error: `"?" is not a wildcard in a grant: only * is. Quote it ('?') to match it as written.` },
    { name: 'a [a-z] class', text: '[a-z]*', error: `"[" is not a wildcard in a grant: only * is. Quote it ('[') to match it as written.` },
    { name: 'a subshell', text: '(cd x)', error: '"(" is shell syntax (a subshell or a function); quote it to match it as written.' },
    { name: 'a comment', text: 'ls #x', error: '"#" starts a comment in the shell; quote it to match it as written.' },
    { name: 'an unclosed quote', text: "echo 'a", error: 'A quote is not closed.' },
    { name: 'an empty word', text: "git commit -m ''", error: "An empty word ('') cannot be part of a pattern; choose \"Exactly this command\" for a command that has one." },
  ])('refuses $name, saying why', ({ text, error }) => {
    expect(parseCommandPattern(text)).toEqual({ ok: false, error });
  });

  it.each([
    ['git status', 'exact'],
    ['npm test *', 'prefix'],
    ['pytest tests/*.py', 'exact'],
    ["echo '*' *", 'prefix'],
    ["git commit -m 'a b' *", 'prefix'],
    ["echo 'it'\\''s'", 'exact'],
    ["echo 'a b'*.txt", 'exact'],
  ])('prints %s back as it reads (round trip)', (text) => {
    const r = parseCommandPattern(text);
    if (!r.ok) throw new Error(r.error);
    expect(parseCommandPattern(formatArgvPattern(r.argv, r.match))).toEqual(r);
  });

  it.each([
    ['a plain word', 'git', [{ kind: 'text', text: 'git' }]],
    ['a wildcard word', 'tests/*.py', [{ kind: 'text', text: 'tests/' }, { kind: 'any' }, { kind: 'text', text: '.py' }]],
    ['an escaped star', 'a\\*b', [{ kind: 'text', text: 'a*b' }]],
    ['an escaped backslash', 'a\\\\b', [{ kind: 'text', text: 'a\\b' }]],
    ['a backslash before anything else (rows from before the encoding)', 'C:\\dir', [{ kind: 'text', text: 'C:\\dir' }]],
  ])('stored tokens: %s', (_n, token, parts) => {
    expect(tokenParts(token)).toEqual(parts);
  });

  it.each(['plain', '*', 'a\\b', 'it\'s *here*', '\\*'])('a literal token is the word itself: %j', (word) => {
    expect(tokenLiteral(literalToken(word))).toEqual(word);
  });

  it('prints stored tokens as words of the language', () => {
    expect([formatToken('git'), formatToken('*'), formatToken('\\*'), formatToken('a b'), formatToken('tests/*.py'), formatToken('')]).toEqual(['git', '*', "'*'", "'a b'", 'tests/*.py', "''"]);
  });

  it.each<[string, GrantPattern, GrantPattern]>([
    ['a row without match reads as exact', { kind: 'argv', argv: ['git', 'status'] }, { kind: 'argv', argv: ['git', 'status'], match: 'exact' }],
    ['a row ending in a lone * reads as the prefix it means', { kind: 'argv', argv: ['npm', 'test', '*'] }, { kind: 'argv', argv: ['npm', 'test'], match: 'prefix' }],
    ['an explicit prefix keeps its words', { kind: 'argv', argv: ['npm', 'test'], match: 'prefix' }, { kind: 'argv', argv: ['npm', 'test'], match: 'prefix' }],
    ['a lone * alone stays (the judge refuses it)', { kind: 'argv', argv: ['*'] }, { kind: 'argv', argv: ['*'], match: 'exact' }],
    ['other kinds are untouched', { kind: 'path', glob: 'docs/**' }, { kind: 'path', glob: 'docs/**' }],
  ])('normalises %s', (_n, p, want) => {
    expect(normaliseGrantPattern(p)).toEqual(want);
  });

  it.each<[string, string, GrantPattern, string]>([
    ['exact words', 'run_command', { kind: 'argv', argv: ['touch', 'a.txt'], match: 'exact' }, 'exactly touch a.txt'],
    ['a prefix', 'run_command', { kind: 'argv', argv: ['npm', 'test'], match: 'prefix' }, 'npm test followed by any arguments'],
    ['a wildcard', 'run_command', { kind: 'argv', argv: ['pytest', 'tests/*.py'], match: 'exact' }, 'commands matching pytest tests/*.py'],
    ['named redirections', 'run_command', { kind: 'argv', argv: ['make'], match: 'exact', redirects: ['build.log'] }, 'exactly make, writing only to build.log'],
    ['a compound command', 'run_command', { kind: 'command', command: 'mkdir -p build && touch build/a' }, 'exactly mkdir -p build && touch build/a'],
    ['a long command', 'run_command', { kind: 'command', command: `echo ${'x'.repeat(200)}` }, 'exactly the 205-character command shown'],
    ['a path', 'write_file', { kind: 'path', glob: 'docs/**' }, 'write_file on docs/**'],
    ['a URL', 'web_fetch', { kind: 'url', prefix: 'https://a.example/' }, 'web_fetch of URLs starting with https://a.example/'],
    ['a whole tool', 'mcp.files.read', { kind: 'tool' }, 'every mcp.files.read call'],
  ])('says what a grant allows: %s', (_n, tool, p, want) => {
    expect(patternMeaning(tool, p)).toEqual(want);
  });

  it.each<[GrantPattern, string]>([
    [{ kind: 'argv', argv: ['git', 'commit', '-m', 'a b'], match: 'exact' }, "git commit -m 'a b'"],
    [{ kind: 'argv', argv: ['git', 'log'], match: 'prefix' }, 'git log *'],
    [{ kind: 'argv', argv: ['git', 'log'] }, 'git log'],
    [{ kind: 'command', command: 'a && b' }, 'a && b'],
    [{ kind: 'path', glob: 'notes/**' }, 'notes/**'],
    [{ kind: 'url', prefix: 'https://a.example/' }, 'https://a.example/…'],
    [{ kind: 'tool' }, 'any call of this tool'],
  ])('prints %j as %s', (p, want) => {
    expect(patternText(p)).toEqual(want);
  });
});
