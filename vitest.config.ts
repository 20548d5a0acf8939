import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/e2e runs too: a real daemon in web mode driven in Chromium (each file shares one browser).
    include: ['{common,node,main,executor,preload,renderer,test}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**'],
    // A ceiling for tests that start daemons and CLI processes on a slow or busy machine, not a timing target.
    testTimeout: 60_000,
  },
});
