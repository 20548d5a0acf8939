// Codex's `.rules` files (Starlark): `prefix_rule(pattern = [...], decision = "allow" | "prompt" |
// "forbidden", justification, match, not_match)` and `host_executable(...)`. Only literal calls are read (a
// small reader for Starlark's literals, not an interpreter). An allow becomes prefix grants (one per
// combination of alternatives); its match and not_match examples are checked against those grants with
// Threshold's own matcher: a not_match example a grant would cover refuses the rule (it would be wider).
import { coverCall } from '../../policy/grants';
import type { PathContext } from '../../policy/paths';
import { describeCall } from '../../policy/tools';
import { commandGrant, shellWords } from './shared';
import type { Grant } from '../../../common/domain';
import { nothing, refused, type ImportKind, type ImportPlan, type ImportResult } from './types';

type Value = string | number | boolean | null | Value[];
interface Call {
  name: string;
  args: Record<string, Value>;
  positional: Value[];
  line: number;
}

/** Reads the top-level calls of a Starlark file whose arguments are literals; anything else is an error naming its line. */
export function readStarlarkCalls(text: string): { calls: Call[]; problems: string[] } {
  const calls: Call[] = [];
  const problems: string[] = [];
  let i = 0;
  let line = 1;
  const peek = () => text[i];
  const skip = () => {
    for (;;) {
      const ch = text[i];
      if (ch === '\n') line++;
      if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') i++;
      else if (ch === '#') while (i < text.length && text[i] !== '\n') i++;
      else if (ch === '\\' && text[i + 1] === '\n') i += 2;
      else return;
    }
  };
  const fail = (msg: string): never => {
    throw new Error(`line ${line}: ${msg}`);
  };
  const ident = () => {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (!m) return fail(`expected a name at "${text.slice(i, i + 20)}"`);
    i += m[0].length;
    return m[0];
  };
  const str = (): string => {
    const q = text.startsWith('"""', i) ? '"""' : text.startsWith("'''", i) ? "'''" : text[i]!;
    i += q.length;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('a string is not closed');
      if (text.startsWith(q, i)) {
        i += q.length;
        return out;
      }
      const ch = text[i++]!;
      if (ch === '\n') {
        if (q.length === 1) fail('a string runs past the end of its line');
        line++;
      }
      if (ch === '\\') {
        const e = text[i++];
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e ?? '';
      } else out += ch;
    }
  };
  const value = (): Value => {
    skip();
    const ch = peek();
    if (ch === '"' || ch === "'") {
      let s = str();
      // Adjacent string literals join, as in Python.
      for (skip(); peek() === '"' || peek() === "'"; skip()) s += str();
      return s;
    }
    if (ch === '[' || ch === '(') {
      const close = ch === '[' ? ']' : ')';
      i++;
      const items: Value[] = [];
      for (;;) {
        skip();
        if (peek() === close) {
          i++;
          return items;
        }
        items.push(value());
        skip();
        if (peek() === ',') i++;
        else if (peek() !== close) fail(`expected "," or "${close}"`);
      }
    }
    const num = /^-?\d+/.exec(text.slice(i));
    if (num) {
      i += num[0].length;
      return Number(num[0]);
    }
    const name = ident();
    if (name === 'True' || name === 'False') return name === 'True';
    if (name === 'None') return null;
    return fail(`"${name}" is not a literal (only strings, lists, numbers, True, False and None are read)`);
  };
  while (true) {
    skip();
    if (i >= text.length) break;
    const start = line;
    try {
      const name = ident();
      skip();
      if (peek() !== '(') fail(`"${name}" is not a call (only calls like prefix_rule(...) are read)`);
      i++;
      const call: Call = { name, args: {}, positional: [], line: start };
      for (;;) {
        skip();
        if (peek() === ')') {
          i++;
          break;
        }
        const save = i;
        const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/.exec(text.slice(i));
        if (m) {
          i += m[0].length;
          call.args[m[1]!] = value();
        } else {
          i = save;
          call.positional.push(value());
        }
        skip();
        if (peek() === ',') i++;
        else if (peek() !== ')') fail('expected "," or ")"');
      }
      calls.push(call);
    } catch (err) {
      problems.push((err as Error).message);
      // Resynchronise at the next line that starts a name at column 0.
      const next = text.indexOf('\n', i);
      if (next === -1) break;
      line += text.slice(i, next).split('\n').length - 1;
      i = next;
    }
  }
  return { calls, problems };
}

const DECISIONS: Record<string, ImportKind> = { allow: 'allow', prompt: 'ask', forbidden: 'deny' };
/** More alternatives than this in one pattern is not read as grants (each combination is a grant). */
const MAX_COMBINATIONS = 16;

function combinations(pattern: Value[]): string[][] | null {
  let out: string[][] = [[]];
  for (const token of pattern) {
    const alts = typeof token === 'string' ? [token] : Array.isArray(token) && token.every((t) => typeof t === 'string') ? (token as string[]) : null;
    if (!alts?.length) return null;
    out = out.flatMap((prefix) => alts.map((a) => [...prefix, a]));
    if (out.length > MAX_COMBINATIONS) return null;
  }
  return out;
}

function exampleWords(v: Value): string[] | null {
  if (typeof v === 'string') return shellWords(v, 'literal');
  return Array.isArray(v) && v.every((t) => typeof t === 'string') ? (v as string[]) : null;
}

function quote(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** Whether Threshold's matcher lets these grants cover a command given as words. */
function covers(grants: Grant[], words: string[], ctx: PathContext): boolean {
  const d = describeCall('run_command', { command: words.map(quote).join(' ') }, { ctx, cwd: ctx.workspace });
  return d.ok && coverCall(d.facts, grants, ctx, { now: 0 }).covered;
}

function prefixRule(call: Call, ctx: PathContext): { kind: ImportKind; result: ImportResult } {
  const decision = call.args['decision'] ?? 'allow';
  const kind = typeof decision === 'string' ? DECISIONS[decision] : undefined;
  if (!kind) return { kind: 'deny', result: refused(`decision ${JSON.stringify(decision)} is not allow, prompt or forbidden`) };
  const pattern = call.args['pattern'];
  if (!Array.isArray(pattern) || !pattern.length) return { kind, result: refused('its pattern is not a list of words') };
  const justification = typeof call.args['justification'] === 'string' ? ` (its justification: ${call.args['justification']})` : '';
  if (kind !== 'allow') return { kind, result: refused(`Threshold has no rule that ${kind === 'deny' ? 'forbids' : 'asks for'} one command by its words: its rules name a whole tool or a kind of effect${justification}`) };
  const combos = combinations(pattern);
  if (!combos) return { kind, result: refused(`its pattern has more than ${MAX_COMBINATIONS} combinations of alternatives, or a token that is not a word`) };
  const grants: { tool: string; pattern: Grant['pattern'] }[] = [];
  const notes: string[] = [];
  for (const words of combos) {
    const r = commandGrant(words, 'prefix', ctx);
    if (r.become === 'refused') return { kind, result: refused(`\`${words.join(' ')}\`: ${r.why}`) };
    if (r.become === 'grants') grants.push(...r.grants);
    else if (r.become === 'nothing') notes.push(r.why);
  }
  if (!grants.length) return { kind, result: nothing(notes.join('; ')) };
  // The rule's own examples, judged by Threshold's matcher: a not_match it would cover means the grant is wider than the rule.
  const asGrants: Grant[] = grants.map((g, n) => ({ id: `import-${n}`, tool: g.tool, pattern: g.pattern, scope: 'always', provenance: { source: 'user' }, createdAt: 0 }));
  for (const ex of Array.isArray(call.args['not_match']) ? call.args['not_match'] : []) {
    const words = exampleWords(ex);
    if (words && covers(asGrants, words, ctx)) return { kind, result: refused(`its not_match example \`${words.join(' ')}\` would be covered: Threshold's grant would be wider than the rule`) };
  }
  const uncovered = (Array.isArray(call.args['match']) ? call.args['match'] : []).map(exampleWords).filter((w): w is string[] => !!w && !covers(asGrants, w, ctx));
  if (uncovered.length) notes.push(`its match example${uncovered.length > 1 ? 's' : ''} ${uncovered.map((w) => `\`${w.join(' ')}\``).join(', ')} still ask${uncovered.length > 1 ? '' : 's'} in Threshold (a redirection, a substitution or a floor a grant does not cover)`);
  return { kind, result: { become: 'grants', grants, ...(notes.length ? { note: notes.join('; ') } : {}) } };
}

/** Call with the classifier initialised (main/hooks/import/index.ts does). */
export function importCodex(text: string, file: string, project: string, ctx: PathContext): ImportPlan {
  const plan: ImportPlan = { agent: 'Codex', file, project, rules: [], notes: [] };
  const { calls, problems } = readStarlarkCalls(text);
  for (const p of problems) plan.notes.push(`not read: ${p}`);
  for (const call of calls) {
    const source = `${call.name}(…) at line ${call.line}`;
    if (call.name === 'prefix_rule') {
      const { kind, result } = prefixRule(call, ctx);
      const pattern = Array.isArray(call.args['pattern']) ? JSON.stringify(call.args['pattern']) : '?';
      plan.rules.push({ source: `prefix_rule(pattern = ${pattern}) at line ${call.line}`, kind, result });
    } else if (call.name === 'host_executable') {
      plan.notes.push(`${source} is not imported: Threshold judges a program by the command as written and its jail, not by which file on the host it resolves to.`);
    } else {
      plan.rules.push({ source, kind: 'deny', result: refused(`${call.name} is not a rule Threshold reads (prefix_rule, host_executable)`) });
    }
  }
  return plan;
}
