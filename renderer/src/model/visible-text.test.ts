import { describe, expect, it } from 'vitest';
import { hiddenCount, visiblePieces, visibleText } from './visible-text';

describe('hidden characters are made visible', () => {
  it.each([
    ['plain ASCII stays as it is', 'ls -la', 'ls -la'],
    ['a newline stays a newline', 'a\nb', 'a\nb'],
    ['a tab becomes \\t', 'a\tb', 'a\\tb'],
    ['a carriage return becomes \\r (it can hide the start of a line)', 'rm -rf /\recho ok', 'rm -rf /\\recho ok'],
    ['an escape character becomes \\e (terminal tricks)', 'echo \x1b[2Kok', 'echo \\e[2Kok'],
    ['a right-to-left override is named', 'echo \u202Etxt.exe', 'echo <RLO>txt.exe'],
    ['bidi isolates are named', 'a\u2066b\u2069', 'a<LRI>b<PDI>'],
    ['a zero-width space is named', 'rm\u200B -rf', 'rm<ZWSP> -rf'],
    ['a zero-width joiner is named', 'a\u200Db', 'a<ZWJ>b'],
    ['a byte-order mark is named', '\uFEFFls', '<BOM>ls'],
    ['a no-break space is named (it looks like a space but is not one to the shell)', 'ls\u00A0-la', 'ls<NBSP>-la'],
    ['a Unicode tag character shows its code point', 'ok\u{E0041}', 'ok<U+E0041>'],
    ['a C1 control shows its code point', 'a\u0085b', 'a<U+0085>b'],
    ['a soft hyphen is named', 'pass\u00ADwd', 'pass<SHY>wd'],
    ['a Hangul filler shows its code point', 'x\u3164y', 'x<U+3164>y'],
    ['accented letters and emoji are left alone', 'café 🙂', 'café 🙂'],
  ])('%s', (_name, input, expected) => {
    expect(visibleText(input)).toEqual(expected);
  });

  it('marks which pieces are escapes, so the card can box them', () => {
    expect(visiblePieces('a\u202Eb')).toEqual([
      { text: 'a', escaped: false },
      { text: '<RLO>', escaped: true },
      { text: 'b', escaped: false },
    ]);
  });

  it.each([
    ['no hidden characters', 'git status', 0],
    ['two hidden characters', 'a\u200Bb\u202Ec', 2],
  ])('counts hidden characters: %s', (_n, input, count) => {
    expect(hiddenCount(input)).toEqual(count);
  });
});
