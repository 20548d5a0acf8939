// Characters that make a command read differently to a person than to bash: invisible characters,
// bidirectional overrides, unusual line separators and look-alike letters. Any of them flags the
// command as obfuscated, which makes it at least write and always asks.

const INVISIBLE = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u00AD\u115F\u1160\u3164\uFFA0]|\u034F/;
const BIDI = /[\u202A-\u202E\u2066-\u2069\u061C\u200E\u200F]/;
const ODD_SEPARATORS = /[\r\v\f\u0085\u2028\u2029]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0E-\x1F\x7F]/;
const ODD_SPACES = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/;
const CONFUSABLE_SCRIPTS = /[\u0370-\u03FF\u0400-\u052F\u0530-\u058F\u13A0-\u13FF\u10A0-\u10FF\uA640-\uA69F]/;
// Latin letters that are not ASCII but read as ASCII: dotless i, IPA and phonetic letters (ɡ ɑ ʀ),
// small capitals, Latin Extended-D look-alikes. NFKC leaves them as they are, so they are listed.
const LATIN_LOOKALIKES = /[\u0131\u0237\u0250-\u02AF\u1D00-\u1DBF\uA730-\uA7FF\uAB30-\uAB6F]/;
const TOKEN = /[^\s'"`;|&<>()]+/g;
// Printable ASCII, tab and newline: text made only of these matches none of the checks below.
const NOT_PLAIN = /[^\x20-\x7E\t\n]/;

/** Returns one reason per kind of obfuscation found; empty when the text is plain. */
export function findObfuscation(text: string): string[] {
  if (!NOT_PLAIN.test(text)) return [];
  const reasons: string[] = [];
  if (INVISIBLE.test(text)) reasons.push('contains invisible (zero-width) characters');
  if (BIDI.test(text)) reasons.push('contains bidirectional text controls that reorder what is displayed');
  if (ODD_SEPARATORS.test(text)) reasons.push('contains an unusual line separator (CR, form feed, U+2028/2029)');
  if (CONTROL.test(text)) reasons.push('contains control characters');
  if (ODD_SPACES.test(text)) reasons.push('contains non-ASCII spaces that look like ordinary spaces');
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7F]/.test(text)) {
    let lookalike = false;
    let compat = false;
    for (const token of text.match(TOKEN) ?? []) {
      // eslint-disable-next-line no-control-regex
      if (!/[^\x00-\x7F]/.test(token)) continue;
      if (/[A-Za-z]/.test(token) && CONFUSABLE_SCRIPTS.test(token)) lookalike = true;
      if (LATIN_LOOKALIKES.test(token)) lookalike = true;
      if (token.normalize('NFKC') !== token) compat = true;
    }
    if (lookalike) reasons.push('mixes Latin letters with look-alike letters of another script');
    if (compat) reasons.push('contains compatibility characters (full-width or styled letters) that imitate ASCII');
  }
  return reasons;
}

/** True when a program name is not plain ASCII: it cannot be a program we know. */
export function isSuspiciousName(name: string): boolean {
  // A loop, not /[^\x21-\x7E]/: this runs for every program invocation.
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return true;
  }
  return false;
}

// The ASCII letter each common look-alike imitates (Cyrillic, Greek, IPA, small capitals).
const SKELETON: Record<string, string> = {
  а: 'a', в: 'b', с: 'c', д: 'd', е: 'e', һ: 'h', і: 'i', ј: 'j', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', ԛ: 'q', г: 'r', ѕ: 's', т: 't', у: 'y', х: 'x', ԝ: 'w',
  А: 'A', В: 'B', С: 'C', Е: 'E', Н: 'H', І: 'I', Ј: 'J', К: 'K', М: 'M', О: 'O', Р: 'P', Ѕ: 'S', Т: 'T', Х: 'X', Ү: 'Y',
  α: 'a', ο: 'o', ρ: 'p', ν: 'v', τ: 't', ι: 'i', κ: 'k', χ: 'x', υ: 'u', ϲ: 'c', Α: 'A', Β: 'B', Ε: 'E', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Χ: 'X', Υ: 'Y', Ζ: 'Z',
  ı: 'i', ȷ: 'j', ɑ: 'a', ɡ: 'g', ɩ: 'i', ɪ: 'i', ʀ: 'r', ɴ: 'n', ʏ: 'y', ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ɢ: 'g', ʜ: 'h', ᴊ: 'j', ᴋ: 'k', ʟ: 'l', ᴍ: 'm', ᴏ: 'o', ᴘ: 'p', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ᴢ: 'z',
};

/** What a look-alike word imitates: compatibility forms folded (NFKC) and look-alike letters mapped to ASCII. */
export function lookalikeSkeleton(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFKC')) out += SKELETON[ch] ?? ch;
  return out;
}
