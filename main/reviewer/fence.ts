// The <untrusted> fence around every model-written value in a reviewer's packet, and the refusal of any
// value that could close or open one. A value is not escaped (an escape the reviewer must understand is
// one more thing to get wrong): it is refused, and the call goes to the user.
//
// "Spells the tag" is judged on a skeleton of the text, the form two strings share when a reader takes
// them for the same: Unicode tag characters (U+E0020–U+E007E spell ASCII invisibly) made visible, NFKC
// (fullwidth ＜, ligatures), HTML, JSON and URL escapes decoded, case folded, default-ignorable, spacing,
// control and combining characters dropped, then UTS #39's confusable skeleton from Unicode's own
// confusables table (the `unhomoglyph` package ships it unchanged; nothing here lists look-alikes by
// hand). The table maps a look-alike to a prototype of its own class, and leaves alone what it does not
// call confusable with a single letter, so two more rules read the skeleton the way a model does:
// - a bracket is any character Unicode marks Bidi_Mirrored (< ‹ « ❬ ❰ 《 ⟨ ≺ ( [ …): the tag's name next
//   to one, with or without slashes, is a tag;
// - the name is matched letter by letter, and a letter of another script the table leaves alone (small
//   capitals ɴ ᴛ, Cyrillic и) stands in for the one it replaces, as long as one letter is the real one.
import { createRequire } from 'node:module';

// Loaded with require: the table is plain JSON, and a JSON import needs an attribute that not every
// bundle of the main process keeps (electron-vite leaves dependencies external and drops it).
const CONFUSABLES = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;

export const FENCE_OPEN = '<untrusted>';
export const FENCE_CLOSE = '</untrusted>';
const FENCE_NAME = 'untrusted';

export function fence(value: string): string {
  return `${FENCE_OPEN}${value}${FENCE_CLOSE}`;
}

/** UTS #39's table: a character to its prototype (which may be several characters, or carry marks). */
const PROTOTYPES: ReadonlyMap<string, string> = new Map(Object.entries(CONFUSABLES));

const ESCAPES: [RegExp, string][] = [
  [/&(lt|#0*60|#x0*3c);?/gi, '<'],
  [/&(gt|#0*62|#x0*3e);?/gi, '>'],
  [/&(sol|#0*47|#x0*2f);?/gi, '/'],
  [/\\u\{?0*3c\}?|\\x3c|%3c/gi, '<'],
  [/\\u\{?0*3e\}?|\\x3e|%3e/gi, '>'],
  [/\\u\{?0*2f\}?|\\x2f|%2f|\\\//gi, '/'],
];

/** What does not separate letters for a reader: spacing, controls, format and default-ignorable characters. */
const UNSEEN = /[\s\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;
const MARKS = /[\p{Mn}\p{Me}]/gu;

/** Full case folding, as far as JavaScript offers it: ſ → s, ß → ss, K (Kelvin) → k. */
function caseFold(s: string): string {
  return s.toUpperCase().toLowerCase();
}

/** UTS #39 skeleton: NFD, each character to its prototype, NFD again. */
function uts39(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFD')) out += PROTOTYPES.get(ch) ?? ch;
  return out.normalize('NFD');
}

/** The text as a reader sees it, reduced to one form per look (see the head of this file). */
export function skeleton(value: string): string {
  let s = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) s += String.fromCodePoint(cp - 0xe0000);
    else s += ch;
  }
  s = s.normalize('NFKC');
  for (const [re, to] of ESCAPES) s = s.replace(re, to);
  s = caseFold(s).replace(UNSEEN, '');
  // The table's prototypes are sometimes capitals (0 → O) or carry marks (đ → d + stroke): folded again.
  return caseFold(uts39(s)).replace(MARKS, '').replace(UNSEEN, '');
}

const NAME = [...skeleton(FENCE_NAME)];
const SLASH = skeleton('/');
const isBracket = (ch: string | undefined) => ch !== undefined && /^\p{Bidi_Mirrored}$/u.test(ch);
const isForeignLetter = (ch: string) => ch.codePointAt(0)! > 0x7f && /^\p{L}$/u.test(ch);

/** Whether `chars` from `at` spell the tag's name: each letter the real one or a foreign stand-in, one at least real. */
function spellsName(chars: readonly string[], at: number): boolean {
  let real = 0;
  for (let k = 0; k < NAME.length; k++) {
    const ch = chars[at + k];
    if (ch === undefined) return false;
    if (ch === NAME[k]) real++;
    else if (!isForeignLetter(ch)) return false;
  }
  return real > 0;
}

/** Whether a value spells an opening or closing fence tag: the tag's name beside a bracket, slashes between allowed. */
export function forgesFence(value: string): boolean {
  const chars = [...skeleton(value)];
  for (let i = 0; i + NAME.length <= chars.length; i++) {
    if (!spellsName(chars, i)) continue;
    let before = i - 1;
    while (chars[before] === SLASH) before--;
    let after = i + NAME.length;
    while (chars[after] === SLASH) after++;
    if (isBracket(chars[before]) || isBracket(chars[after])) return true;
  }
  return false;
}
