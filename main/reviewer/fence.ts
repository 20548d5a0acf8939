// The <untrusted> fence around every model-written value in a reviewer's packet, and the refusal of any
// value that could close or open one. A value is not escaped (an escape the reviewer must understand is
// one more thing to get wrong): it is refused, and the call goes to the user. "Holds the tag" is judged
// on a skeleton of the text that undoes every spelling a model reads the same way: case, spacing and
// invisible characters, compatibility forms (fullwidth ＜), look-alike brackets and letters, Unicode tag
// characters (U+E0020–U+E007E, which spell ASCII invisibly), and HTML or JSON escapes.

export const FENCE_OPEN = '<untrusted>';
export const FENCE_CLOSE = '</untrusted>';

export function fence(value: string): string {
  return `${FENCE_OPEN}${value}${FENCE_CLOSE}`;
}

/** Brackets a model reads as < or >. */
const LOOK_ALIKE_BRACKETS: Record<string, string> = {
  '‹': '<', '›': '>', '«': '<', '»': '>', '〈': '<', '〉': '>', '⟨': '<', '⟩': '>', '\u2329': '<', '\u232a': '>',
  '﹤': '<', '﹥': '>', '＜': '<', '＞': '>', 'ᐸ': '<', 'ᐳ': '>', '˂': '<', '˃': '>', '❮': '<', '❯': '>',
  '⧼': '<', '⧽': '>', '⋖': '<', '⋗': '>', '≺': '<', '≻': '>', '⦉': '<', '⦊': '>', '⹁': '/', '∕': '/', '⁄': '/', '／': '/', '⧸': '/',
};

/** Letters of "untrusted" in other scripts that render like the Latin ones. */
const LOOK_ALIKE_LETTERS: Record<string, string> = {
  // Cyrillic
  'у': 'u', 'т': 't', 'г': 'r', 'ѕ': 's', 'е': 'e', 'ԁ': 'd', 'п': 'n', 'и': 'u', 'с': 'c', 'о': 'o', 'а': 'a', 'р': 'p',
  // Greek
  'υ': 'u', 'ν': 'v', 'τ': 't', 'ε': 'e', 'η': 'n', 'ρ': 'p', 'ο': 'o',
  // Armenian and others
  'ս': 'u', 'ո': 'n', 'ɾ': 'r', 'ʀ': 'r', 'ꭇ': 'r', 'ᴜ': 'u', 'ᴛ': 't', 'ꜱ': 's', 'ᴇ': 'e', 'ᴅ': 'd', 'ɴ': 'n', 'ı': 'i',
};

const ESCAPES: [RegExp, string][] = [
  [/&(lt|#0*60|#x0*3c);?/gi, '<'],
  [/&(gt|#0*62|#x0*3e);?/gi, '>'],
  [/&(sol|#0*47|#x0*2f);?/gi, '/'],
  [/\\u\{?0*3c\}?|\\x3c|%3c/gi, '<'],
  [/\\u\{?0*3e\}?|\\x3e|%3e/gi, '>'],
  [/\\u\{?0*2f\}?|\\x2f|%2f|\\\//gi, '/'],
];

/** The text as a reader sees it, reduced to lower-case ASCII where it could spell the fence. */
export function skeleton(value: string): string {
  let s = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    // Unicode tag characters carry ASCII invisibly.
    if (cp >= 0xe0020 && cp <= 0xe007e) s += String.fromCodePoint(cp - 0xe0000);
    else s += ch;
  }
  s = s.normalize('NFKC');
  for (const [re, to] of ESCAPES) s = s.replace(re, to);
  let out = '';
  for (const ch of s) {
    const mapped = LOOK_ALIKE_BRACKETS[ch] ?? LOOK_ALIKE_LETTERS[ch] ?? LOOK_ALIKE_LETTERS[ch.toLowerCase()] ?? ch;
    // Spacing, invisible and combining characters do not separate letters for a reader.
    if (/[\s\p{Cf}\p{Cc}\p{Mn}\p{Me}\p{Zs}]/u.test(mapped)) continue;
    out += mapped.toLowerCase();
  }
  return out.normalize('NFKD').replace(/\p{Mn}/gu, '');
}

/** Whether a value spells an opening or closing fence tag (or the tag's name inside brackets). */
export function forgesFence(value: string): boolean {
  const s = skeleton(value);
  return /<\/*untrusted|untrusted\/*>/.test(s);
}
