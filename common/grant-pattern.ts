// The pattern language of command grants, in one place for every surface (the editor parses it, the
// Grants page, ctl and the explanations print it, the matcher in main/policy/grants.ts reads its tokens).
// docs/approvals.md ("The pattern language") is the user's description of it.
//
// A pattern is the words of one command, written as in a shell:
//   git status          exactly these words, nothing more
//   git log *           these words, then any further arguments (a last word that is a lone `*`)
//   pytest tests/*.py   a `*` inside a word stands for any characters within that one word
//   echo '*'            quoted, a `*` is itself
// `?`, `[…]`, `$`, `` ` ``, redirections and `;` `&` `|` are not part of it: a pattern never means more
// than the words it shows. A compound command is granted only as exactly that command line
// ({kind: 'command'}).
//
// Stored form: each argv token is one word where `*` is the wildcard, `\*` a literal star and `\\` a
// literal backslash (a backslash before anything else is itself, so rows written before this encoding
// read as they did).
import type { ArgvMatch, GrantPattern } from './domain';

export type TokenPart = { kind: 'text'; text: string } | { kind: 'any' };

/** A stored token as literal runs and wildcards. */
export function tokenParts(token: string): TokenPart[] {
  const parts: TokenPart[] = [];
  let buf = '';
  for (let i = 0; i < token.length; i++) {
    const ch = token[i]!;
    if (ch === '\\' && (token[i + 1] === '*' || token[i + 1] === '\\')) {
      buf += token[++i];
    } else if (ch === '*') {
      if (buf) parts.push({ kind: 'text', text: buf });
      buf = '';
      if (parts[parts.length - 1]?.kind !== 'any') parts.push({ kind: 'any' });
    } else buf += ch;
  }
  if (buf) parts.push({ kind: 'text', text: buf });
  return parts;
}

export function tokenHasWildcard(token: string): boolean {
  return tokenParts(token).some((p) => p.kind === 'any');
}

/** The token that matches exactly this word (its stars and backslashes escaped). */
export function literalToken(word: string): string {
  return word.replace(/[\\*]/g, (c) => `\\${c}`);
}

/** The word a token stands for when it has no wildcard; null when it has one. */
export function tokenLiteral(token: string): string | null {
  const parts = tokenParts(token);
  if (parts.some((p) => p.kind === 'any')) return null;
  return parts.map((p) => (p as { text: string }).text).join('');
}

/** Whether a token is the lone wildcard `*` (any one word). */
export function isLoneWildcard(token: string): boolean {
  const parts = tokenParts(token);
  return parts.length === 1 && parts[0]!.kind === 'any';
}

/** `NAME=value` before the program: an environment assignment, part of what runs. */
export function isAssignmentWord(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

/**
 * How an argv pattern matches. Without `match` (rows and config entries from before it existed): exactly,
 * as they were shown (`git status`, never `git status *`); a last word `*` made them a prefix (normalise).
 */
export function argvMatchOf(p: { match?: ArgvMatch }): ArgvMatch {
  return p.match ?? 'exact';
}

const SAFE_WORD = /^[\w@%+=:,./~^{}\]-]+$/;

function quoteText(t: string): string {
  return SAFE_WORD.test(t) && !t.startsWith('#') ? t : `'${t.replace(/'/g, `'\\''`)}'`;
}

/** A token as a word of the pattern language: literal runs quoted where needed, wildcards bare. */
export function formatToken(token: string): string {
  const out = tokenParts(token)
    .map((p) => (p.kind === 'any' ? '*' : quoteText(p.text)))
    .join('');
  return out || "''";
}

/** An argv pattern as the text a person reads and edits: `git log *` for a prefix. */
export function formatArgvPattern(argv: readonly string[], match: ArgvMatch): string {
  return argv.map(formatToken).join(' ') + (match === 'prefix' ? ' *' : '');
}

export type CommandPatternParse = { ok: true; argv: string[]; match: ArgvMatch } | { ok: false; error: string };

const JOINERS = new Set([';', '&', '|']);

/** Reads the text of a command pattern; an error names the character and what to do instead. */
export function parseCommandPattern(text: string): CommandPatternParse {
  const words: { token: string; loneStar: boolean }[] = [];
  let token = '';
  let started = false;
  let loneStar = true;
  const fail = (error: string): CommandPatternParse => ({ ok: false, error });
  const end = () => {
    if (started) words.push({ token, loneStar: loneStar && token === '*' });
    token = '';
    started = false;
    loneStar = true;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      end();
      continue;
    }
    if (ch === "'") {
      const close = text.indexOf("'", i + 1);
      if (close === -1) return fail('A quote is not closed.');
      token += literalToken(text.slice(i + 1, close));
      started = true;
      loneStar = false;
      i = close;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      let lit = '';
      for (; j < text.length && text[j] !== '"'; j++) {
        const c = text[j]!;
        if (c === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1]!)) lit += text[++j];
        else if (c === '$' || c === '`') return fail(`"${c}" inside double quotes would be expanded by the shell; use single quotes to match it as written.`);
        else lit += c;
      }
      if (j >= text.length) return fail('A quote is not closed.');
      token += literalToken(lit);
      started = true;
      loneStar = false;
      i = j;
      continue;
    }
    if (ch === '\\') {
      if (i + 1 >= text.length) return fail('A backslash at the end escapes nothing.');
      token += literalToken(text[++i]!);
      started = true;
      loneStar = false;
      continue;
    }
    if (JOINERS.has(ch)) return fail(`"${ch}" joins commands, and a pattern covers one command. For a compound command choose "Exactly this command".`);
    if (ch === '<' || ch === '>') return fail(`"${ch}" is a redirection, which a pattern cannot name; the grant keeps the redirections of the call it was made from.`);
    if (ch === '(' || ch === ')') return fail(`"${ch}" is shell syntax (a subshell or a function); quote it to match it as written.`);
    if (ch === '$' || ch === '`') return fail(`"${ch}" would be expanded by the shell; quote it ('${ch}') to match it as written.`);
    if (ch === '?' || ch === '[') return fail(`"${ch}" is not a wildcard in a grant: only * is. Quote it ('${ch}') to match it as written.`);
    if (ch === '#' && !started) return fail('"#" starts a comment in the shell; quote it to match it as written.');
    if (ch === '*') token += '*';
    else {
      token += literalToken(ch);
      loneStar = false;
    }
    started = true;
  }
  end();
  let match: ArgvMatch = 'exact';
  if (words.length && words[words.length - 1]!.loneStar) {
    words.pop();
    match = 'prefix';
  }
  if (words.length === 0) return fail(match === 'prefix' ? 'A pattern must start with the name of a program: "*" alone would allow any command.' : 'A pattern needs at least the name of a program.');
  if (words.some((w) => w.token === '')) return fail("An empty word ('') cannot be part of a pattern; choose \"Exactly this command\" for a command that has one.");
  return { ok: true, argv: words.map((w) => w.token), match };
}

/**
 * A command pattern as the matcher and the judge read it: `match` made explicit, and a trailing lone `*`
 * word (config files, the control API, rows typed as `npm test *`) read as the prefix it means.
 */
export function normaliseGrantPattern(p: GrantPattern): GrantPattern {
  if (p.kind !== 'argv') return p;
  if (p.argv.length >= 2 && p.match !== 'exact' && isLoneWildcard(p.argv[p.argv.length - 1]!)) return { ...p, argv: p.argv.slice(0, -1), match: 'prefix' };
  return p.match ? p : { ...p, match: argvMatchOf(p) };
}

const LABEL_MAX = 120;

function clipped(text: string): string {
  return text.length > LABEL_MAX ? `the ${text.length.toLocaleString('en-US')}-character command shown` : text;
}

/** A pattern in a few words, for tables and lists: `git log *`, `docs/**`. */
export function patternText(p: GrantPattern): string {
  switch (p.kind) {
    case 'argv':
      return formatArgvPattern(p.argv, argvMatchOf(p)) + (p.redirects?.length ? ` (may write to ${p.redirects.join(', ')})` : '');
    case 'command':
      return p.command;
    case 'path':
      return p.glob;
    case 'url':
      return `${p.prefix}…`;
    case 'tool':
      return 'any call of this tool';
  }
}

/** What a grant lets run, as a phrase that reads after "Allow": the Save button and the Grants page say this. */
export function patternMeaning(tool: string, p: GrantPattern): string {
  switch (p.kind) {
    case 'argv': {
      const match = argvMatchOf(p);
      const words = p.argv.map(formatToken).join(' ');
      const writes = p.redirects?.length ? `, writing only to ${p.redirects.join(', ')}` : '';
      if (p.argv.some(tokenHasWildcard)) return `commands matching ${clipped(formatArgvPattern(p.argv, match))}${writes}`;
      return (match === 'exact' ? `exactly ${clipped(words)}` : `${clipped(words)} followed by any arguments`) + writes;
    }
    case 'command':
      return `exactly ${clipped(p.command)}`;
    case 'path':
      return `${tool} on ${p.glob}`;
    case 'url':
      return `${tool} of URLs starting with ${p.prefix}`;
    case 'tool':
      return `every ${tool} call`;
  }
}
