// Lint: typescript-eslint's recommended rules, plus the import boundaries of DESIGN.md as errors.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = { group: ['node:*'], message: 'common/ and renderer/ run everywhere: no Node built-ins.' };
const electronOnlyInGlue = { name: 'electron', message: "Only main/app/ and preload/ may import 'electron'." };
const sqliteOnlyInStore = { name: 'better-sqlite3', message: 'Only main/store/ may import better-sqlite3.' };

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
  {
    files: ['main/app/**', 'preload/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      // The Electron main process is a thin shell: the core (and its native modules) runs in its own
      // process (docs/desktop.md); test/build.test.ts checks the built bundles as well.
      'no-restricted-imports': [
        'error',
        {
          paths: [sqliteOnlyInStore, { name: 'node-pty', message: 'The desktop shell loads no native module: the executor runs in the core process.' }],
          patterns: [{ group: ['**/store/**', '**/executor/**', '**/agent/**', '**/gate/**', '**/calls/**', '**/policy/**', '**/reviewer/**', '**/runtime/runtime', '**/runtime/handlers'], message: 'The desktop shell holds none of the core: talk to it through the core link (main/app/core-link.ts).' }],
        },
      ],
    },
  },
  {
    files: ['main/store/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronOnlyInGlue] }] },
  },
  {
    // The executor is Node only and below main/ (DESIGN.md, "Layout"): shared data it needs lives in common/.
    files: ['executor/**'],
    ignores: ['executor/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [electronOnlyInGlue, sqliteOnlyInStore], patterns: [{ group: ['**/main/**'], message: 'executor/ imports nothing from main/: move what it shares into common/.' }] }],
    },
  },
  {
    files: ['common/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [electronOnlyInGlue, sqliteOnlyInStore], patterns: [nodeBuiltins] }],
    },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInGlue, sqliteOnlyInStore],
          patterns: [nodeBuiltins, { group: ['**/main/**', '**/executor/**'], message: 'The renderer reaches the main process only through the preload API.' }],
        },
      ],
    },
  },
);
