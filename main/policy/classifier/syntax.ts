// A plain JavaScript copy of the bash syntax tree, built in one cursor walk. Reading nodes of the WASM
// tree one by one crosses into WebAssembly on every property; the copy makes the analysis pure JS.
import type { Tree, TreeCursor } from 'web-tree-sitter';

/**
 * The children of every leaf: one shared empty list, so a leaf allocates none; adopt() replaces it with
 * the node's own list at the first child, and nothing else adds children. Not frozen: a frozen array has
 * its own elements kind, and for-of over children of both kinds then allocates an iterator per loop.
 */
const NO_CHILDREN: SyntaxNode[] = [];

export class SyntaxNode {
  children: SyntaxNode[] = NO_CHILDREN;
  parent: SyntaxNode | null = null;
  private named: SyntaxNode[] | null = null;

  constructor(
    readonly id: number,
    readonly type: string,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    readonly field: string | null,
    private readonly source: string,
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }
  get childCount(): number {
    return this.children.length;
  }
  child(i: number): SyntaxNode | null {
    return this.children[i] ?? null;
  }
  get namedChildren(): SyntaxNode[] {
    return (this.named ??= namedOf(this.children));
  }
  /** Appends a child while the tree is built. */
  adopt(child: SyntaxNode): void {
    child.parent = this;
    if (this.children === NO_CHILDREN) this.children = [child];
    else this.children.push(child);
  }
  get namedChildCount(): number {
    return this.namedChildren.length;
  }
  childForFieldName(name: string): SyntaxNode | null {
    return this.children.find((c) => c.field === name) ?? null;
  }
  fieldNameForChild(i: number): string | null {
    return this.children[i]?.field ?? null;
  }
  get nextSibling(): SyntaxNode | null {
    if (!this.parent) return null;
    const siblings = this.parent.children;
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }
  descendantsOfType(type: string): SyntaxNode[] {
    const out: SyntaxNode[] = [];
    const stack: SyntaxNode[] = [this];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === type) out.push(n);
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
    return out;
  }
}

/** The named ones of a node's children: the list itself when all are (word lists, leaves), never changed by readers. */
function namedOf(children: SyntaxNode[]): SyntaxNode[] {
  for (let i = 0; i < children.length; i++) if (!children[i]!.isNamed) return children.filter(isNamedNode);
  return children;
}

function isNamedNode(node: SyntaxNode): boolean {
  return node.isNamed;
}

/** Thrown by copyTree when the tree nests deeper than allowed: the walks over it recurse by depth. */
export class TooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`the syntax tree nests deeper than ${limit} levels`);
  }
}

/** `a && b && c` nests lists to the left; the analysis walks them in a loop, so they do not count as depth. */
const FLAT_TYPES = new Set(['list']);

/** Per language: node type names, whether each is named, and field names, by id (read from WASM once). */
const languageTables = new WeakMap<object, LanguageTables>();

interface LanguageTables {
  types: string[];
  named: boolean[];
  fields: (string | null)[];
}

function tablesOf(language: Tree['language']): LanguageTables {
  let tables = languageTables.get(language);
  if (!tables) {
    const types = language.types;
    // An id without a name (ERROR is 65535) counts as named, as tree-sitter reports it.
    const named = Array.from({ length: types.length }, (_, id) => types[id] === undefined || language.nodeTypeIsNamed(id));
    languageTables.set(language, (tables = { types, named, fields: language.fields }));
  }
  return tables;
}

/** The moves and reads the copy needs at one position of a walk over the WASM tree. */
interface Walker {
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  typeId(): number;
  startIndex(): number;
  endIndex(): number;
  fieldId(): number;
  isMissing(): boolean;
  delete(): void;
}

/** web-tree-sitter's TreeCursor: every read copies the cursor into WASM memory and back. The reference. */
class ApiWalker implements Walker {
  private readonly cursor: TreeCursor;
  constructor(tree: Tree) {
    this.cursor = tree.walk();
  }
  gotoFirstChild(): boolean {
    return this.cursor.gotoFirstChild();
  }
  gotoNextSibling(): boolean {
    return this.cursor.gotoNextSibling();
  }
  gotoParent(): boolean {
    return this.cursor.gotoParent();
  }
  typeId(): number {
    return this.cursor.nodeTypeId;
  }
  startIndex(): number {
    return this.cursor.startIndex;
  }
  endIndex(): number {
    return this.cursor.endIndex;
  }
  fieldId(): number {
    return this.cursor.currentFieldId;
  }
  isMissing(): boolean {
    return this.cursor.nodeIsMissing;
  }
  delete(): void {
    this.cursor.delete();
  }
}

/**
 * The WASM module's own cursor functions (web-tree-sitter's binding, tree-sitter.c). Each takes the
 * tree's address and works on the one cursor kept in the module's transfer buffer: the moves write it
 * back there, the reads leave it. So a walk that makes no other call into the module keeps its cursor
 * in WASM memory from start to end and never copies it into JavaScript.
 */
export interface CursorExports {
  _ts_tree_root_node_wasm(tree: number): void;
  _ts_tree_cursor_new_wasm(tree: number): void;
  _ts_tree_cursor_delete_wasm(tree: number): void;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
  _ts_tree_cursor_current_field_id_wasm(tree: number): number;
  _ts_tree_cursor_current_node_is_missing_wasm(tree: number): number;
}

const CURSOR_EXPORTS: readonly (keyof CursorExports)[] = [
  '_ts_tree_root_node_wasm', '_ts_tree_cursor_new_wasm', '_ts_tree_cursor_delete_wasm', '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm', '_ts_tree_cursor_goto_parent_wasm', '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_start_index_wasm', '_ts_tree_cursor_end_index_wasm', '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_current_node_is_missing_wasm',
];

/** The cursor functions from the object Parser.init filled, or null when one is missing (another web-tree-sitter). */
export function readCursorExports(moduleObject: Record<string, unknown>): CursorExports | null {
  const out: Record<string, unknown> = {};
  for (const name of CURSOR_EXPORTS) {
    const fn = moduleObject[name];
    if (typeof fn !== 'function') return null;
    out[name] = fn;
  }
  return out as unknown as CursorExports;
}

class DirectWalker implements Walker {
  private readonly tree: number;
  constructor(
    private readonly x: CursorExports,
    tree: Tree,
  ) {
    this.tree = (tree as unknown as { 0: number })[0];
    x._ts_tree_root_node_wasm(this.tree);
    x._ts_tree_cursor_new_wasm(this.tree);
  }
  gotoFirstChild(): boolean {
    return this.x._ts_tree_cursor_goto_first_child_wasm(this.tree) === 1;
  }
  gotoNextSibling(): boolean {
    return this.x._ts_tree_cursor_goto_next_sibling_wasm(this.tree) === 1;
  }
  gotoParent(): boolean {
    return this.x._ts_tree_cursor_goto_parent_wasm(this.tree) === 1;
  }
  typeId(): number {
    return this.x._ts_tree_cursor_current_node_type_id_wasm(this.tree);
  }
  startIndex(): number {
    return this.x._ts_tree_cursor_start_index_wasm(this.tree);
  }
  endIndex(): number {
    return this.x._ts_tree_cursor_end_index_wasm(this.tree);
  }
  fieldId(): number {
    return this.x._ts_tree_cursor_current_field_id_wasm(this.tree);
  }
  isMissing(): boolean {
    return this.x._ts_tree_cursor_current_node_is_missing_wasm(this.tree) === 1;
  }
  delete(): void {
    this.x._ts_tree_cursor_delete_wasm(this.tree);
  }
}

/** The node at the walker's position. Only ids and offsets cross from WebAssembly; ids map to names here. */
function nodeAt(w: Walker, tables: LanguageTables, id: number, parent: SyntaxNode | null, source: string): SyntaxNode {
  const typeId = w.typeId();
  const start = w.startIndex();
  const end = w.endIndex();
  // Only an empty node can be one the parser inserted to recover (a missing node).
  const missing = start === end && w.isMissing();
  const fieldId = w.fieldId();
  const n = new SyntaxNode(id, tables.types[typeId] || 'ERROR', tables.named[typeId] ?? true, missing, fieldId ? (tables.fields[fieldId] ?? null) : null, source, start, end);
  parent?.adopt(n);
  return n;
}

function copyWith(w: Walker, tree: Tree, source: string, maxDepth: number): SyntaxNode {
  let depth = 0;
  const counted: boolean[] = [];
  const tables = tablesOf(tree.language);
  try {
    let id = 0;
    const root = nodeAt(w, tables, id++, null, source);
    let current = root;
    // Depth-first: descend, then siblings, then climb back.
    for (;;) {
      // Anonymous nodes are tokens of the grammar (tree-sitter-bash aliases only external tokens to
      // anonymous names), so they have no children: skip the crossing that would look for one.
      if (current.isNamed && w.gotoFirstChild()) {
        const counts = !FLAT_TYPES.has(current.type);
        counted.push(counts);
        if (counts && ++depth > maxDepth) throw new TooDeepError(maxDepth);
        current = nodeAt(w, tables, id++, current, source);
        continue;
      }
      for (;;) {
        if (w.gotoNextSibling()) {
          current = nodeAt(w, tables, id++, current.parent, source);
          break;
        }
        if (!w.gotoParent()) return root;
        if (counted.pop()) depth--;
        current = current.parent!;
      }
    }
  } finally {
    w.delete();
  }
}

let direct: CursorExports | null = null;

/** Copies the tree into plain JavaScript objects, in one depth-first walk. */
export function copyTree(tree: Tree, source: string, maxDepth = Infinity): SyntaxNode {
  return copyWith(direct ? new DirectWalker(direct, tree) : new ApiWalker(tree), tree, source, maxDepth);
}

/** The same copy through web-tree-sitter's TreeCursor: what copyTree must equal. */
export function copyTreeThroughApi(tree: Tree, source: string, maxDepth = Infinity): SyntaxNode {
  return copyWith(new ApiWalker(tree), tree, source, maxDepth);
}

/** Commands whose trees hold every kind of node the check must see: fields, errors, missing nodes, heredocs, nesting. */
export const SELF_CHECK: readonly string[] = ['ls -la | grep "$(date)" > out 2>&1 && x=1 y[2]=3 env A=b cmd', "cat <<'X' | sh\nrm -rf ~\nX", 'if true; then echo "abc', 'f() { f | f & }; f', 'ls )', 'echo ${a:-$(b)} `c` <(d) $((1+2))'];

/**
 * Walks through the module's exports from now on, if they give exactly the trees web-tree-sitter's
 * cursor gives for the check commands; otherwise the copy stays on the cursor (slower, never wrong).
 */
export function enableDirectCopy(exports: CursorExports | null, parse: (source: string) => Tree): boolean {
  direct = null;
  if (!exports) return false;
  for (const source of SELF_CHECK) {
    const tree = parse(source);
    try {
      if (!sameTree(copyWith(new DirectWalker(exports, tree), tree, source, Infinity), copyTreeThroughApi(tree, source))) return false;
    } finally {
      tree.delete();
    }
  }
  direct = exports;
  return true;
}

/** Whether copyTree walks through the module's exports (false: through web-tree-sitter's cursor). */
export function isDirectCopy(): boolean {
  return direct !== null;
}

/** Two copies describe the same tree: every node's type, flags, field and span, in the same shape. */
export function sameTree(a: SyntaxNode, b: SyntaxNode): boolean {
  const stack: [SyntaxNode, SyntaxNode][] = [[a, b]];
  while (stack.length) {
    const [x, y] = stack.pop()!;
    if (x.type !== y.type || x.isNamed !== y.isNamed || x.isMissing !== y.isMissing || x.field !== y.field) return false;
    if (x.startIndex !== y.startIndex || x.endIndex !== y.endIndex || x.id !== y.id || x.children.length !== y.children.length) return false;
    if ((x.parent?.id ?? -1) !== (y.parent?.id ?? -1)) return false;
    for (let i = 0; i < x.children.length; i++) stack.push([x.children[i]!, y.children[i]!]);
  }
  return true;
}

/**
 * True when the tree holds an ERROR node or a node the parser inserted to recover (what tree-sitter's
 * hasError reports), read from the copy instead of crossing into WebAssembly for the root node.
 */
export function containsError(root: SyntaxNode): boolean {
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'ERROR' || n.isMissing) return true;
    for (const c of n.children) stack.push(c);
  }
  return false;
}

// ── Plain commands, without the parser ─────────────────────────────────────────────────────────
// Most commands are a program and a few words of letters, digits and path punctuation: `ls -la src`,
// `git status`, `sleep 10`, or a few of them joined: `git diff | wc -l`, `npm ci && npm test`, `cd src;
// ls`. bash reads such a line as simple commands whose words are taken as written (or, quoted, as the
// text between the quotes), and tree-sitter gives it one shape. For those, the tree is built here
// instead of parsing and copying; syntax.test.ts checks it against the parser on every fixture command
// and on generated ones, and shortcut.test.ts checks the whole Classification with and without it.
//
// The shape: the program holds the statements between the ;s; a statement is a list when it has && or
// || (nested to the left: `a && b || c` is ((a && b) || c)); a pipeline binds tighter than either.

/** A single command of unquoted plain words: what plainCommandTree takes. */
const PLAIN_COMMAND = /^[A-Za-z0-9_./][A-Za-z0-9_./-]*(?: [A-Za-z0-9_./,:+-][A-Za-z0-9_./,:+=-]*)*$/;
/** Words bash (or the grammar) reads as part of a compound command, a declaration or a negation in command position. */
const RESERVED_FIRST = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv', 'let', 'test']);
/** What tree-sitter-bash calls a number rather than a word. */
const NUMBER = /^-?(0x)?[0-9]+$/;

/** The node type of the unquoted word source[start, end): a number starts with - or a digit. */
function plainWordType(source: string, start: number, end: number): 'number' | 'word' {
  const c = source.charCodeAt(start);
  return (c === 45 || (c >= 48 && c <= 57)) && NUMBER.test(source.slice(start, end)) ? 'number' : 'word';
}

/**
 * Characters of unquoted plain words by code, as PLAIN_COMMAND has them: 1 anywhere; 2 (-) not at the
 * start of the program name; 3 (, : + ~ * ?) only after the program name; 4 (=) only after it and not first in a word.
 */
const PLAIN_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./') PLAIN_CHAR[c.charCodeAt(0)] = 1;
PLAIN_CHAR['-'.charCodeAt(0)] = 2;
for (const c of ',:+~*?') PLAIN_CHAR[c.charCodeAt(0)] = 3;
PLAIN_CHAR['='.charCodeAt(0)] = 4;

const SPACE = 32;
const SINGLE_QUOTE = 39;
const DOUBLE_QUOTE = 34;
const PIPE = 124;
const AMPERSAND = 38;
const SEMICOLON = 59;
const GREATER = 62;
const LESS = 60;

const enum WordKind {
  Plain,
  /** 'text': a raw_string node. */
  SingleQuoted,
  /** "text": a string node (quote, string_content, quote). */
  DoubleQuoted,
}

type Operator = '|' | '&&' | '||' | ';';

/**
 * One piece of a plain line: a command or an operator. A command has its span (redirections included),
 * its words as start, end, kind triples ending at wordsEnd, and its redirections after the words, each
 * as five offsets: descriptor (-1 when none), operator start and end, destination start and end.
 */
interface Piece {
  start: number;
  end: number;
  op: Operator | null;
  words: number[];
  wordsEnd: number;
  redirects: number[];
}

/**
 * The tree of a plain command (single spaces between words, none at either end, nothing bash would
 * expand, quote or treat as an operator, no word starting with =), or null for anything else.
 */
export function plainCommandTree(source: string): SyntaxNode | null {
  return PLAIN_COMMAND.test(source) ? plainTree(source) : null;
}

/**
 * The tree of a plain line, or null for anything else: plain commands joined by |, &&, || and ;, with at
 * most one space on either side of an operator, single spaces between words and none at either end of
 * the line. A word after the first is unquoted plain text (which may hold ~, * and ?: the grammar keeps
 * tilde and glob words as plain words, the analysis expands them), or all of it in single quotes, or in
 * double quotes holding nothing bash expands (no $, `, \ or !).
 */
export function plainTree(source: string): SyntaxNode | null {
  const pieces = scanPlainLine(source);
  if (!pieces) return null;
  const root = new SyntaxNode(0, 'program', true, false, null, source, 0, source.length);
  let id = 1;
  // Statements are the runs of pieces between the ; operators.
  for (let from = 0; from < pieces.length; ) {
    let to = from;
    while (to < pieces.length && pieces[to]!.op !== ';') to++;
    // tree-sitter-bash reads `a | b > x` as (a | b) > x and `a | b > x | c` as ((a | b) > x) | c: a
    // redirection after the first command of a statement takes the commands before it along, a shape
    // left to the parser. On the first command (`make 2>&1 | tee log`) it is the command's own.
    for (let k = from + 2; k < to; k += 2) if (pieces[k]!.redirects.length !== 0) return null;
    const next = addList(root, source, pieces, from, to, id);
    if (next === null) return null;
    id = next;
    if (to < pieces.length) root.adopt(new SyntaxNode(id++, ';', false, false, null, source, pieces[to]!.start, pieces[to]!.end));
    from = to + 1;
  }
  return root;
}

/** Commands and operators in order (a command first and last, operators between), or null when a part is not plain. */
function scanPlainLine(source: string): Piece[] | null {
  const length = source.length;
  const pieces: Piece[] = [];
  let i = 0;
  for (;;) {
    // One command: words separated by single spaces, up to an operator or the end.
    const start = i;
    const words: number[] = [];
    const redirects: number[] = [];
    let end: number;
    for (;;) {
      const wordStart = i;
      const c = source.charCodeAt(i);
      let kind = WordKind.Plain;
      if (wordStart !== start && startsRedirect(source, i)) {
        // Redirections come after every word: `ls > a b` makes b a second destination in the grammar.
        const after = scanRedirect(source, i, redirects);
        if (after === -1) return null;
        i = after;
      } else if (redirects.length !== 0) {
        return null;
      } else if (c === SINGLE_QUOTE || c === DOUBLE_QUOTE) {
        if (wordStart === start) return null; // a quoted program name: left to the parser
        const close = source.indexOf(c === SINGLE_QUOTE ? "'" : '"', i + 1);
        if (close === -1 || !quotedTextIsPlain(source, i + 1, close, c === DOUBLE_QUOTE)) return null;
        kind = c === SINGLE_QUOTE ? WordKind.SingleQuoted : WordKind.DoubleQuoted;
        i = close + 1;
      } else {
        const program = wordStart === start;
        const firstMax = program ? 1 : 3;
        const restMax = program ? 2 : 4;
        while (i < length) {
          const code = source.charCodeAt(i);
          const cls = code < 128 ? PLAIN_CHAR[code]! : 0;
          if (cls === 0 || cls > (i === wordStart ? firstMax : restMax)) break;
          i++;
        }
        if (i === wordStart) return null;
      }
      if (redirects.length === 0) words.push(wordStart, i, kind);
      if (i === length) {
        end = i;
        break;
      }
      const next = source.charCodeAt(i);
      if (next === SPACE) {
        const after = source.charCodeAt(i + 1);
        if (after === PIPE || (after === AMPERSAND && source.charCodeAt(i + 2) !== GREATER) || after === SEMICOLON) {
          end = i++;
          break;
        }
        if (i + 1 === length || after === SPACE) return null;
        i++;
        continue;
      }
      if (next === PIPE || next === AMPERSAND || next === SEMICOLON) {
        end = i;
        break;
      }
      return null; // a character the shortcut leaves to the parser, or a quote glued to a word
    }
    const firstEnd = words[1]!;
    if (RESERVED_FIRST.has(source.slice(start, firstEnd))) return null;
    // tree-sitter-bash drops a lone - before `1>x` from the tree: a - with redirections is the parser's.
    if (redirects.length !== 0 && hasLoneDash(source, words)) return null;
    pieces.push({ start, end, op: null, words, wordsEnd: words[words.length - 2]!, redirects });
    if (i === length) return pieces;
    // An operator, then at most one space, then the next command.
    const c = source.charCodeAt(i);
    const next = source.charCodeAt(i + 1);
    let op: Operator;
    if (c === SEMICOLON) op = ';';
    else if (c === AMPERSAND) {
      if (next !== AMPERSAND) return null; // a lone & runs in the background: the parser's
      op = '&&';
    } else if (next === PIPE) op = '||';
    else if (next === AMPERSAND) return null; // |& pipes standard error too
    else op = '|';
    pieces.push({ start: i, end: i + op.length, op, words: [], wordsEnd: i, redirects: [] });
    i += op.length;
    if (source.charCodeAt(i) === SPACE) i++;
    if (i >= length) return null;
  }
}

/** Whether one of the words (start, end, kind triples) is a lone unquoted -. */
function hasLoneDash(source: string, words: number[]): boolean {
  for (let k = 0; k < words.length; k += 3) if (words[k + 1]! - words[k]! === 1 && source.charCodeAt(words[k]!) === 45) return true;
  return false;
}

/** Whether a redirection starts at i: `>`, `<`, `&>`, or a descriptor 1-9 glued to `>` or `<`. */
function startsRedirect(source: string, i: number): boolean {
  const c = source.charCodeAt(i);
  if (c === GREATER || c === LESS) return true;
  if (c === AMPERSAND) return source.charCodeAt(i + 1) === GREATER;
  // 0 is not one: tree-sitter-bash reads the 0 of `0>x` as an argument.
  if (c < 49 || c > 57) return false;
  const next = source.charCodeAt(i + 1);
  return next === GREATER || next === LESS;
}

/**
 * Reads one redirection at i into out (descriptor, operator start and end, destination start and end):
 * `[n]>`, `[n]>>`, `[n]>|`, `<`, `&>`, `&>>` to a plain unquoted word, `[n]>&` and `<&` to a
 * descriptor number (n is 1-9), with at most one space before the destination. Returns the offset after it, or
 * -1 for any other redirection (here-documents, here-strings, `<>`, `>&-`, process substitutions).
 */
function scanRedirect(source: string, i: number, out: number[]): number {
  let p = i;
  let fd = -1;
  const first = source.charCodeAt(p);
  if (first >= 49 && first <= 57) fd = p++;
  const opStart = p;
  let duplicates = false;
  if (source.charCodeAt(p) === AMPERSAND) {
    if (fd !== -1) return -1;
    p += 2; // &>
    if (source.charCodeAt(p) === GREATER) p++;
  } else if (source.charCodeAt(p) === GREATER) {
    const next = source.charCodeAt(++p);
    if (next === GREATER || next === PIPE) p++;
    else if (next === AMPERSAND) {
      p++;
      duplicates = true;
    }
  } else {
    // tree-sitter-bash reads the 0 of `0<x` as an argument; any descriptor before < is left to the parser.
    if (fd !== -1) return -1;
    const next = source.charCodeAt(++p);
    if (next === LESS || next === GREATER) return -1;
    if (next === AMPERSAND) {
      p++;
      duplicates = true;
    }
  }
  const opEnd = p;
  if (source.charCodeAt(p) === SPACE) p++;
  const destStart = p;
  if (duplicates) {
    while (p < source.length && source.charCodeAt(p) >= 48 && source.charCodeAt(p) <= 57) p++;
  } else {
    // The characters of a plain word after the program name (PLAIN_CHAR classes 1-3 first, then 1-4).
    while (p < source.length) {
      const code = source.charCodeAt(p);
      const cls = code < 128 ? PLAIN_CHAR[code]! : 0;
      if (cls === 0 || cls > (p === destStart ? 3 : 4)) break;
      p++;
    }
  }
  if (p === destStart) return -1;
  out.push(fd, opStart, opEnd, destStart, p);
  return p;
}

/**
 * Quoted text the shortcut takes: printable ASCII; in double quotes nothing bash expands or escapes, and
 * not only spaces (tree-sitter-bash then gives the closing quote the spaces instead of a string_content).
 */
function quotedTextIsPlain(source: string, from: number, to: number, double: boolean): boolean {
  let onlySpaces = true;
  for (let i = from; i < to; i++) {
    const code = source.charCodeAt(i);
    if (code < 32 || code > 126) return false;
    if (double && (code === 36 || code === 96 || code === 92 || code === 33)) return false; // $ ` \ !
    if (code !== SPACE) onlySpaces = false;
  }
  return !double || from === to || !onlySpaces;
}

/** Builds the command node of one command piece under parent, ids from `id`; returns the next id. */
function addCommand(parent: SyntaxNode, source: string, piece: Piece, id: number): number {
  const redirects = piece.redirects;
  let statement: SyntaxNode | null = null;
  if (redirects.length !== 0) {
    // `cmd > file`: a redirected_statement holding the command as its body, then the redirections.
    statement = new SyntaxNode(id++, 'redirected_statement', true, false, null, source, piece.start, piece.end);
    parent.adopt(statement);
  }
  const command = new SyntaxNode(id++, 'command', true, false, statement ? 'body' : null, source, piece.start, piece.wordsEnd);
  (statement ?? parent).adopt(command);
  const words = piece.words;
  for (let k = 0; k < words.length; k += 3) {
    const start = words[k]!;
    const end = words[k + 1]!;
    const kind = words[k + 2] as WordKind;
    if (k === 0) {
      const name = new SyntaxNode(id++, 'command_name', true, false, 'name', source, start, end);
      command.adopt(name);
      name.adopt(new SyntaxNode(id++, plainWordType(source, start, end), true, false, null, source, start, end));
    } else if (kind === WordKind.Plain) {
      command.adopt(new SyntaxNode(id++, plainWordType(source, start, end), true, false, 'argument', source, start, end));
    } else if (kind === WordKind.SingleQuoted) {
      command.adopt(new SyntaxNode(id++, 'raw_string', true, false, 'argument', source, start, end));
    } else {
      const string = new SyntaxNode(id++, 'string', true, false, 'argument', source, start, end);
      command.adopt(string);
      string.adopt(new SyntaxNode(id++, '"', false, false, null, source, start, start + 1));
      if (end - start > 2) string.adopt(new SyntaxNode(id++, 'string_content', true, false, null, source, start + 1, end - 1));
      string.adopt(new SyntaxNode(id++, '"', false, false, null, source, end - 1, end));
    }
  }
  for (let k = 0; k < redirects.length; k += 5) {
    const fd = redirects[k]!;
    const opStart = redirects[k + 1]!;
    const opEnd = redirects[k + 2]!;
    const destStart = redirects[k + 3]!;
    const destEnd = redirects[k + 4]!;
    const redirect = new SyntaxNode(id++, 'file_redirect', true, false, 'redirect', source, fd === -1 ? opStart : fd, destEnd);
    statement!.adopt(redirect);
    if (fd !== -1) redirect.adopt(new SyntaxNode(id++, 'file_descriptor', true, false, 'descriptor', source, fd, fd + 1));
    redirect.adopt(new SyntaxNode(id++, source.slice(opStart, opEnd), false, false, null, source, opStart, opEnd));
    redirect.adopt(new SyntaxNode(id++, plainWordType(source, destStart, destEnd), true, false, 'destination', source, destStart, destEnd));
  }
  return id;
}

/**
 * Adds the statement pieces[from, to) (pipelines joined by && and ||) under parent; returns the next id,
 * or null for a statement the grammar reads its own way.
 */
function addList(parent: SyntaxNode, source: string, pieces: Piece[], from: number, to: number, id: number): number | null {
  // The last && or || splits the statement: the list of everything before it, the operator, the last pipeline.
  let split = -1;
  for (let k = to - 2; k > from; k -= 2) {
    const op = pieces[k]!.op;
    if (op === '&&' || op === '||') {
      split = k;
      break;
    }
  }
  if (split === -1) return addPipeline(parent, source, pieces, from, to, id);
  // tree-sitter-bash reads `a | b | c && d` as a | (b | c && d): lists hold pipelines of two commands at most here.
  if (longPipeline(pieces, from, to)) return null;
  const list = new SyntaxNode(id++, 'list', true, false, null, source, pieces[from]!.start, pieces[to - 1]!.end);
  parent.adopt(list);
  const next = addList(list, source, pieces, from, split, id);
  if (next === null) return null;
  id = next;
  list.adopt(new SyntaxNode(id++, pieces[split]!.op!, false, false, null, source, pieces[split]!.start, pieces[split]!.end));
  return addPipeline(list, source, pieces, split + 1, to, id);
}

/** Whether pieces[from, to) holds three or more commands joined by | in a row. */
function longPipeline(pieces: Piece[], from: number, to: number): boolean {
  let run = 0;
  for (let k = from + 1; k < to; k += 2) {
    run = pieces[k]!.op === '|' ? run + 1 : 0;
    if (run >= 2) return true;
  }
  return false;
}

/** Adds pieces[from, to) (commands joined by |) under parent: one command, or a pipeline of them. */
function addPipeline(parent: SyntaxNode, source: string, pieces: Piece[], from: number, to: number, id: number): number {
  if (to - from === 1) return addCommand(parent, source, pieces[from]!, id);
  const pipeline = new SyntaxNode(id++, 'pipeline', true, false, null, source, pieces[from]!.start, pieces[to - 1]!.end);
  parent.adopt(pipeline);
  for (let k = from; k < to; k++) {
    const p = pieces[k]!;
    if (p.op === null) id = addCommand(pipeline, source, p, id);
    else pipeline.adopt(new SyntaxNode(id++, p.op, false, false, null, source, p.start, p.end));
  }
  return id;
}
