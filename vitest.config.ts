import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{common,main,executor,preload,renderer,test}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'test/e2e/**'],
    testTimeout: 20_000,
  },
});
