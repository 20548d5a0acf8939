// tree-sitter-bash through web-tree-sitter (WASM), initialised once per process.
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { copyTree, enableDirectCopy, isDirectCopy, readCursorExports, sameTree, SELF_CHECK, type SyntaxNode } from './syntax';

let parser: Parser | null = null;
let moduleExports: Record<string, unknown> | null = null;
let initialising: Promise<void> | null = null;

/** Loads the WASM runtime and the bash grammar. Safe to call many times; the work happens once. */
export function initShellParser(): Promise<void> {
  if (parser) return Promise.resolve();
  initialising ??= (async () => {
    const require = createRequire(import.meta.url);
    // Emscripten fills the object it is given with the module's exports: syntax.ts walks trees through
    // them directly, without web-tree-sitter's per-call wrappers (checked against those wrappers first).
    const moduleObject: Record<string, unknown> = { locateFile: () => require.resolve('web-tree-sitter/web-tree-sitter.wasm') };
    await Parser.init(moduleObject);
    const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const p = new Parser();
    p.setLanguage(bash);
    parser = p;
    moduleExports = moduleObject;
    enableDirectCopy(readCursorExports(moduleObject), parseShell);
    enableDirectParse(moduleObject, p);
  })();
  return initialising;
}

/** @internal The module object Parser.init filled (tests spoil copies of its exports). */
export function moduleExportsForTest(): Record<string, unknown> | null {
  return moduleExports;
}

/** Parses a command. Throws when initShellParser() has not completed: classification must never guess. */
export function parseShell(source: string): Tree {
  if (!parser) throw new Error('The shell parser is not initialised: await initShellParser() first.');
  const tree = parser.parse(source);
  if (!tree) throw new Error('The shell parser returned no tree.');
  return tree;
}

/**
 * The module's own parse function, as Parser.parse calls it (web-tree-sitter's binding): the text is read
 * through the module's parse callback, and the result is the tree's address. Parser.parse wraps that
 * address in a Tree with a finalizer registration, a few microseconds per command that the copy never
 * needs: it reads the tree through the cursor exports and deletes it.
 */
interface ParseExports {
  _ts_parser_parse_wasm(parser: number, language: number, oldTree: number, ranges: number, rangeCount: number): number;
  _ts_tree_delete(tree: number): void;
  currentParseCallback: ((index: number) => string) | null;
}

let directParse: { m: ParseExports; parser: number; input: number; language: Tree['language'] } | null = null;

/**
 * Parses without the Tree wrapper from now on, if the module has the functions and the trees it gives
 * are the ones Parser.parse gives for the check commands (and the copy walks the exports already);
 * otherwise parseAndCopy keeps to Parser.parse.
 */
function enableDirectParse(moduleObject: Record<string, unknown>, p: Parser): boolean {
  directParse = null;
  const handles = p as unknown as { 0: unknown; 1: unknown };
  if (!isDirectCopy() || !p.language || typeof handles[0] !== 'number' || typeof handles[1] !== 'number') return false;
  if (typeof moduleObject._ts_parser_parse_wasm !== 'function' || typeof moduleObject._ts_tree_delete !== 'function' || !('currentParseCallback' in moduleObject)) return false;
  const candidate = { m: moduleObject as unknown as ParseExports, parser: handles[0], input: handles[1], language: p.language };
  for (const source of SELF_CHECK) {
    const tree = parseShell(source);
    let through: SyntaxNode;
    try {
      through = copyTree(tree, source);
    } finally {
      tree.delete();
    }
    let direct: SyntaxNode;
    try {
      direct = parseAndCopyWith(candidate, source, Infinity);
    } catch {
      return false;
    }
    if (!sameTree(direct, through)) return false;
  }
  directParse = candidate;
  return true;
}

function parseAndCopyWith(d: NonNullable<typeof directParse>, source: string, maxDepth: number): SyntaxNode {
  let address: number;
  d.m.currentParseCallback = (index: number) => source.slice(index);
  try {
    address = d.m._ts_parser_parse_wasm(d.parser, d.input, 0, 0, 0);
  } finally {
    d.m.currentParseCallback = null;
  }
  if (!address) throw new Error('The shell parser returned no tree.');
  try {
    // The copy reads only the address (through the cursor exports) and the language's names.
    return copyTree({ 0: address, language: d.language } as unknown as Tree, source, maxDepth);
  } finally {
    d.m._ts_tree_delete(address);
  }
}

/** Parses a command and copies its tree into plain JavaScript (syntax.ts copyTree), freeing the parser's tree. */
export function parseAndCopyShell(source: string, maxDepth: number): SyntaxNode {
  // The tree without its wrapper can only be read through the cursor exports.
  if (directParse !== null && isDirectCopy()) return parseAndCopyWith(directParse, source, maxDepth);
  const tree = parseShell(source);
  try {
    return copyTree(tree, source, maxDepth);
  } finally {
    tree.delete();
  }
}

/** Whether parseAndCopyShell parses without the Tree wrapper (false: through Parser.parse). */
export function isDirectParse(): boolean {
  return directParse !== null && isDirectCopy();
}
