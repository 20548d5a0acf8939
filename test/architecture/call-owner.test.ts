// A call has one owner: exactly one module (main/calls/record.ts) holds the call lifecycle, the one
// transition function that writes a call's moves, and emits the events that tell every surface about a
// call (call.state, approval.*, review.*, grant.created). Read from the sources' syntax trees, so a second
// writer or emitter anywhere in the product fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { isTestFile, ROOT, sourceFiles } from './import-graph';

const RECORDER = 'main/calls/record.ts';
const CALL_EVENT = /^(call\.state|approval\.[a-z_]+|review\.[a-z_]+|grant\.created)$/;

const product = sourceFiles().filter((f) => /\.tsx?$/.test(f) && !isTestFile(f));

/** The string values an expression can take when they are written in it (a literal, or either branch of a ?:). */
function literals(e: ts.Expression): string[] | null {
  if (ts.isStringLiteralLike(e)) return [e.text];
  if (ts.isParenthesizedExpression(e)) return literals(e.expression);
  if (ts.isConditionalExpression(e)) {
    const a = literals(e.whenTrue);
    const b = literals(e.whenFalse);
    return a && b ? [...a, ...b] : null;
  }
  return null;
}

interface Found {
  lifecycle: string[];
  emits: string[];
}

function scan(file: string, text: string): Found {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Found = { lifecycle: [], emits: [] };
  const visit = (n: ts.Node): void => {
    // The lifecycle is reached only by importing it (its class, or the instance type to be handed one).
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && /store\/call-lifecycle$/.test(n.moduleSpecifier.text)) {
      const named = n.importClause?.namedBindings;
      if (named && ts.isNamedImports(named) && named.elements.some((el) => (el.propertyName ?? el.name).text === 'CallLifecycle')) found.lifecycle.push(file);
    }
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'emit' && n.arguments[0]) {
      const names = literals(n.arguments[0]);
      // A name the reader cannot see is suspect too: it could be any event.
      if (!names || names.some((x) => CALL_EVENT.test(x))) found.emits.push(`${file}: ${names ? names.join(' | ') : n.arguments[0].getText(sf)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('a call has one owner', () => {
  const all = product.map((f) => scan(f, readFileSync(join(ROOT, f), 'utf8')));

  it('exactly one module holds the call lifecycle (the transition function)', () => {
    expect([...new Set(all.flatMap((f) => f.lifecycle))]).toEqual([RECORDER]);
  });

  it("exactly one module emits a call's events (call.state, approval.*, review.*, grant.created)", () => {
    expect([...new Set(all.flatMap((f) => f.emits).map((e) => e.split(':')[0]))]).toEqual([RECORDER]);
  });

  it.each([
    { name: 'a direct emit of call.state', code: "bus.emit('call.state', x);", emits: 1, lifecycle: 0 },
    { name: 'an approval event chosen by a condition', code: "bus.emit(ok ? 'approval.decided' : 'session.note', x);", emits: 1, lifecycle: 0 },
    { name: 'an emit whose name is computed', code: 'bus.emit(name, x);', emits: 1, lifecycle: 0 },
    { name: 'an unrelated event', code: "bus.emit('turn.text', x);", emits: 0, lifecycle: 0 },
    { name: 'the lifecycle imported under another name', code: "import { CallLifecycle as L } from '../store/call-lifecycle';", emits: 0, lifecycle: 1 },
    { name: 'the lifecycle imported as a type', code: "import type { CallLifecycle } from '../../main/store/call-lifecycle';", emits: 0, lifecycle: 1 },
    { name: 'only the step types', code: "import type { Step } from '../store/call-lifecycle';", emits: 0, lifecycle: 0 },
  ])('the scan finds $name', ({ code, emits, lifecycle }) => {
    const f = scan('main/x/y.ts', code);
    expect({ emits: f.emits.length, lifecycle: f.lifecycle.length }).toEqual({ emits, lifecycle });
  });
});
