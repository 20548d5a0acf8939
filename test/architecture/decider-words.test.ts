// No logic reads a decider's words. Who or what decided is a tagged union (common/decided-by.ts) that is
// stored beside its words and sent over every wire as `by`; the words (formatDecidedBy) are for people
// and scripts. This scan of the product's syntax trees fails on any prefix test, slice, split, pattern
// match, comparison or switch on a decider's stored words, in TypeScript or in the SQL it holds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { isTestFile, ROOT, sourceFiles } from './import-graph';

/** Names that hold a decider's stored words. */
const WORDS = /^(a_)?decided_?by$/i;
/** What reading words looks like. */
const STRING_READS = new Set(['startsWith', 'endsWith', 'slice', 'substring', 'substr', 'split', 'indexOf', 'lastIndexOf', 'includes', 'match', 'matchAll', 'replace', 'replaceAll', 'search', 'at', 'charAt', 'test', 'exec']);
/** SQL that compares or cuts the words column. */
const SQL_READS = /\b(WHERE|AND|OR|ON|WHEN)\s+[\w.]*decided_by\s*(=|<>|!=|\bIN\b|\bLIKE\b|\bGLOB\b)|(substr|instr|like|glob)\s*\(\s*[\w.]*decided_by/i;
/**
 * The one place that reads old words: migration 15 converts rows written before deciders were stored as
 * data, once, at upgrade (main/store/migrations.ts legacyDecider); nothing reads the words after it.
 */
const CONVERTS_OLD_ROWS = 'main/store/migrations.ts';

function holdsWords(e: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e)) return holdsWords(e.expression);
  if (ts.isIdentifier(e)) return WORDS.test(e.text);
  if (ts.isPropertyAccessExpression(e)) return WORDS.test(e.name.text);
  if (ts.isElementAccessExpression(e)) return ts.isStringLiteralLike(e.argumentExpression) && WORDS.test(e.argumentExpression.text);
  return false;
}

function isStringLiteral(e: ts.Expression): boolean {
  return ts.isStringLiteralLike(e) || ts.isTemplateExpression(e);
}

function scan(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (n: ts.Node, what: string) => found.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${what}`);
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : null;
      if (method && STRING_READS.has(method) && ts.isPropertyAccessExpression(callee) && holdsWords(callee.expression)) at(n, `${method}() on a decider's words`);
      // A regular expression tested against the words.
      if (method && (method === 'test' || method === 'exec') && n.arguments.some(holdsWords)) at(n, `a pattern matched against a decider's words`);
    }
    if (ts.isBinaryExpression(n) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(n.operatorToken.kind)) {
      if ((holdsWords(n.left) && isStringLiteral(n.right)) || (holdsWords(n.right) && isStringLiteral(n.left))) at(n, "a decider's words compared with a string");
    }
    if (ts.isSwitchStatement(n) && holdsWords(n.expression)) at(n, "a switch on a decider's words");
    if ((ts.isStringLiteralLike(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) && file !== CONVERTS_OLD_ROWS && SQL_READS.test(n.text)) at(n, "SQL that reads a decider's words");
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('no logic reads a decider as words', () => {
  it('nowhere in the product (TypeScript, TSX, and the SQL in them)', () => {
    const product = sourceFiles().filter((f) => /\.tsx?$/.test(f) && !isTestFile(f));
    expect(product.flatMap((f) => scan(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it.each([
    { name: 'a prefix test', code: "if (row.decided_by.startsWith('grant:')) x();", found: 1 },
    { name: 'a slice after a prefix', code: "const d = r.decided_by!.slice('grant:'.length);", found: 1 },
    { name: 'a split', code: "const [kind] = decidedBy.split(':');", found: 1 },
    { name: 'a comparison', code: "if (e.payload.decided_by === 'session_approve_all') x();", found: 1 },
    { name: 'a comparison the other way round', code: "if ('ttl' !== d.decided_by) x();", found: 1 },
    { name: 'a switch', code: "switch (row['decided_by']) { case 'web': break; }", found: 1 },
    { name: 'a pattern', code: 'if (/^person:/.test(c.decided_by)) x();', found: 1 },
    { name: 'SQL that cuts the column', code: "db.prepare('SELECT * FROM t WHERE substr(c.decided_by, 1, 6) = ?');", found: 1 },
    { name: 'SQL that compares the column', code: "db.prepare(`SELECT count(*) FROM approvals WHERE decided_by = 'session_approve_all'`);", found: 1 },
    { name: 'the tag read as data', code: "if (d.by?.kind === 'session_approve_all') x();", found: 0 },
    { name: 'the words shown as they are', code: 'const line = `by ${d.decided_by}`;', found: 0 },
    { name: 'the words stored', code: "db.prepare('UPDATE approvals SET decided_by = ?, decider = ?');", found: 0 },
  ])('the scan finds $name', ({ code, found }) => {
    expect(scan('main/x/y.ts', code).length).toBe(found);
  });
});
