import { describe, expect, it } from 'vitest';
import { jsonTextDepth, nestingDepth } from './nesting';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('nesting depth is measured without recursion', () => {
  it.each([
    { name: 'a scalar', value: 'x', depth: 0 },
    { name: 'an empty object', value: {}, depth: 1 },
    { name: 'an object in an array', value: [{ a: 1 }], depth: 2 },
    { name: 'the deepest branch of a wide value', value: { a: [1], b: { c: { d: [] } } }, depth: 4 },
    { name: '100,000 levels, stopping past the limit', value: JSON.parse(nested(100_000)) as unknown, depth: 65 },
  ])('$name', ({ value, depth }) => {
    expect(nestingDepth(value)).toEqual(depth);
  });

  it.each([
    { name: 'brackets inside strings do not count', text: '{"a":"[[[[{{{{"}', depth: 1 },
    { name: 'an escaped quote does not end the string', text: '{"a":"\\"[[[["}', depth: 1 },
    { name: 'an escaped backslash before the closing quote', text: '{"a":"\\\\","b":[[1]]}', depth: 3 },
    { name: 'unterminated nesting counts what was opened', text: '[[[[', depth: 4 },
    { name: '100,000 levels of text, stopping past the limit', text: nested(100_000), depth: 65 },
  ])('in JSON text: $name', ({ text, depth }) => {
    expect(jsonTextDepth(text)).toEqual(depth);
  });
});
