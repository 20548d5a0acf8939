// A plain JavaScript copy of the bash syntax tree, built in one cursor walk. Reading nodes of the WASM
// tree one by one crosses into WebAssembly on every property; the copy makes the analysis pure JS.
import type { Tree, TreeCursor } from 'web-tree-sitter';

export class SyntaxNode {
  readonly children: SyntaxNode[] = [];
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
    return (this.named ??= this.children.filter((c) => c.isNamed));
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
  n.parent = parent;
  parent?.children.push(n);
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
const SELF_CHECK = ['ls -la | grep "$(date)" > out 2>&1 && x=1 y[2]=3 env A=b cmd', "cat <<'X' | sh\nrm -rf ~\nX", 'if true; then echo "abc', 'f() { f | f & }; f', 'ls )', 'echo ${a:-$(b)} `c` <(d) $((1+2))'];

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
// `git status`, `sleep 10`. bash reads such a line as one simple command whose words are taken as
// written, and tree-sitter gives it one shape. For those, the tree is built here instead of parsing and
// copying; syntax.test.ts checks it against the parser on every fixture command and on generated ones.

/** Words made only of these characters need no quote removal and expand to themselves. */
const PLAIN_COMMAND = /^[A-Za-z0-9_./][A-Za-z0-9_./-]*(?: [A-Za-z0-9_./,:+-][A-Za-z0-9_./,:+=-]*)*$/;
/** Words bash (or the grammar) reads as part of a compound command, a declaration or a negation in command position. */
const RESERVED_FIRST = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv', 'let', 'test']);
/** What tree-sitter-bash calls a number rather than a word. */
const NUMBER = /^-?(0x)?[0-9]+$/;

/**
 * The tree of a plain command (single spaces between words, none at either end, nothing bash would
 * expand, quote or treat as an operator, no word starting with =), or null for anything else.
 */
export function plainCommandTree(source: string): SyntaxNode | null {
  if (!PLAIN_COMMAND.test(source)) return null;
  const space = source.indexOf(' ');
  const first = space === -1 ? source : source.slice(0, space);
  if (RESERVED_FIRST.has(first)) return null;
  const end = source.length;
  const root = new SyntaxNode(0, 'program', true, false, null, source, 0, end);
  const command = new SyntaxNode(1, 'command', true, false, null, source, 0, end);
  adopt(root, command);
  let id = 2;
  let start = 0;
  for (;;) {
    const stop = source.indexOf(' ', start);
    const wordEnd = stop === -1 ? end : stop;
    const type = NUMBER.test(source.slice(start, wordEnd)) ? 'number' : 'word';
    if (start === 0) {
      const name = new SyntaxNode(id++, 'command_name', true, false, 'name', source, 0, wordEnd);
      adopt(command, name);
      adopt(name, new SyntaxNode(id++, type, true, false, null, source, 0, wordEnd));
    } else adopt(command, new SyntaxNode(id++, type, true, false, 'argument', source, start, wordEnd));
    if (stop === -1) return root;
    start = stop + 1;
  }
}

function adopt(parent: SyntaxNode, child: SyntaxNode): void {
  child.parent = parent;
  parent.children.push(child);
}
