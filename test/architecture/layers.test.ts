// The layers of DESIGN.md as checks, over the whole import graph: every import goes down the table in
// eslint.config.js (dynamic imports and JavaScript included, which the lint rule does not see), every
// folder has a place in it, there is no import cycle (type-only imports count: a cycle of types is still a
// tangle), and the lint rule itself refuses an import that climbs.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { areaOf, cycles, importEdges, isTestFile, ROOT, sourceFiles, type ImportEdge } from './import-graph';

type LayerConfig = { LAYERS: string[][]; allowedImports(): Map<string, string[]> };
let config: LayerConfig;
let edges: ImportEdge[];
beforeAll(async () => {
  config = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as LayerConfig;
  edges = importEdges(sourceFiles());
});

/** Product code: tests and the bin/ scripts may reach anything. */
const isProduct = (file: string) => !isTestFile(file) && !file.startsWith('bin/');

describe('the layers', () => {
  it('every folder of main/ and every top folder of code has a place in the table', () => {
    const allowed = config.allowedImports();
    const folders = [...readdirSync(join(ROOT, 'main'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `main/${e.name}`), 'common', 'node', 'executor', 'preload', 'renderer'];
    expect(folders.filter((f) => !allowed.has(f))).toEqual([]);
  });

  it('no import climbs a layer or crosses to a peer (the whole graph: dynamic imports and JavaScript too)', () => {
    const allowed = config.allowedImports();
    const climbs = edges
      .filter((e) => isProduct(e.from))
      .filter((e) => {
        const from = areaOf(e.from);
        const to = areaOf(e.to);
        return from !== to && !(allowed.get(from) ?? []).includes(to);
      })
      .map((e) => `${e.from} -> ${e.to}`);
    expect(climbs).toEqual([]);
  });

  it('executor/ imports nothing from main/', () => {
    expect(edges.filter((e) => e.from.startsWith('executor/') && isProduct(e.from) && e.to.startsWith('main/')).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });
});

describe('import cycles', () => {
  it('no two source files import each other, directly or through others', () => {
    expect(cycles(edges.filter((e) => !isTestFile(e.from)))).toEqual([]);
  });

  it.each([
    { name: 'a direct cycle', edges: [['a', 'b'], ['b', 'a']], want: [['a', 'b']] },
    { name: 'a cycle through a third file', edges: [['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']], want: [['a', 'b', 'c']] },
    { name: 'a file importing itself', edges: [['a', 'a']], want: [['a']] },
    { name: 'a diamond, which is no cycle', edges: [['a', 'b'], ['a', 'c'], ['b', 'd'], ['c', 'd']], want: [] },
  ])('the check finds $name', ({ edges: list, want }) => {
    expect(cycles(list.map(([from, to]) => ({ from: from!, to: to!, typeOnly: false })))).toEqual(want);
  });
});

describe('the lint rule', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: ROOT });
  });
  it.each([
    { file: 'main/gate/x.ts', imports: '../calls/pipeline', refused: true },
    { file: 'main/gate/x.ts', imports: '../agent/agent', refused: true },
    { file: 'main/policy/x.ts', imports: '../gate/gate', refused: true },
    { file: 'main/policy/classifier/programs/x.ts', imports: '../../../store/store', refused: true },
    { file: 'main/calls/x.ts', imports: '../hooks/external-calls', refused: true },
    { file: 'main/agent/x.ts', imports: '../hooks/external-calls', refused: true },
    { file: 'main/agent/x.ts', imports: '../runtime/core', refused: true },
    { file: 'executor/x.ts', imports: '../main/policy/paths', refused: true },
    { file: 'executor/jail/x.ts', imports: '../../main/policy/hosts', refused: true },
    { file: 'common/x.ts', imports: '../executor/run', refused: true },
    { file: 'main/app/x.ts', imports: '../gate/gate', refused: true },
    { file: 'renderer/src/x.ts', imports: '../../main/runtime/core', refused: true },
    { file: 'main/calls/x.ts', imports: '../gate/gate', refused: false },
    { file: 'main/agent/x.ts', imports: '../calls/pipeline', refused: false },
    { file: 'main/runtime/x.ts', imports: '../agent/agent', refused: false },
    { file: 'renderer/src/x.ts', imports: '../store/store', refused: false },
    { file: 'main/gate/x.test.ts', imports: '../runtime/core', refused: false },
  ])('$file importing $imports: refused=$refused', async ({ file, imports, refused }) => {
    const [r] = await eslint.lintText(`import { x } from '${imports}';\nexport const y = x;\n`, { filePath: join(ROOT, file) });
    expect(r!.messages.some((m) => m.ruleId === 'no-restricted-imports')).toBe(refused);
  });
});

describe('the graph reader', () => {
  it('sees static, type-only, re-exported and dynamic imports', () => {
    const from = (file: string) => edges.filter((e) => e.from === file).map((e) => `${e.typeOnly ? 'type ' : ''}${e.to}`);
    expect({
      dynamic: from('main/cli/index.ts').some((e) => e.startsWith('main/config/')),
      typeOnly: from('main/calls/runner.ts').includes('type main/policy/evaluate.ts'),
      javascript: from('bin/cli-bundle.js').includes('node/pid-lock.js'),
    }).toEqual({ dynamic: true, typeOnly: true, javascript: true });
  });
});
