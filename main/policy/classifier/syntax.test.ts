import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser, moduleExportsForTest, parseShell } from './parser';
import { containsError, copyTree, copyTreeThroughApi, enableDirectCopy, isDirectCopy, readCursorExports, sameTree, TooDeepError, type CursorExports } from './syntax';

beforeAll(async () => {
  await initShellParser();
});

/** What the copy says about errors, next to what tree-sitter says about the same tree. */
function errorsSeen(source: string): { copy: boolean; treeSitter: boolean } {
  const tree = parseShell(source);
  try {
    return { copy: containsError(copyTree(tree, source)), treeSitter: tree.rootNode.hasError };
  } finally {
    tree.delete();
  }
}

describe('containsError agrees with tree-sitter hasError', () => {
  it.each([
    ['a plain command', 'ls -la', false],
    ['a pipeline and a list', 'cat a | grep b && echo "$(date)"', false],
    ['a heredoc', "cat <<'X'\nhi\nX", false],
    ['an unclosed quote (a missing node)', 'echo "abc', true],
    ['an unclosed substitution', 'echo $(ls', true],
    ['a stray closing parenthesis (an ERROR node)', 'ls )', true],
    ['an if without fi', 'if true; then echo', true],
    ['a brace expansion in command position', '{rm,-rf,/}', true],
    ['a lone operator', '&&', true],
  ])('%s: %j has errors = %s', (_what, source, expected) => {
    expect(errorsSeen(source)).toEqual({ copy: expected, treeSitter: expected });
  });
});

/** Every command of the fixtures (corpus, options, exfiltration), as the classifier receives them. */
function fixtureCommands(): string[] {
  const dir = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures');
  const lines = (file: string) => readFileSync(join(dir, file), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  const corpus = lines('command-corpus.txt').map((l) => /^\S+ \S+ \S+ \S+ \S+ (.*?)( {2}## flags:.*)?$/.exec(l)?.[1]).filter((c) => c !== undefined).map((c) => (c.startsWith('"') ? (JSON.parse(c) as string) : c));
  const options = lines('option-corpus.txt').map((l) => l.slice(l.indexOf(' ') + 1));
  return [...corpus, ...options, ...lines('exfiltration-corpus.txt')];
}

describe('the direct walk over the WASM cursor', () => {
  it('is in use once the parser is initialised', () => {
    expect(isDirectCopy()).toBe(true);
  });
  it('copies every fixture command exactly as the web-tree-sitter cursor does', () => {
    const commands = fixtureCommands();
    expect(commands.length).toBeGreaterThan(1500);
    const differ = commands.filter((source) => {
      const tree = parseShell(source);
      try {
        return !sameTree(copyTree(tree, source, 400), copyTreeThroughApi(tree, source, 400));
      } finally {
        tree.delete();
      }
    });
    expect(differ).toEqual([]);
  });
  it('refuses the same depth as the cursor walk', () => {
    const source = 'echo ' + '$('.repeat(50) + ')'.repeat(50);
    const tree = parseShell(source);
    try {
      expect([() => copyTree(tree, source, 20), () => copyTreeThroughApi(tree, source, 20)].map((f) => { try { f(); return null; } catch (e) { return e instanceof TooDeepError ? e.limit : e; } })).toEqual([20, 20]);
    } finally {
      tree.delete();
    }
  });
  it.each([
    ['an export is missing (another web-tree-sitter)', (x: CursorExports) => ({ ...x, _ts_tree_cursor_current_field_id_wasm: undefined })],
    ['a read answers differently (fields never reported)', (x: CursorExports) => ({ ...x, _ts_tree_cursor_current_field_id_wasm: () => 0 })],
    ['a move answers differently (no node has a sibling)', (x: CursorExports) => ({ ...x, _ts_tree_cursor_goto_next_sibling_wasm: () => 0 })],
  ])('falls back to the cursor when %s', (_what, spoil) => {
    const exports = readCursorExports(moduleExportsForTest()!)!;
    try {
      expect(enableDirectCopy(readCursorExports(spoil(exports) as unknown as Record<string, unknown>), parseShell)).toBe(false);
      expect(isDirectCopy()).toBe(false);
      const source = 'ls -la | grep x > out';
      const tree = parseShell(source);
      try {
        expect(sameTree(copyTree(tree, source), copyTreeThroughApi(tree, source))).toBe(true);
      } finally {
        tree.delete();
      }
    } finally {
      expect(enableDirectCopy(exports, parseShell)).toBe(true);
    }
  });
});
