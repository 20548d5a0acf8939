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
  named: Map<number, boolean>;
  fields: (string | null)[];
  language: Tree['language'];
}

/** One node at the cursor. Every cursor property crosses into WebAssembly: read ids and offsets only, and map ids to names here. */
function nodeAtCursor(cursor: TreeCursor, tables: LanguageTables, id: number, parent: SyntaxNode | null, source: string): SyntaxNode {
  const typeId = cursor.nodeTypeId;
  let isNamed = tables.named.get(typeId);
  if (isNamed === undefined) tables.named.set(typeId, (isNamed = tables.types[typeId] === undefined || tables.language.nodeTypeIsNamed(typeId)));
  const start = cursor.startIndex;
  const end = cursor.endIndex;
  // Only an empty node can be one the parser inserted to recover (a missing node).
  const missing = start === end && cursor.nodeIsMissing;
  const fieldId = cursor.currentFieldId;
  const n = new SyntaxNode(id, tables.types[typeId] || 'ERROR', isNamed, missing, fieldId ? (tables.fields[fieldId] ?? null) : null, source, start, end);
  n.parent = parent;
  parent?.children.push(n);
  return n;
}

export function copyTree(tree: Tree, source: string, maxDepth = Infinity): SyntaxNode {
  const cursor = tree.walk();
  let depth = 0;
  const counted: boolean[] = [];
  const language = tree.language;
  let tables = languageTables.get(language);
  if (!tables) languageTables.set(language, (tables = { types: language.types, named: new Map(), fields: language.fields, language }));
  try {
    let id = 0;
    const root = nodeAtCursor(cursor, tables, id++, null, source);
    let current = root;
    // Depth-first: descend, then siblings, then climb back.
    for (;;) {
      // Anonymous nodes are tokens of the grammar (tree-sitter-bash aliases only external tokens to
      // anonymous names), so they have no children: skip the crossing that would look for one.
      if (current.isNamed && cursor.gotoFirstChild()) {
        const counts = !FLAT_TYPES.has(current.type);
        counted.push(counts);
        if (counts && ++depth > maxDepth) throw new TooDeepError(maxDepth);
        current = nodeAtCursor(cursor, tables, id++, current, source);
        continue;
      }
      for (;;) {
        if (cursor.gotoNextSibling()) {
          current = nodeAtCursor(cursor, tables, id++, current.parent, source);
          break;
        }
        if (!cursor.gotoParent()) return root;
        if (counted.pop()) depth--;
        current = current.parent!;
      }
    }
  } finally {
    cursor.delete();
  }
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
