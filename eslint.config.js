// Lint: typescript-eslint's recommended rules, plus the layers of DESIGN.md as errors (the way VS Code
// lints its layers): every folder may import only the folders below it in LAYERS, never one above nor a
// peer in its own layer. test/architecture/layers.test.ts checks the same table on the whole import graph
// (dynamic imports and JavaScript included), and that there are no import cycles. docs/architecture.md
// explains each layer.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * Bottom to top. A folder may import every folder of the layers below its own; tests (*.test.ts, test/)
 * and bin/ scripts may import anything.
 */
export const LAYERS = [
  ['common'], // pure TypeScript for every runtime: the operations table, domain types, pure helpers
  ['node'], // plain-JavaScript Node helpers every process shares (pid lock, PATH search)
  ['executor'], // the jail, processes, egress, checkpoints' git: Node only, nothing of main/
  ['main/policy', 'main/redact'], // pure decisions and the one redaction
  ['main/config'], // the config file, data directories, settings layers
  ['main/store', 'main/providers', 'main/web'], // SQLite, model providers, the web server as a transport
  ['main/control', 'main/reviewer'], // the control socket as a transport, the reviewer model
  ['main/gate'], // the decision: judge, shortcut, park, decide, waiters and timers
  ['main/calls'], // a call's owner: the pipeline, its runners, the one recorder
  ['main/agent', 'main/hooks', 'main/mcp-gateway', 'main/remote'], // the callers of the pipeline and the surfaces that decide
  ['main/runtime'], // the composition root: the core's services, handlers, the runtime
  ['main/cli'], // the command line
];

/** Folders outside the stack, with exactly what they may import. */
export const ISLANDS = {
  // The desktop shell holds none of the core (docs/desktop.md); test/build.test.ts checks its bundle too.
  'main/app': ['common', 'node', 'main/config', 'main/control', 'main/web'],
  preload: ['common'],
  renderer: ['common'],
};

/** Every folder the layers name, and what each may import. */
export function allowedImports() {
  const allowed = new Map();
  LAYERS.forEach((layer, i) => {
    const below = LAYERS.slice(0, i).flat();
    for (const area of layer) allowed.set(area, below);
  });
  for (const [area, list] of Object.entries(ISLANDS)) allowed.set(area, list);
  return allowed;
}

const nodeBuiltins = { group: ['node:*'], message: 'common/ and renderer/ run everywhere: no Node built-ins.' };
const electronOnlyInGlue = { name: 'electron', message: "Only main/app/ and preload/ may import 'electron'." };
const sqliteOnlyInStore = { name: 'better-sqlite3', message: 'Only main/store/ may import better-sqlite3.' };
const nativeNotInShell = { name: 'node-pty', message: 'The desktop shell loads no native module: the executor runs in the core process.' };

/** The import specifiers that reach a folder: `../gate/x`, `../../main/gate/x`, `../gate`. */
function reaching(area) {
  const name = area.split('/').pop();
  return [`**/${name}`, `**/${name}/**`];
}

function layerRule(area, allowed) {
  const forbidden = [...allowedImports().keys()].filter((a) => a !== area && !allowed.includes(a));
  // Outside main/, folders of main/ are reached only through main/ itself (../main/...): naming main/
  // is exact, where a folder's own name could be one of theirs (renderer/src/store).
  const names = area.startsWith('main/') ? forbidden : [...forbidden.filter((a) => !a.startsWith('main/')), ...(forbidden.some((a) => a.startsWith('main/')) ? ['main'] : [])];
  return {
    group: [...new Set(names.flatMap(reaching))],
    message: `${area}/ may import only ${allowed.length ? allowed.join(', ') : 'itself'} (layers: eslint.config.js, docs/architecture.md). Move the code to where it belongs.`,
  };
}

/** The extra restrictions of a folder beside its layer. */
function extrasOf(area) {
  if (area === 'main/store') return { paths: [electronOnlyInGlue], patterns: [] };
  if (area === 'main/app') return { paths: [sqliteOnlyInStore, nativeNotInShell], patterns: [] };
  if (area === 'preload') return { paths: [sqliteOnlyInStore], patterns: [] };
  if (area === 'common' || area === 'renderer') return { paths: [electronOnlyInGlue, sqliteOnlyInStore], patterns: [nodeBuiltins] };
  return { paths: [electronOnlyInGlue, sqliteOnlyInStore], patterns: [] };
}

const layerConfigs = [...allowedImports()].map(([area, allowed]) => {
  const extras = extrasOf(area);
  return {
    files: [`${area}/**`],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { paths: extras.paths, patterns: [...extras.patterns, layerRule(area, allowed)] }] },
  };
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'bin/**', 'test-results/**', '.scratch/**', '.test-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [electronOnlyInGlue, sqliteOnlyInStore] }],
    },
  },
  ...layerConfigs,
  {
    // The store's own tests open SQLite directly.
    files: ['main/store/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronOnlyInGlue] }] },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
