// Arithmetic runs code hidden in data. Bash evaluates the text of a value as an expression, and an array
// subscript met during that evaluation is expanded again, command substitutions included:
//   read x < notes.txt; echo $((x))        runs whatever a[$(…)] notes.txt holds
//   echo $(( $(cat notes.txt) ))           the same through the substitution's output
// So arithmetic over a value only known at run time (set by read, from a substitution, a file name a
// glob found) is not provably read-only. Values the command itself spells out are judged where they are
// written (analyze.ts: a literal holding a[$(…)] is already write), and the environment's variables are
// the runner's, not the model's.
import type { SyntaxNode as Node } from './syntax';

/** `[[ a OP b ]]` operators that evaluate both sides as arithmetic (test and [ do not: they want integers). */
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const IDENTIFIERS = /[A-Za-z_][A-Za-z0-9_]*/g;
/** Substitutions whose output is only digits and blanks: wc counting its input, nproc. */
const PRINTS_A_NUMBER = [/^\$\(\s*nproc\s*\)$/, /^\$\((?:[^()`]*\|)?\s*wc(?:\s+-[lcmwL]+)*\s*(?:<\s*[^\s|;&()<>`$]+\s*)?\)$/];

/** A substitution whose output is a count (wc, nproc): arithmetic over it runs nothing. */
export function printsANumber(substitution: string): boolean {
  return PRINTS_A_NUMBER.some((p) => p.test(substitution));
}

/** Where a variable's value came from when only the run knows it; null when the command spells it out. */
export type RuntimeOrigin = (name: string) => string | null;

/** Cheap test on the source: can it hold an arithmetic context at all? (Most commands cannot.) */
export function mayHoldArithmetic(source: string): boolean {
  return /\(\(|\$\[|\[\[|\blet\b|\b(?:declare|typeset|local)\b|\$\{[^}]*:/.test(source);
}

/**
 * The variables a `for NAME in WORDS` loop gives values the run decides: a glob (file names are data), a
 * substitution or an expansion among the words.
 */
export function loopVariablesFromData(root: Node): Map<string, string> {
  const out = new Map<string, string>();
  for (const loop of root.descendantsOfType('for_statement')) {
    const name = loop.childForFieldName('variable')?.text;
    if (!name) continue;
    const values = loop.children.filter((c) => c.field === 'value');
    const data = values.find((v) => !(v.type === 'number' || v.type === 'raw_string' || (v.type === 'word' && !/[*?[\\$`]/.test(v.text))));
    if (data) out.set(name, `a value of ${data.text} the loop goes over`);
  }
  return out;
}

/** Why an arithmetic context in `root` can run code, one reason each; empty when none can. */
export function arithmeticRisks(root: Node, origin: RuntimeOrigin): string[] {
  const out = new Set<string>();
  const stack: { n: Node; arith: boolean }[] = [{ n: root, arith: false }];
  const push = (n: Node, arith: boolean) => stack.push({ n, arith });
  while (stack.length) {
    const { n, arith } = stack.pop()!;
    if (n.type === 'command_substitution' || n.type === 'process_substitution') {
      if (arith && !printsANumber(n.text)) out.add(`arithmetic evaluates what ${n.text} prints, and an array subscript in it (a[$(cmd)]) runs code`);
      for (const c of n.children) push(c, false);
      continue;
    }
    if (arith) {
      const names = n.type === 'variable_name' ? [n.text] : n.type === 'word' ? (n.text.match(IDENTIFIERS) ?? []) : [];
      for (const name of names) {
        const from = origin(name);
        if (from) out.add(`arithmetic evaluates the value of ${name} (${from}), and an array subscript in it (a[$(cmd)]) runs code`);
      }
    }
    const inside = arith || entersArithmetic(n);
    switch (n.type) {
      case 'c_style_for_statement':
        for (const c of n.children) push(c, arith || (c.field !== null && c.field !== 'body'));
        continue;
      case 'binary_expression': {
        const op = n.childForFieldName('operator');
        const both = arith || (op?.type === 'test_operator' && ARITHMETIC_TESTS.has(op.text));
        for (const c of n.children) push(c, both);
        continue;
      }
      case 'expansion': {
        // ${s:offset:length}: the offsets after a bare ':' are arithmetic (not ${s:-x}, ${s:=x}, …).
        let offsets = false;
        for (const c of n.children) {
          if (!c.isNamed && c.type === ':') offsets = true;
          push(c, arith || offsets);
        }
        continue;
      }
      case 'command':
        if (n.childForFieldName('name')?.text === 'let') {
          for (const c of n.children) push(c, c.field === 'argument' || arith);
          continue;
        }
        break;
      case 'declaration_command':
        if (n.children.some((c) => c.type === 'word' && /^-[A-Za-z]*i/.test(c.text))) {
          for (const c of n.children) {
            if (c.type === 'variable_assignment') for (const v of c.children) push(v, v.field === 'value' || arith);
            else push(c, arith);
          }
          continue;
        }
        break;
    }
    for (const c of n.children) push(c, inside);
  }
  return [...out];
}

/** Nodes whose whole inside is arithmetic: $((…)), $[…] and the (( … )) command. */
function entersArithmetic(n: Node): boolean {
  if (n.type === 'arithmetic_expansion') return true;
  return n.type === 'compound_statement' && n.children[0]?.type === '((';
}
