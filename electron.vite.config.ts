import { resolve } from 'node:path';
import { defineConfig, type UserConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const root = import.meta.dirname;

const renderer: UserConfig['renderer'] = {
  root: resolve(root, 'renderer'),
  build: {
    outDir: resolve(root, 'out/renderer'),
    rollupOptions: { input: { index: resolve(root, 'renderer/index.html') } },
  },
  plugins: [react()],
};

// `electron-vite build -m renderer` builds the renderer alone: what web mode serves (main/web/bundle.ts).
export default defineConfig(({ mode }) =>
  mode === 'renderer'
    ? { renderer }
    : {
        main: {
          build: {
            outDir: 'out/main',
            externalizeDeps: { include: ['better-sqlite3', 'node-pty', 'web-tree-sitter', 'tree-sitter-bash'] },
            rollupOptions: { input: { index: resolve(root, 'main/app/index.ts') } },
          },
        },
        preload: {
          build: {
            outDir: 'out/preload',
            rollupOptions: { input: { index: resolve(root, 'preload/index.ts') } },
          },
        },
        renderer,
      },
);
