// Makes every character that could hide or disguise part of a command visible: control characters,
// zero-width and bidirectional marks, unusual spaces and Unicode tags become labelled escapes, so what
// a card shows is what would run. Newlines stay newlines (commands keep their shape).

export interface TextPiece {
  text: string;
  /** True for an escape standing in for a character that would otherwise not show. */
  escaped: boolean;
}

const NAMED: Record<number, string> = {
  0x09: '\\t',
  0x0d: '\\r',
  0x1b: '\\e',
  0x00: '\\0',
  0x7f: 'DEL',
  0xa0: 'NBSP',
  0xad: 'SHY',
  0x200b: 'ZWSP',
  0x200c: 'ZWNJ',
  0x200d: 'ZWJ',
  0x200e: 'LRM',
  0x200f: 'RLM',
  0x202a: 'LRE',
  0x202b: 'RLE',
  0x202c: 'PDF',
  0x202d: 'LRO',
  0x202e: 'RLO',
  0x2066: 'LRI',
  0x2067: 'RLI',
  0x2068: 'FSI',
  0x2069: 'PDI',
  0x061c: 'ALM',
  0x2060: 'WJ',
  0xfeff: 'BOM',
};

/** Whether a code point must be shown as an escape. */
export function isHiddenCodePoint(cp: number): boolean {
  if (cp === 0x0a) return false;
  if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp <= 0x9f)) return true; // C0, DEL, C1
  if (cp in NAMED) return true;
  if (cp >= 0x2000 && cp <= 0x200f) return true; // unusual spaces, zero-width, marks
  if (cp >= 0x2028 && cp <= 0x202f) return true; // separators, bidi embeddings, narrow space
  if (cp >= 0x205f && cp <= 0x206f) return true; // math space, invisible operators, bidi isolates
  if (cp === 0x115f || cp === 0x1160 || cp === 0x3164 || cp === 0xffa0) return true; // Hangul fillers
  if (cp === 0x180e || cp === 0x3000 || cp === 0x034f) return true;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return true; // variation selectors
  if (cp >= 0xfff9 && cp <= 0xfffb) return true; // interlinear annotations
  if (cp >= 0xe0000 && cp <= 0xe007f) return true; // tags
  if (cp >= 0xe0100 && cp <= 0xe01ef) return true; // variation selectors supplement
  return false;
}

function label(cp: number): string {
  const name = NAMED[cp];
  if (name) return name.startsWith('\\') ? name : `<${name}>`;
  return `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Splits text into plain runs and escapes; joining the plain runs with the original characters gives the input back. */
export function visiblePieces(text: string): TextPiece[] {
  const out: TextPiece[] = [];
  let plain = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (!isHiddenCodePoint(cp)) {
      plain += ch;
      continue;
    }
    if (plain) out.push({ text: plain, escaped: false });
    plain = '';
    out.push({ text: label(cp), escaped: true });
  }
  if (plain) out.push({ text: plain, escaped: false });
  return out;
}

/** The text with every hidden character written as its escape (for titles and one-line summaries). */
export function visibleText(text: string): string {
  return visiblePieces(text)
    .map((p) => p.text)
    .join('');
}

/** How many characters were made visible (a card warns when there are any). */
export function hiddenCount(text: string): number {
  return visiblePieces(text).filter((p) => p.escaped).length;
}
