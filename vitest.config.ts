import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/e2e runs too: a real daemon in web mode driven in Chromium (each file shares one browser).
    include: ['{common,main,executor,preload,renderer,test}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**'],
    testTimeout: 20_000,
  },
});
