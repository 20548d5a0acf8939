import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser, parseShell } from './parser';
import { copyTree } from './syntax';
import { decodeAnsiC, evaluateWord, expandBraces } from './words';

beforeAll(async () => {
  await initShellParser();
});

/** The value bash would give the program name of `source`. */
function programValue(source: string): { value: string; literal: boolean } {
  const tree = parseShell(source);
  const root = copyTree(tree, source);
  tree.delete();
  const name = root.descendantsOfType('command_name')[0]!;
  const w = evaluateWord(name, { home: '/home/user' });
  return { value: w.value, literal: w.literal };
}

describe('evaluateWord undoes quoting the way bash does', () => {
  it.each([
    { source: 'rm x', value: 'rm' },
    { source: 'r"m" x', value: 'rm' },
    { source: "r'm' x", value: 'rm' },
    { source: '\\rm x', value: 'rm' },
    { source: 'r\\m x', value: 'rm' },
    { source: "$'\\x72m' x", value: 'rm' },
    { source: "$'\\162m' x", value: 'rm' },
    { source: "$'\\u0072m' x", value: 'rm' },
    { source: '"rm" x', value: 'rm' },
    { source: '"$HOME/bin/tool" x', value: '/home/user/bin/tool' },
    { source: '${HOME}/bin/tool x', value: '/home/user/bin/tool' },
  ])('$source names $value', ({ source, value }) => {
    expect(programValue(source)).toEqual({ value, literal: true });
  });

  it.each([{ source: '$cmd -rf /' }, { source: '"$(echo rm)" -rf /' }, { source: '${X:-rm} x' }, { source: '`echo rm` x' }])('$source is not literal', ({ source }) => {
    expect(programValue(source).literal).toBe(false);
  });
});

describe('decodeAnsiC', () => {
  it.each([
    { body: '\\x72\\x6d', want: 'rm' },
    { body: '\\n\\t', want: '\n\t' },
    { body: '\\101', want: 'A' },
    { body: '\\u00e9', want: 'é' },
    { body: "it\\'s", want: "it's" },
    { body: '\\cA', want: '\x01' },
  ])('$body decodes to $want', ({ body, want }) => {
    expect(decodeAnsiC(body)).toBe(want);
  });
});

describe('expandBraces', () => {
  it.each([
    { value: '{rm,-rf,/}', want: ['rm', '-rf', '/'] },
    { value: '/{etc,usr}', want: ['/etc', '/usr'] },
    { value: 'a{1..3}', want: ['a1', 'a2', 'a3'] },
    { value: 'x{a,{b,c}}y', want: ['xay', 'xby', 'xcy'] },
    { value: 'file{}', want: ['file{}'] },
    { value: 'plain', want: ['plain'] },
    { value: '{single}', want: ['{single}'] },
  ])('$value expands to $want', ({ value, want }) => {
    expect(expandBraces(value)).toEqual(want);
  });
});
