import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueFor, MODEL_CATALOGUES } from './model-catalogue';

/** The model ids a provider package's type declarations list (the catalogue is copied from them). */
function declared(pkg: string, typeName: string): string[] {
  const require = createRequire(import.meta.url);
  const dts = readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), 'dist', 'index.d.ts'), 'utf8');
  const union = new RegExp(`type ${typeName} = ([^;]*);`).exec(dts)?.[1] ?? '';
  return [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

describe('model catalogues', () => {
  it.each([
    { kind: 'anthropic' as const, pkg: '@ai-sdk/anthropic', type: 'AnthropicMessagesModelId' },
    { kind: 'openai' as const, pkg: '@ai-sdk/openai', type: 'OpenAIChatModelId' },
  ])('the $kind catalogue is exactly the model ids $pkg declares', ({ kind, pkg, type }) => {
    expect(MODEL_CATALOGUES[kind]).toEqual(declared(pkg, type));
  });

  it.each([
    { name: 'the provider\'s own endpoint has its catalogue', kind: 'anthropic' as const, url: 'https://api.anthropic.com/v1/', has: true },
    { name: 'a proxy in front of the provider has none', kind: 'anthropic' as const, url: 'http://127.0.0.1:8080/v1', has: false },
    { name: 'an OpenAI-compatible server has none', kind: 'openai-compatible' as const, url: 'http://127.0.0.1:11434/v1', has: false },
  ])('$name', ({ kind, url, has }) => {
    const defaults = { anthropic: 'https://api.anthropic.com/v1', openai: 'https://api.openai.com/v1', 'openai-compatible': 'http://127.0.0.1:11434/v1' };
    expect(catalogueFor(kind, url, defaults[kind]) !== null).toBe(has);
  });
});
