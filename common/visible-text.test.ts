import { describe, expect, it } from 'vitest';
import { hiddenCount, isHiddenCodePoint, visibleJson, visiblePieces, visibleText } from './visible-text';

describe('the one escaping rule makes hidden characters visible', () => {
  it.each([
    ['plain ASCII stays as it is', 'ls -la', 'ls -la'],
    ['a newline stays a newline', 'a\nb', 'a\nb'],
    ['a tab becomes \\t', 'a\tb', 'a\\tb'],
    ['a carriage return becomes \\r (it can hide the start of a line)', 'rm -rf /\recho ok', 'rm -rf /\\recho ok'],
    ['an escape character becomes \\e (terminal tricks)', 'echo \x1b[2Kok', 'echo \\e[2Kok'],
    ['a right-to-left override is named', 'echo \u202Etxt.exe', 'echo <RLO>txt.exe'],
    ['every bidi embedding and override is named', '\u202A\u202B\u202C\u202D', '<LRE><RLE><PDF><LRO>'],
    ['bidi isolates are named', 'a\u2066b\u2069\u2067\u2068', 'a<LRI>b<PDI><RLI><FSI>'],
    ['left-to-right, right-to-left and Arabic letter marks are named', '\u200E\u200F\u061C', '<LRM><RLM><ALM>'],
    ['a zero-width space is named', 'rm\u200B -rf', 'rm<ZWSP> -rf'],
    ['a zero-width joiner and non-joiner are named', 'a\u200Db\u200Cc', 'a<ZWJ>b<ZWNJ>c'],
    ['a word joiner is named', 'a\u2060b', 'a<WJ>b'],
    ['a byte-order mark is named', '\uFEFFls', '<BOM>ls'],
    ['a no-break space is named (it looks like a space but is not one to the shell)', 'ls\u00A0-la', 'ls<NBSP>-la'],
    ['an en space, a thin space and an ideographic space show their code points', 'a\u2002b\u2009c\u3000d', 'a<U+2002>b<U+2009>c<U+3000>d'],
    ['line and paragraph separators are named', 'a\u2028b\u2029c', 'a<LSEP>b<PSEP>c'],
    ['a Unicode tag character shows its code point', 'ok\u{E0041}', 'ok<U+E0041>'],
    ['a C1 control shows its code point', 'a\u0085b', 'a<U+0085>b'],
    ['DEL is named', 'a\u007Fb', 'a<DEL>b'],
    ['a soft hyphen is named', 'pass\u00ADwd', 'pass<SHY>wd'],
    ['a Hangul filler shows its code point', 'x\u3164y', 'x<U+3164>y'],
    ['a combining grapheme joiner shows its code point', 'x\u034Fy', 'x<U+034F>y'],
    ['a variation selector shows its code point', 'x\uFE0Fy', 'x<U+FE0F>y'],
    ['a Mongolian vowel separator shows its code point', 'x\u180Ey', 'x<U+180E>y'],
    ['a Khmer invisible vowel shows its code point', 'x\u17B4y', 'x<U+17B4>y'],
    ['an invisible musical format character shows its code point', 'x\u{1D173}y', 'x<U+1D173>y'],
    ['interlinear annotation marks show their code points', '\uFFF9a\uFFFAb\uFFFB', '<U+FFF9>a<U+FFFA>b<U+FFFB>'],
    ['a private-use character shows its code point (a font could draw it as anything)', 'x\uE000y', 'x<U+E000>y'],
    ['an unpaired surrogate shows its code point', 'x\uD800y', 'x<U+D800>y'],
    ['accented letters, CJK and emoji are left alone', 'café 日本 🙂', 'café 日本 🙂'],
  ])('%s', (_name, input, expected) => {
    expect(visibleText(input)).toEqual(expected);
  });

  it.each([
    ['a newline becomes \\n on one line', 'rm -rf ~\necho ok', 'rm -rf ~\\necho ok'],
    ['a plain space stays', 'a b', 'a b'],
    ['other escapes are the same as in a block', 'a\u202Eb', 'a<RLO>b'],
  ])('in one-line places: %s', (_name, input, expected) => {
    expect(visibleText(input, { oneLine: true })).toEqual(expected);
  });

  it('marks which pieces are escapes, so the card can box them, and keeps every plain character', () => {
    expect(visiblePieces('a\u202Eb\u200B')).toEqual([
      { text: 'a', escaped: false },
      { text: '<RLO>', escaped: true },
      { text: 'b', escaped: false },
      { text: '<ZWSP>', escaped: true },
    ]);
  });

  it.each([
    ['no hidden characters', 'git status', 0],
    ['two hidden characters', 'a\u200Bb\u202Ec', 2],
    ['a newline is not hidden in a block', 'a\nb', 0],
  ])('counts hidden characters: %s', (_n, input, count) => {
    expect(hiddenCount(input)).toEqual(count);
  });

  it('is idempotent: escaping escaped text changes nothing (ctl may pass a line through twice)', () => {
    const once = visibleText('x\u202Ey\tz\u{E0041}', { oneLine: true });
    expect(visibleText(once, { oneLine: true })).toEqual(once);
  });

  it('agrees with isHiddenCodePoint on every code point of the basic plane, and hides none of the known tricks', () => {
    const shown: number[] = [];
    for (let cp = 0; cp <= 0xffff; cp++) {
      const ch = String.fromCodePoint(cp);
      const same = visibleText(ch) === ch;
      if (same) shown.push(cp);
      if (isHiddenCodePoint(cp) === same) throw new Error(`U+${cp.toString(16)}: isHiddenCodePoint disagrees`);
    }
    const tricks = [0x00, 0x09, 0x0d, 0x1b, 0x7f, 0x85, 0xa0, 0xad, 0x200b, 0x200d, 0x202e, 0x2066, 0x2069, 0xfeff, 0x3164, 0xfe0f];
    expect(tricks.filter((cp) => shown.includes(cp))).toEqual([]);
  });

  it.each([
    ['a string with an override', { command: 'echo \u202Egnp.exe' }],
    ['a tag character and a tab', { a: 'x\u{E0041}\ty' }],
    ['an unpaired surrogate', { a: 'x\uD800y' }],
    ['plain text', { a: 'git status', n: 3 }],
  ])('JSON for a terminal keeps the value and shows no hidden character raw: %s', (_n, value) => {
    const json = visibleJson(value, 2);
    expect({ same: JSON.parse(json), raw: hiddenCount(json) }).toEqual({ same: value, raw: 0 });
  });
});
