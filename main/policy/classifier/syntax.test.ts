import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser, isDirectParse, moduleExportsForTest, parseAndCopyShell, parseShell } from './parser';
import { containsError, copyTree, copyTreeThroughApi, enableDirectCopy, isDirectCopy, plainCommandTree, plainTree, readCursorExports, sameTree, TooDeepError, type CursorExports, type SyntaxNode } from './syntax';

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
      expect(isDirectParse()).toBe(false);
      const source = 'ls -la | grep x > out';
      expect(sameTree(parseAndCopyShell(source, 400), copyTreeThroughApi(parseShell(source), source))).toBe(true);
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

describe('the parse without the Tree wrapper (parseAndCopyShell)', () => {
  it('is in use once the parser is initialised', () => {
    expect(isDirectParse()).toBe(true);
  });
  it('gives every fixture command the tree Parser.parse gives', () => {
    const commands = fixtureCommands();
    expect(commands.length).toBeGreaterThan(1500);
    const differ = commands.filter((source) => {
      const tree = parseShell(source);
      try {
        return !sameTree(parseAndCopyShell(source, 400), copyTreeThroughApi(tree, source, 400));
      } finally {
        tree.delete();
      }
    });
    expect(differ).toEqual([]);
  });
  it('refuses the same depth as the copy of a parsed tree, and parses on after it', () => {
    const source = 'echo ' + '$('.repeat(50) + ')'.repeat(50);
    expect((() => { try { parseAndCopyShell(source, 20); return null; } catch (e) { return e instanceof TooDeepError ? e.limit : e; } })()).toBe(20);
    expect(parseAndCopyShell('ls -la', 20).text).toBe('ls -la');
  });
});

/** A seeded generator (mulberry32), so a failure names a command that can be reproduced. */
function generator(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shell words that mean something in command position, or look like numbers, options or assignments. */
const TRICKY_WORDS = [
  'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc',
  'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv', 'let', 'test', 'eval', 'exec', 'source', '.', ':', 'builtin',
  'command', 'alias', 'trap', 'read', 'printf', '-', '--', '1', '-1', '0x1', '0x1f', '007', 'a=b', 'a+=b', '=a', 'x=', 'git', 'ls',
];

/** Commands of plain-looking words: letters, digits and every punctuation mark near the plain set. */
function generatedCommands(count: number, seed: number): string[] {
  const random = generator(seed);
  const alphabet = 'aZx09_./,:+=-@%';
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    for (let k = 1 + Math.floor(random() * 4); k > 0; k--) {
      if (random() < 0.25) words.push(TRICKY_WORDS[Math.floor(random() * TRICKY_WORDS.length)]!);
      else words.push(Array.from({ length: 1 + Math.floor(random() * 5) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    }
    out.push(words.join(random() < 0.1 ? '  ' : ' '));
  }
  return out;
}

/** The commands among `sources` whose built tree differs from the parser's (with both trees, to read the failure). */
function plainTreesThatDiffer(sources: string[], build: (source: string) => SyntaxNode | null = plainCommandTree): { accepted: number; differ: string[] } {
  let accepted = 0;
  const differ: string[] = [];
  for (const source of sources) {
    const built = build(source);
    if (!built) continue;
    accepted++;
    const tree = parseShell(source);
    try {
      if (!sameTree(built, copyTree(tree, source))) differ.push(source);
    } finally {
      tree.delete();
    }
  }
  return { accepted, differ };
}

describe('plain commands built without the parser', () => {
  it('every fixture command the shortcut takes gets exactly the tree tree-sitter gives it', () => {
    const { accepted, differ } = plainTreesThatDiffer(fixtureCommands());
    expect(differ).toEqual([]);
    expect(accepted).toBeGreaterThan(400);
  });
  it('40,000 generated commands of plain-looking words get exactly the tree tree-sitter gives them, or go to the parser', () => {
    const { accepted, differ } = plainTreesThatDiffer(generatedCommands(40_000, 20261201));
    expect(differ).toEqual([]);
    expect(accepted).toBeGreaterThan(5000);
  });
  it.each([
    ['a reserved word first', 'if x'],
    ['a declaration first', 'export a'],
    ['an assignment first', 'a=b ls'],
    ['an option-like first word', '- a=b'],
    ['a + in the first word (read as an append to a variable)', 'a+ x'],
    ['an @ (read as a variable by the grammar)', 'git@host x'],
    ['a %', 'a% x'],
    ['a word starting with =', 'x =='],
    ['two spaces', 'ls  -la'],
    ['a space at the end', 'ls '],
    ['a tab', 'ls\t-la'],
    ['a newline', 'ls\nrm x'],
    ['a quote', "ls 'a b'"],
    ['a glob', 'ls *.ts'],
    ['a tilde', 'cat ~/.ssh/id_rsa'],
    ['a variable', 'echo $HOME'],
    ['an operator', 'ls;rm x'],
    ['a brace', 'echo {a,b}'],
    ['a comment', 'ls #x'],
    ['non-ASCII letters', 'rм -rf x'],
  ])('%s goes to the parser: %j', (_what, source) => {
    expect(plainCommandTree(source)).toBeNull();
  });
});

/** Operators and the spacing around them, the ones the shortcut takes and the ones near them it must leave to the parser. */
const JOINS = ['|', '||', '&&', ';', '|', '&&', ';', '&', '|&', ';;', '| |', '&&&', '|||', '&;', ';&'];

/** Generated commands joined by operators, with none, one or two spaces on each side and now and then an operator at the end. */
function generatedLists(count: number, seed: number): string[] {
  const random = generator(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const commands = generatedCommands(count * 3, seed + 1);
  // Mostly commands the shortcut takes on their own, so most lines test the joining; the rest are not plain.
  const plain = commands.filter((c) => plainCommandTree(c) !== null);
  const command = () => (random() < 0.9 ? pick(plain) : pick(commands));
  const spacing = ['', ' ', ' ', ' ', '  '];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let line = command();
    for (let k = 1 + Math.floor(random() * 3); k > 0; k--) line += pick(spacing) + (random() < 0.85 ? pick(JOINS.slice(0, 7)) : pick(JOINS)) + pick(spacing) + command();
    if (random() < 0.05) line += pick([';', ' ', '&', ' ;']);
    out.push(line);
  }
  return out;
}

/** Quoted words: every mark bash reads inside quotes, quotes of the other kind, glued words and empty ones. */
function generatedQuotedCommands(count: number, seed: number): string[] {
  const random = generator(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const inside = [...' aZ09-=#*?~(){}[]|;&<>%@^,.:/+_\'"$`\\!\t'];
  const plain = ['a', 'ls', '-n', '1', 'x=y', 'b,c', '--', 'if', 'done', '.', 'git'];
  const word = () => {
    if (random() < 0.4) return pick(plain);
    const quote = random() < 0.5 ? "'" : '"';
    let text = '';
    for (let n = Math.floor(random() * 5); n > 0; n--) text += pick(inside);
    return quote + text + quote;
  };
  const joins = [' ', ' ', ' ', '', '  ', ' | ', ' && ', '; '];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let line = random() < 0.9 ? pick(plain) : word();
    for (let k = 1 + Math.floor(random() * 4); k > 0; k--) line += pick(joins) + word();
    out.push(line);
  }
  return out;
}

/** Unquoted words with ~, * and ? (tilde and glob words stay plain words in the grammar), joined now and then. */
function generatedGlobCommands(count: number, seed: number): string[] {
  const random = generator(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const alphabet = [...'aZ0_./-=,:+~*?~*?@%['];
  const word = () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(alphabet)).join('');
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let line = random() < 0.9 ? pick(['ls', 'rm', 'cat', 'x1']) : word();
    for (let k = 1 + Math.floor(random() * 3); k > 0; k--) line += pick([' ', ' ', ' ', ' | ', ' && ', ';', '  ']) + word();
    out.push(line);
  }
  return out;
}

/** Plain commands with redirections: every operator near the ones the shortcut takes, odd spacing and destinations, joined now and then. */
function generatedRedirectCommands(count: number, seed: number): string[] {
  const random = generator(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const plain = [...generatedCommands(count, seed + 1).filter((c) => plainCommandTree(c) !== null), 'ls', 'echo hi', 'make -j2', 'cat a b'];
  const descriptors = ['', '', '', '1', '2', '0', '9', '10', '&'];
  const operators = ['>', '>>', '<', '&>', '&>>', '>|', '>&', '<&', '<<', '<<<', '<>', '>&-', '<&-', '>>|', '&', '|', '>(', '<('];
  const destinations = ['out', 'a.txt', '/dev/null', '1', '2', '-', '-1', '0x1', '~', '~/x', '~root/y', '*.log', 'a?', '=x', 'a=b', 'x,y', ':x', '+x', 'a@b', '"q"', "'q'", '$X', 'a)', ''];
  const spacing = ['', ' ', ' ', '  '];
  // Half of them of the forms the shortcut takes, so that most lines test the building.
  const taken = () => pick(['', '', '1', '2', '&']) + pick(['>', '>>', '>|', '<']) + pick(['', ' ']) + pick(['out', 'a.txt', '/dev/null', '~/x', '1']);
  const redirect = () => (random() < 0.5 ? taken().replace(/^(\d|&)</, '<').replace(/^&>\|/, '&>') : pick(descriptors) + pick(operators) + pick(spacing) + pick(destinations));
  const command = () => {
    let c = pick(plain);
    for (let k = Math.floor(random() * 3); k >= 0; k--) c += pick([' ', ' ', ' ', '', '  ']) + redirect();
    if (random() < 0.1) c += ' ' + pick(['x', '1', "'a'"]);
    return c;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let line = random() < 0.1 ? redirect() + ' ' + pick(plain) : command();
    if (random() < 0.3) line += pick([' | ', ' && ', ' || ', '; ', '|']) + (random() < 0.5 ? pick(plain) : command());
    if (random() < 0.15) line = pick(plain) + pick([' | ', ' && ', '; ']) + line;
    out.push(line);
  }
  return out;
}

describe('pipelines and lists of plain commands built without the parser', () => {
  it('every fixture command the shortcut takes gets exactly the tree tree-sitter gives it', () => {
    const { accepted, differ } = plainTreesThatDiffer(fixtureCommands(), plainTree);
    expect(differ).toEqual([]);
    expect(accepted).toBeGreaterThan(500);
  });
  it('40,000 generated pipelines and lists get exactly the tree tree-sitter gives them, or go to the parser', () => {
    const { accepted, differ } = plainTreesThatDiffer(generatedLists(40_000, 20261202), plainTree);
    expect(differ).toEqual([]);
    expect(accepted).toBeGreaterThan(3000);
  });
  it('40,000 generated commands with quoted words get exactly the tree tree-sitter gives them, or go to the parser', () => {
    const { accepted, differ } = plainTreesThatDiffer(generatedQuotedCommands(40_000, 20261203), plainTree);
    expect(differ).toEqual([]);
    expect(accepted).toBeGreaterThan(2500);
  });
  it('40,000 generated commands with tilde and glob words get exactly the tree tree-sitter gives them, or go to the parser', () => {
    const { accepted, differ } = plainTreesThatDiffer(generatedGlobCommands(40_000, 20261204), plainTree);
    expect(differ).toEqual([]);
    expect(accepted).toBeGreaterThan(5000);
  });
  it('40,000 generated commands with redirections get exactly the tree tree-sitter gives them, or go to the parser', () => {
    const { accepted, differ } = plainTreesThatDiffer(generatedRedirectCommands(40_000, 20261205), plainTree);
    expect(differ).toEqual([]);
    expect(accepted).toBeGreaterThan(3000);
  });
  it.each([
    ['tilde words', 'cat ~/.ssh/id_rsa ~ ~root/x'],
    ['glob words', 'rm -rf ~/* src/*/index.?s'],
    ['single-quoted words', "echo 'a b' 'x|y;z'"],
    ['double-quoted words', 'git commit -m "wip: a & b"'],
    ['empty quoted words', `printf '' ""`],
    ['quoted words in a pipeline', 'grep -rn "import" src | wc -l'],
    ['a pipeline', 'git diff | wc -l'],
    ['a pipeline without spaces', 'ls|wc -l'],
    ['an && list', 'npm ci && npm test'],
    ['an || list', 'make || make clean'],
    ['lists and pipelines mixed (nested to the left)', 'a && b | c || d e'],
    ['statements', 'cd src; ls'],
    ['statements without spaces', 'a;b;c'],
    ['statements of lists', 'a && b; c | d'],
    ['a pipeline of three', 'a | b | c'],
    ['pipelines of two in a list', 'a | b && c | d'],
    ['an output redirection', 'echo hi > out.txt'],
    ['redirections without spaces', 'ls >out 2>>err <in'],
    ['a descriptor duplicated', 'make 2>&1'],
    ['output and errors together', 'ls &> all.log'],
    ['appending both', 'ls &>> all.log'],
    ['the noclobber override', 'ls >| out'],
    ['input duplicated from a descriptor', 'cat <&0'],
    ['several redirections', 'ls > /dev/null 2>&1 < in.txt'],
    ['a redirection on the first command of a pipeline', 'make 2>&1 | tee build.log'],
    ['a redirection on the first command of a list', 'ls > out && cat out'],
    ['redirections in separate statements', 'a > x; b 2> y'],
    ['tilde and glob destinations', 'ls > ~/out.txt 2> *.log'],
  ])('takes %s, with the tree tree-sitter gives: %j', (_what, source) => {
    expect(plainTreesThatDiffer([source], plainTree)).toEqual({ accepted: 1, differ: [] });
  });
  it.each([
    ['a command in the background', 'sleep 1 &'],
    ['a background operator between commands', 'a & b'],
    ['|& (standard error piped too)', 'a |& b'],
    ['an operator at the end', 'a && b;'],
    ['an operator at the start', '| a'],
    ['two operators in a row', 'a | | b'],
    ['a case terminator', 'a ;; b'],
    ['two spaces before an operator', 'a  | b'],
    ['two spaces after an operator', 'a |  b'],
    ['a reserved word after an operator', 'a | if b'],
    ['a declaration after an operator', 'a && export b'],
    ['an assignment after an operator', 'a; b=c d'],
    ['a negation after an operator', 'a && ! b'],
    ['a word the shortcut leaves to the parser', 'a | echo $HOME'],
    ['a pipeline of three in a list (tree-sitter nests it as a | (b | c && d))', 'a | b | c && d'],
    ['a pipeline of three after a list operator', 'a || b | c | d'],
    ['a quoted program name', "'ls' x"],
    ['a tilde in the program name', '~/bin/tool x'],
    ['a glob in the program name', 'l* x'],
    ['a bracket glob', 'ls [ab]c'],
    ['a variable in double quotes', 'echo "$HOME"'],
    ['a command substitution in double quotes', 'echo "`id`"'],
    ['a backslash in double quotes', 'echo "a\\b"'],
    ['a ! in double quotes', 'echo "hi!"'],
    ['double quotes holding only spaces (the grammar gives the closing quote the spaces)', 'echo "  "'],
    ['a quote glued to a word', "echo a'b'"],
    ['a word glued to a quote', "echo 'a'b"],
    ['an unterminated quote', "echo 'abc"],
    ['a tab in quotes', "echo 'a\tb'"],
    ['a newline in quotes', "echo 'a\nb'"],
    ['a redirection before the program (a command node without a redirected_statement)', '>out ls'],
    ['a word after a redirection (a second destination in the grammar)', 'ls > a b'],
    ['a redirection on the last command of a pipeline (the grammar redirects the whole pipeline)', 'a | b > x'],
    ['a redirection on the last command of a list', 'a && b > x'],
    ['a redirection in the middle of a pipeline', 'a | b > x | c'],
    ['a descriptor before < (the grammar reads the digit as an argument)', 'ls 0<x'],
    ['a two-digit descriptor', 'ls 10>x'],
    ['a here-document', 'cat <<EOF'],
    ['a here-string', 'cat <<< x'],
    ['a read-write redirection', 'ls <> x'],
    ['a descriptor closed', 'ls 2>&-'],
    ['a duplication to a file name', 'ls >& out'],
    ['a redirection glued to a word', 'ls>out'],
    ['two spaces before a destination', 'ls >  out'],
    ['a quoted destination', 'ls > "a b"'],
    ['a variable destination', 'ls > $OUT'],
    ['a process substitution', 'diff <(ls) b'],
    ['a redirection with nothing after it', 'ls >'],
  ])('leaves %s to the parser: %j', (_what, source) => {
    expect(plainTree(source)).toBeNull();
  });
});
