// Turns a word node of the bash tree into the value bash would use, undoing quotes and escapes so
// that r"m", \rm and $'\x72m' all read as rm. A word whose value depends on run-time state
// (variables, substitutions) is marked non-literal; $HOME is the one variable resolved statically.
import type { SyntaxNode as Node } from './syntax';

/** What a command sends to its standard output, for judging what a shell in a pipeline executes. */
export type Producer =
  | { kind: 'none' }
  | { kind: 'literal'; text: string }
  /** `withLocal`: local output is mixed in (`cat ~/.env; curl …` on one stream), which exfiltration counts. */
  | { kind: 'remote'; withLocal?: true }
  | { kind: 'decoded'; withLocal?: true }
  | { kind: 'unknown' };

/**
 * The two producers that carry nothing but their kind, shared (frozen: a producer is never changed once
 * made), so walking a command does not allocate one for every statement, stage and default.
 */
export const NO_OUTPUT: Producer = Object.freeze({ kind: 'none' });
export const UNKNOWN_OUTPUT: Producer = Object.freeze({ kind: 'unknown' });

export interface Word {
  /** The word as written. */
  source: string;
  /** The value after quote removal; non-literal parts keep their source text. */
  value: string;
  /** True when the value is fully known before the command runs. */
  literal: boolean;
  /** True when an unquoted glob character (* ? [) remains. */
  glob: boolean;
  /** $(...), `...`, <(...), >(...) nodes inside the word, to classify as commands of their own. */
  substitutions: Node[];
  /** Node types inside the word that the classifier does not know. */
  unknown: string[];
  /** For a value supplied at run time (xargs input): where it comes from. */
  origin?: Producer;
  /** Expansions inside that run code while they expand (${x@P}, ${!x}, a[$i]): one reason each. */
  risks?: string[];
}

export interface WordEnv {
  home: string;
}

const HOME_VARS = new Set(['HOME']);
const GLOB_CHAR = /[*?[]/;

/**
 * The substitutions and the unknown node types of a word that has none (most words): shared empty lists,
 * which addSubstitution and addUnknown replace with the word's own at its first entry. Not frozen, for
 * the reason NO_CHILDREN in syntax.ts gives; nothing else adds to a word's lists.
 */
const NO_SUBSTITUTIONS: Node[] = [];
const NO_UNKNOWN: string[] = [];

function addSubstitution(w: Pick<Word, 'substitutions'>, node: Node): void {
  if (w.substitutions === NO_SUBSTITUTIONS) w.substitutions = [node];
  else w.substitutions.push(node);
}

function addUnknown(w: Word, type: string): void {
  if (w.unknown === NO_UNKNOWN) w.unknown = [type];
  else w.unknown.push(type);
}

export function evaluateWord(node: Node, env: WordEnv): Word {
  const w: Word = { source: node.text, value: '', literal: true, glob: false, substitutions: NO_SUBSTITUTIONS, unknown: NO_UNKNOWN };
  appendNode(node, env, w, false);
  return w;
}

function appendNode(node: Node, env: WordEnv, w: Word, quoted: boolean): void {
  switch (node.type) {
    case 'word':
    case 'command_name':
    case 'extglob_pattern':
    case 'regex': {
      if (node.type === 'command_name') {
        for (const c of node.namedChildren) if (c) appendNode(c, env, w, quoted);
        return;
      }
      const text = node.text;
      // Escaped characters (\*) are not glob characters; only a word holding one needs the escapes removed.
      if (!quoted && GLOB_CHAR.test(text) && GLOB_CHAR.test(text.includes('\\') ? text.replace(/\\./g, '') : text)) w.glob = true;
      w.value += unescapeBare(text);
      return;
    }
    case 'number':
    case 'variable_name':
    case 'special_variable_name':
    case 'test_operator':
      w.value += node.text;
      return;
    case 'raw_string':
      w.value += node.text.slice(1, -1);
      return;
    case 'ansi_c_string':
      w.value += decodeAnsiC(node.text.slice(2, -1));
      return;
    case 'string':
    case 'translated_string': {
      const inner = node.type === 'translated_string' ? node.namedChildren : [node];
      for (const s of inner) {
        if (!s) continue;
        if (s.type !== 'string') {
          appendNode(s, env, w, true);
          continue;
        }
        for (const c of s.namedChildren) if (c) appendNode(c, env, w, true);
      }
      return;
    }
    case 'string_content':
      w.value += quoted ? unescapeDoubleQuoted(node.text) : node.text;
      return;
    case 'concatenation':
      for (const c of node.namedChildren) if (c) appendNode(c, env, w, quoted);
      // Unnamed children of a concatenation (e.g. a bare '$') are literal text.
      if (node.namedChildCount === 0) w.value += node.text;
      return;
    case 'simple_expansion':
    case 'expansion': {
      const name = node.namedChildren[0];
      const simple = node.type === 'simple_expansion' || (node.namedChildCount === 1 && name?.type === 'variable_name');
      if (simple && name && HOME_VARS.has(name.text)) {
        w.value += env.home;
        return;
      }
      w.literal = false;
      w.value += node.text;
      collectSubstitutions(node, w);
      addRisks(node, w);
      return;
    }
    case 'command_substitution':
    case 'process_substitution':
      w.literal = false;
      w.value += node.text;
      addSubstitution(w, node);
      return;
    case 'arithmetic_expansion':
      w.literal = false;
      w.value += node.text;
      collectSubstitutions(node, w);
      addRisks(node, w);
      return;
    case 'brace_expression':
      w.value += node.text;
      return;
    case 'array':
      w.literal = false;
      w.value += node.text;
      collectSubstitutions(node, w);
      return;
    default:
      w.literal = false;
      addUnknown(w, node.type);
      w.value += node.text;
  }
}

function addRisks(node: Node, w: Word): void {
  const risks = expansionRisks(node);
  if (risks.length) (w.risks ??= []).push(...risks);
}

/**
 * Expansions that run code while bash expands them, outside any command substitution: prompt
 * expansion ${x@P} (runs the $(...) in x's value), indirection ${!x} (x may name a[$(cmd)]) and array
 * subscripts that are not constants (a subscript is evaluated as arithmetic, and the value of a variable
 * in it can hold a[$(cmd)]). Iterative, so deep nesting cannot exhaust the stack.
 */
export function expansionRisks(root: Node): string[] {
  const out: string[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'command_substitution' || n.type === 'process_substitution') continue;
    if (n.type === 'expansion') {
      const kids = n.children;
      for (let i = 0; i + 1 < kids.length; i++) {
        if (kids[i]!.type === '@' && kids[i + 1]!.text === 'P') out.push(`the prompt expansion ${n.text} runs the command substitutions in the value`);
      }
      const last = kids[kids.length - 2];
      if (kids[1]?.type === '!' && kids[2]?.type === 'variable_name' && !(last && (last.type === '*' || last.type === '@'))) {
        out.push(`the indirect expansion ${n.text} expands a variable named at run time, which can hold an array subscript that runs code`);
      }
    } else if (n.type === 'subscript') {
      const open = n.children.findIndex((c) => c.type === '[');
      const inner = open === -1 ? [] : n.children.slice(open + 1, n.children.length - 1);
      const constant = inner.length === 1 && (inner[0]!.type === 'number' || /^([@*]|\d+)$/.test(inner[0]!.text));
      if (!constant) out.push(`the array subscript in ${n.text} is evaluated as arithmetic, which can run code`);
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

/** Finds substitutions nested anywhere below (inside ${x:-$(cmd)}, $(( a[$(cmd)] )), ...). */
export function collectSubstitutions(node: Node, w: Pick<Word, 'substitutions'>): void {
  const stack: Node[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === 'command_substitution' || c.type === 'process_substitution') addSubstitution(w, c);
      else if (c.namedChildCount > 0) stack.push(c);
    }
  }
}

function unescapeBare(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

function unescapeDoubleQuoted(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const n = body[++i]!;
    const simple: Record<string, string> = {
      n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
    };
    if (n in simple) out += simple[n];
    else if (n === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
      } else out += '\\x';
    } else if (n === 'u' || n === 'U') {
      const m = (n === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(body.slice(i + 1));
      if (m) {
        out += String.fromCodePoint(parseInt(m[0], 16));
        i += m[0].length;
      } else out += '\\' + n;
    } else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i));
      out += String.fromCharCode(parseInt(m![0], 8));
      i += m![0].length - 1;
    } else if (n === 'c') {
      const c = body[i + 1];
      if (c) {
        out += String.fromCharCode(c.charCodeAt(0) & 0x1f);
        i++;
      }
    } else out += '\\' + n;
  }
  return out;
}

/** Bash brace expansion on a literal value: {a,b} and {1..3}. Nested braces are expanded recursively. */
export function expandBraces(value: string, limit = 64): string[] {
  const open = findBraceOpen(value);
  if (open === -1) return [value];
  const close = matchingBrace(value, open);
  if (close === -1) return [value];
  const inner = value.slice(open + 1, close);
  const pre = value.slice(0, open);
  const post = value.slice(close + 1);
  let alternatives: string[] | null = null;
  const parts = splitTopLevelCommas(inner);
  if (parts.length > 1) alternatives = parts;
  else {
    const range = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])$/.exec(inner);
    if (range) alternatives = expandRange(range[1]!, range[2]!, limit);
  }
  if (!alternatives) {
    // Not an expansion here; keep the brace and look further on.
    return expandBraces(post, limit).map((rest) => pre + '{' + inner + '}' + rest).slice(0, limit);
  }
  const out: string[] = [];
  for (const alt of alternatives) {
    for (const expanded of expandBraces(pre + alt + post, limit)) {
      out.push(expanded);
      if (out.length >= limit) return out;
    }
  }
  return out;
}

function findBraceOpen(value: string): number {
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\') i++;
    else if (value[i] === '{' && value[i + 1] !== '}') return i;
  }
  return -1;
}

function matchingBrace(value: string, open: number): number {
  let depth = 0;
  for (let i = open; i < value.length; i++) {
    if (value[i] === '\\') i++;
    else if (value[i] === '{') depth++;
    else if (value[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevelCommas(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function expandRange(a: string, b: string, limit: number): string[] {
  const out: string[] = [];
  if (/^-?\d+$/.test(a) && /^-?\d+$/.test(b)) {
    const x = Number(a);
    const y = Number(b);
    const step = x <= y ? 1 : -1;
    for (let i = x; step > 0 ? i <= y : i >= y; i += step) {
      out.push(String(i));
      if (out.length >= limit) break;
    }
  } else {
    const x = a.charCodeAt(0);
    const y = b.charCodeAt(0);
    const step = x <= y ? 1 : -1;
    for (let i = x; step > 0 ? i <= y : i >= y; i += step) {
      out.push(String.fromCharCode(i));
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** A word whose value is only known at run time and may start with '-', so it may be an option: "$x", $(cmd), *.txt. */
export function mayBeOption(w: Word): boolean {
  if (w.glob && /^[*?[]/.test(w.value)) return true;
  return !w.literal && /^[$`]/.test(w.value);
}
