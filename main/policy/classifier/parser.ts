// tree-sitter-bash through web-tree-sitter (WASM), initialised once per process.
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { enableDirectCopy, readCursorExports } from './syntax';

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
