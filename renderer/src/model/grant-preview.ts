// The grant editor's model: the proposed pattern as editable text, parsed back to a pattern, and a
// preview of what a pattern covers and what it never covers (from the gate's matching rules:
// every segment must be covered, no substitution, no unnamed redirection, never a floor).
import type { GrantDuration } from '../../../common/approvals';
import type { GrantPattern } from '../../../common/domain';
import { quoteToken } from './describe';

export const DURATION_WORDS: Record<GrantDuration, string> = {
  session: 'This session',
  '15m': '15 minutes',
  '1h': '1 hour',
  always: 'Until revoked',
};

/** The order durations are offered in, narrowest first. */
export const DURATION_ORDER: GrantDuration[] = ['session', '15m', '1h', 'always'];

/** The text a person edits for one pattern. */
export function patternToEditable(p: GrantPattern): string {
  switch (p.kind) {
    case 'argv':
      return p.argv.map(quoteToken).join(' ');
    case 'path':
      return p.glob;
    case 'url':
      return p.prefix;
    case 'tool':
      return '';
  }
}

/** Splits an edited argv line into tokens (single and double quotes group; backslash escapes). */
export function tokenize(line: string): { ok: true; tokens: string[] } | { ok: false; error: string } {
  const tokens: string[] = [];
  let cur = '';
  let has = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      has = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(ch)) {
      if (has) tokens.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (quote) return { ok: false, error: 'A quote is not closed.' };
  if (has) tokens.push(cur);
  return { ok: true, tokens };
}

const SHELL_SYNTAX = /[;&|<>`$()]/;

/** The edited text back to a pattern of the same kind, or a sentence saying what is wrong. */
export function editableToPattern(original: GrantPattern, text: string): { ok: true; pattern: GrantPattern } | { ok: false; error: string } {
  switch (original.kind) {
    case 'argv': {
      const t = tokenize(text);
      if (!t.ok) return t;
      if (t.tokens.length === 0 || t.tokens.some((x) => x === '')) return { ok: false, error: 'The command pattern needs at least one word.' };
      const bad = t.tokens.find((x) => SHELL_SYNTAX.test(x) && !/^['"]/.test(x));
      if (bad !== undefined && /^[;&|<>]+$/.test(bad)) return { ok: false, error: `"${bad}" joins commands; a grant covers one command (each part of a compound command needs its own).` };
      if (t.tokens[0] === '*') return { ok: false, error: 'The first word must name the program; "*" would allow any command.' };
      return { ok: true, pattern: original.redirects ? { kind: 'argv', argv: t.tokens, redirects: original.redirects } : { kind: 'argv', argv: t.tokens } };
    }
    case 'path': {
      const glob = text.trim();
      if (!glob) return { ok: false, error: 'The path pattern needs a glob.' };
      if (['**', '/**', '/', '~/**', '~'].includes(glob)) return { ok: false, error: `"${glob}" would cover every file; choose a narrower glob.` };
      return { ok: true, pattern: { kind: 'path', glob } };
    }
    case 'url': {
      const prefix = text.trim();
      if (!/^https?:\/\/[^/]+\//.test(prefix)) return { ok: false, error: 'A URL prefix must include the scheme, the host and the slash after it (https://example.com/).' };
      return { ok: true, pattern: { kind: 'url', prefix } };
    }
    case 'tool':
      return { ok: true, pattern: original };
  }
}

export interface CoveragePreview {
  covers: string[];
  never: string[];
}

/** Examples of what a pattern covers and never covers, from the gate's matching rules. */
export function previewCoverage(tool: string, p: GrantPattern): CoveragePreview {
  switch (p.kind) {
    case 'argv': {
      const base = p.argv.map(quoteToken).join(' ');
      const wild = p.argv.some((t) => t.includes('*') || t.includes('?'));
      return {
        covers: [base, `${base} -- --watch (more arguments after these)`, ...(wild ? ['any word where the pattern has * or ?'] : []), ...(p.redirects?.length ? [`${base} > ${p.redirects[0]}`] : [])],
        never: [`${base}; rm -rf x (each joined command needs its own grant)`, `${base} > out.txt (a redirection the grant does not name)`, `${base} $(…) (a substitution)`, 'anything destructive, or reading credentials (floors always ask)'],
      };
    }
    case 'path':
      return {
        covers: [`${tool} on paths matching ${p.glob} (** crosses folders, * stays in one)`],
        never: ['the same path through a link to somewhere else (the real path is checked)', 'credential locations such as ~/.ssh (floors always ask)', `other tools than ${tool}`],
      };
    case 'url':
      return { covers: [`${tool} of URLs starting with ${p.prefix}`], never: ['other hosts, or the same host over a different scheme', `other tools than ${tool}`] };
    case 'tool':
      return { covers: [`every call of ${tool}`], never: ['other tools', 'anything a floor covers'] };
  }
}
