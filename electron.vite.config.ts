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
        // The main process is the desktop shell: no native module, none of the core (test/build.test.ts
        // checks the output). The core runs in its own process (the command line's bundle).
        main: {
          build: {
            outDir: 'out/main',
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
