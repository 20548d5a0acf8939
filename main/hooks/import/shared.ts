// What the three formats share when they become Threshold's: command words as a grant, judged by the real
// classifier and the grant checks before it is offered; file patterns made absolute against the project;
// the agent's tool names as Threshold's.
import type { ArgvMatch, GrantPattern, ToolRule } from '../../../common/domain';
import { grantPatternProblem } from '../../gate/proposals';
import { classifyCommand } from '../../policy/classifier';
import type { PathContext } from '../../policy/paths';
import { nothing, refused, type ImportResult } from './types';

/**
 * Words of a command as a shell would split them (quotes, backslashes); null when it is not one plain
 * command. `operators: 'literal'` reads `;`, `|`, `>` and the like as ordinary characters (Codex splits its
 * examples with shlex, which does the same).
 */
export function shellWords(text: string, operators: 'refuse' | 'literal' = 'refuse'): string[] | null {
  const words: string[] = [];
  let word = '';
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) return null;
      word += text.slice(i + 1, end);
      started = true;
      i = end;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        if ((text[j] === '$' || text[j] === '`') && operators === 'refuse') return null;
        word += text[j];
      }
      if (j >= text.length) return null;
      started = true;
      i = j;
    } else if (ch === '\\') {
      if (i + 1 >= text.length) return null;
      word += text[++i];
      started = true;
    } else if (';&|<>()$`'.includes(ch) && operators === 'refuse') return null;
    else {
      word += ch;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

function quoteWord(w: string): string {
  return /^[\w@%+=:,./*-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/**
 * A grant for one command's words: exactly these words, or these words and any further arguments. What
 * the classifier finds destructive needs a person every time (a grant never lowers a floor), so it
 * becomes nothing; what Threshold's grant checks refuse is refused with their reason.
 */
export function commandGrant(words: string[], match: ArgvMatch, ctx: PathContext): ImportResult {
  if (!words.length || words[0] === '*' || words[0]!.includes('*')) return refused('the program itself is a wildcard, so the rule would allow any command');
  const pattern: GrantPattern = { kind: 'argv', argv: words, match };
  // The width judge (main/policy/grant-width.ts), as for every grant: never wider than it looks.
  const problem = grantPatternProblem('run_command', pattern, 'always', ctx);
  if (problem) return refused(problem);
  const c = classifyCommand(words.map(quoteWord).join(' '), { ctx, cwd: ctx.workspace });
  if (c.hardline || c.class === 'destructive') return nothing(`\`${words.join(' ')}\` is destructive: Threshold asks a person every time, and a grant never lowers that floor`);
  if (c.flags.includes('parse_error')) return refused(`\`${words.join(' ')}\` is not a command Threshold can read`);
  if (match === 'exact' && c.class === 'read') return nothing(`\`${words.join(' ')}\` only reads, and reads run unasked at every level`);
  return { become: 'grants', grants: [{ tool: 'run_command', pattern }] };
}

/** Several tools' grants in one result (a file pattern covers both write_file and edit_file). */
export function grantsFor(tools: string[], pattern: GrantPattern, ctx: PathContext): ImportResult {
  for (const tool of tools) {
    // The width judge, as in commandGrant.
    const problem = grantPatternProblem(tool, pattern, 'always', ctx);
    if (problem) return refused(problem);
  }
  return { become: 'grants', grants: tools.map((tool) => ({ tool, pattern })) };
}

export function rulesFor(tools: string[], value: ToolRule, note?: string): ImportResult {
  return { become: 'rules', rules: tools.map((tool) => ({ tool, value })), ...(note ? { note } : {}) };
}

/** The tools that write files, which one file-pattern permission covers in every agent. */
export const FILE_WRITE_TOOLS = ['write_file', 'edit_file'];
export const FILE_READ_TOOLS = ['read_file', 'list_dir', 'search_files'];

/** An absolute glob for a file pattern, or null for one that names no place (empty, or `**` alone at the root). */
export function anchorGlob(pattern: string, base: string, home: string): string | null {
  let p = pattern.trim();
  if (!p) return null;
  if (p.startsWith('//')) p = p.slice(1);
  else if (p === '~' || p.startsWith('~/')) p = home + p.slice(1);
  else if (p.startsWith('/')) p = base + p;
  else p = `${base}/${p.replace(/^\.\//, '')}`;
  p = p.replace(/\/+/g, '/');
  if (p === '/' || p === '/**' || p === '/*') return null;
  return p;
}

/** `mcp__server__tool` (Claude Code), `server__tool` (Gemini CLI's MCP names) → Threshold's name, or null. */
export function mcpToolName(name: string, prefixed: boolean): string | null {
  const m = prefixed ? /^mcp__(.+?)__(.+)$/.exec(name) : /^([^_].*?)__(.+)$/.exec(name);
  if (!m || !m[1] || !m[2] || m[2].includes('*')) return null;
  return `mcp.${m[1]}.${m[2]}`;
}
