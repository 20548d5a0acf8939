import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser, parseShell } from './parser';
import { containsError, copyTree } from './syntax';

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
