// The grant editor's model: what a person chooses (exactly this command, this command then any further
// arguments, or a pattern they write in the language of common/grant-pattern.ts) turned into the one
// pattern that is stored, and the Save label that says exactly that. What a pattern covers is never
// guessed here: the server's preview (grant.preview) judges it with the gate's own policy.
import type { GrantDuration } from '../../../common/approvals';
import type { GrantPattern } from '../../../common/domain';
import { argvMatchOf, formatArgvPattern, parseCommandPattern, patternMeaning, tokenHasWildcard, tokenLiteral } from '../../../common/grant-pattern';

export const DURATION_WORDS: Record<GrantDuration, string> = {
  session: 'This session',
  '15m': '15 minutes',
  '1h': '1 hour',
  always: 'Until revoked',
};

/** The order durations are offered in, narrowest first. */
export const DURATION_ORDER: GrantDuration[] = ['session', '15m', '1h', 'always'];

/** How a command grant matches, as the editor offers it. */
export type CommandMode = 'exact' | 'prefix' | 'pattern';

export const MODE_WORDS: Record<CommandMode, string> = {
  exact: 'Exactly this command',
  prefix: 'This command, then any further arguments',
  pattern: 'A pattern',
};

/** The choices for a proposal: a compound command (kind "command") can only be granted exactly, or by a pattern for one command. */
export function commandModes(initial: GrantPattern): CommandMode[] {
  return initial.kind === 'argv' ? ['exact', 'prefix', 'pattern'] : ['exact', 'pattern'];
}

/** The choice an editor opens on: exactly the command, unless the grant being edited already is wider. */
export function initialMode(initial: GrantPattern): CommandMode {
  if (initial.kind !== 'argv') return 'exact';
  if (initial.argv.some(tokenHasWildcard)) return 'pattern';
  return argvMatchOf(initial) === 'prefix' ? 'prefix' : 'exact';
}

/**
 * The text the pattern field starts with: for a single command, its words up to the first option and a
 * last `*` (`git log --oneline -5` → `git log *`), never the bare program when a word follows it.
 */
export function initialPatternText(initial: GrantPattern): string {
  if (initial.kind !== 'argv') return '';
  if (initial.argv.some(tokenHasWildcard)) return formatArgvPattern(initial.argv, argvMatchOf(initial));
  const cut = initial.argv.findIndex((t, i) => i > 0 && (tokenLiteral(t) ?? '').startsWith('-'));
  const words = cut === -1 ? initial.argv : cut === 1 ? initial.argv.slice(0, 1) : initial.argv.slice(0, cut);
  return formatArgvPattern(words, 'prefix');
}

export type PatternResult = { ok: true; pattern: GrantPattern } | { ok: false; error: string };

/** The one pattern a command grant stores for a choice. */
export function commandPattern(initial: GrantPattern, mode: CommandMode, text: string): PatternResult {
  const redirects = initial.kind === 'argv' && initial.redirects?.length ? { redirects: initial.redirects } : {};
  if (mode === 'exact') return { ok: true, pattern: initial.kind === 'argv' ? { ...initial, match: argvMatchOf(initial) } : initial };
  if (mode === 'prefix') {
    if (initial.kind !== 'argv') return { ok: false, error: 'A compound command can only be granted exactly.' };
    return { ok: true, pattern: { kind: 'argv', argv: initial.argv, match: 'prefix', ...redirects } };
  }
  const parsed = parseCommandPattern(text);
  if (!parsed.ok) return parsed;
  return { ok: true, pattern: { kind: 'argv', argv: parsed.argv, match: parsed.match, ...redirects } };
}

/** The text a person edits for a path or URL pattern. */
export function patternToEditable(p: GrantPattern): string {
  switch (p.kind) {
    case 'argv':
      return formatArgvPattern(p.argv, argvMatchOf(p));
    case 'command':
      return p.command;
    case 'path':
      return p.glob;
    case 'url':
      return p.prefix;
    case 'tool':
      return '';
  }
}

/** An edited path or URL back to a pattern of the same kind, or a sentence saying what is wrong (the server judges the width). */
export function editableToPattern(original: GrantPattern, text: string): PatternResult {
  switch (original.kind) {
    case 'path': {
      const glob = text.trim();
      if (!glob) return { ok: false, error: 'The path pattern needs a glob.' };
      return { ok: true, pattern: { kind: 'path', glob } };
    }
    case 'url': {
      const prefix = text.trim();
      if (!/^https?:\/\/[^/]+\//.test(prefix)) return { ok: false, error: 'A URL prefix must include the scheme, the host and the slash after it (https://example.com/).' };
      return { ok: true, pattern: { kind: 'url', prefix } };
    }
    default:
      return { ok: true, pattern: original };
  }
}

/** The Save button's words: exactly what will be stored, and for how long. */
export function saveLabel(verb: string, tool: string, pattern: GrantPattern | null, duration: GrantDuration): string {
  return `${verb} ${pattern ? patternMeaning(tool, pattern) : '…'} (${DURATION_WORDS[duration].toLowerCase()})`;
}
