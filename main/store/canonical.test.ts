import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';

/** The recursive definition, kept here as the reference the iterative one must match. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
}

describe('canonical JSON', () => {
  it.each([
    { name: 'keys sorted at every level', value: { b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } }, text: '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}' },
    { name: 'undefined members dropped, undefined elements null', value: { a: undefined, b: [undefined] }, text: '{"b":[null]}' },
    { name: 'prototype-named keys kept as data', value: JSON.parse('{"__proto__":1,"constructor":2}') as unknown, text: '{"__proto__":1,"constructor":2}' },
  ])('$name', ({ value, text }) => {
    expect(canonicalJson(value)).toEqual(text);
  });

  it('matches the recursive definition on any JSON value (content hashes and the audit chain stay the same)', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => canonicalJson(v) === reference(v)), { numRuns: 500 });
  });

  it('serialises a value nested 200,000 deep, which the recursive form could not', () => {
    const deep = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)) as unknown;
    expect(() => reference(deep)).toThrow(RangeError);
    expect(canonicalJson(deep).length).toEqual(400_000);
  });
});
