// Hand-made hostile inputs shared by the fuzz targets, and fast-check arbitraries that mix them in.
import fc from 'fast-check';

const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Strings no boundary should choke on. */
export const NASTY_STRINGS: string[] = [
  '',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uFFFD\uFEFF',
  '\r',
  'a\rb',
  '\u2028\u2029',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '💥'.repeat(1000),
  'x'.repeat(1024 * 1024),
  nestedArrays(2000),
  nestedObjects(2000),
  '$('.repeat(500) + 'x' + ')'.repeat(500),
  '"'.repeat(10_000),
  '\\'.repeat(10_001),
];

/** JSON values no boundary should choke on (parsed, so prototype keys are own data keys). */
export const NASTY_VALUES: unknown[] = [
  ...NASTY_STRINGS,
  null,
  true,
  -0,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  [],
  {},
  JSON.parse(nestedArrays(5000)),
  JSON.parse(nestedObjects(5000)),
  JSON.parse(nestedArrays(100_000)),
  JSON.parse('{"__proto__":{"polluted":true}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
  JSON.parse('{"__proto__":null,"toString":"x","valueOf":1,"hasOwnProperty":[]}'),
  Array.from({ length: 100_000 }, (_, i) => i),
  Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])),
];

/** Invalid UTF-8 byte sequences (as bytes), for inputs read from files or sockets. */
export const INVALID_UTF8: Uint8Array[] = [
  Uint8Array.of(0xff),
  Uint8Array.of(0xc0, 0xaf),
  Uint8Array.of(0xed, 0xa0, 0x80),
  Uint8Array.of(0xe2, 0x82),
  Uint8Array.of(0xf4, 0x90, 0x80, 0x80),
  Uint8Array.of(0x80, 0x80, 0x80),
];

/** Strings, with nasty ones, unicode, and lone surrogates (fast-check's binary strings). */
export const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS.filter((s) => s.length < 5000)) },
);

/** JSON-like values whose keys may be prototype names, and whose strings may be nasty. */
export const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(anyString, fc.constantFrom('__proto__', 'constructor', 'toString', 'prototype')), tie('value'), { maxKeys: 5 }).map(asJsonObject),
  ),
})).value;

/** An object as JSON.parse makes it: "__proto__" becomes an own key, not the prototype. */
function asJsonObject(o: Record<string, unknown>): unknown {
  try {
    return JSON.parse(JSON.stringify(o)) as unknown;
  } catch {
    return o;
  }
}

/** A value from the generator or a hand-made one. */
export const anyOrNasty = fc.oneof({ weight: 9, arbitrary: anyValue }, { weight: 1, arbitrary: fc.constantFrom(...NASTY_VALUES) });
