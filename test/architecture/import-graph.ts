// The import graph of Threshold's own sources, read the way the bundlers resolve it: every static import
// and re-export, every dynamic import() of a literal path, type-only imports marked as such. What the
// layer and cycle checks (./layers.test.ts) walk.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '..', '..');
/** The source folders: product code (and bin/ scripts); tests are walked too, but nothing imports them. */
const SOURCE_ROOTS = ['common', 'node', 'executor', 'main', 'preload', 'renderer', 'bin', 'test'];

export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

export function isTestFile(file: string): boolean {
  return /\.(test|bench)\.tsx?$/.test(file) || file.startsWith('test/');
}

export function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === 'node_modules' || e.name === 'fixtures') continue;
        walk(rel);
      } else if (/\.(ts|tsx|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const r of SOURCE_ROOTS) if (existsSync(join(ROOT, r))) walk(r);
  return out.sort();
}

/** The file an import names, as the bundler resolves it (extensionless, index files, .js for a .ts). */
function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(join(ROOT, from)), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx'), base.replace(/\.js$/, '.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return relative(ROOT, c);
  }
  return null;
}

function typeOnlyImport(n: ts.ImportDeclaration): boolean {
  const c = n.importClause;
  if (!c) return false;
  if (c.isTypeOnly) return true;
  const named = c.namedBindings;
  return !c.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

export function importEdges(files: readonly string[] = sourceFiles()): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const sf = ts.createSourceFile(from, readFileSync(join(ROOT, from), 'utf8'), ts.ScriptTarget.Latest, true);
    const add = (spec: string, typeOnly: boolean) => {
      const to = resolveImport(from, spec);
      if (to) edges.push({ from, to, typeOnly });
    };
    const visit = (n: ts.Node): void => {
      if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) add(n.moduleSpecifier.text, typeOnlyImport(n));
      else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) add(n.moduleSpecifier.text, n.isTypeOnly);
      else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) add(n.arguments[0].text, false);
      else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) add(n.argument.literal.text, true);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return edges;
}

/** The folder a file belongs to for layering: main/<folder> inside main/, else its top folder. */
export function areaOf(file: string): string {
  const [top, second] = file.split('/');
  return top === 'main' && second && !second.includes('.') ? `main/${second}` : top!;
}

/** Groups of files that import each other, directly or through others (Tarjan's strongly connected components). */
export function cycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from)!.add(e.to);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || next.get(v)?.has(v)) found.push(group.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}
