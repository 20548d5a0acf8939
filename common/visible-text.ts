// The one rule for showing untrusted text (anything that came from the model, a file or a tool): every
// character that could hide or disguise part of it is written as a labelled escape, so what a person
// reads is what is there. The card, the chat, History, Settings, notifications and `ctl` all use it.
//
// Which characters: every control, format, surrogate, private-use and unassigned code point (Unicode
// category C), every separator but the plain space (category Z: no-break and other look-alike spaces,
// line and paragraph separators), and every default-ignorable code point (zero-width characters,
// variation selectors, Hangul fillers, tags). Asked by Unicode property, not by a hand-kept list, so a
// character added to a category is covered when the engine's tables are. Newlines stay newlines where
// text keeps its shape (a command, a diff), and become `\n` where it must stay on one line (a title, a
// table cell, a notification).

export interface TextPiece {
  text: string;
  /** True for an escape standing in for a character that would otherwise not show (or not as itself). */
  escaped: boolean;
}

export interface VisibleOptions {
  /** Write newlines as `\n` too (one-line places: titles, cells, notifications, announcements). */
  oneLine?: boolean;
}

const NAMED: Record<number, string> = {
  0x09: '\\t',
  0x0a: '\\n',
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
  0x2028: 'LSEP',
  0x2029: 'PSEP',
  0xfeff: 'BOM',
};

// A newline and the plain space are the only characters of these classes shown as themselves.
const HIDDEN = /(?![\n ])[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/gu;
const HIDDEN_ONE_LINE = /(?! )[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/gu;

function pattern(o: VisibleOptions | undefined): RegExp {
  const re = o?.oneLine ? HIDDEN_ONE_LINE : HIDDEN;
  re.lastIndex = 0;
  return re;
}

const ONE = new RegExp(HIDDEN.source, 'u');
const ONE_ONE_LINE = new RegExp(HIDDEN_ONE_LINE.source, 'u');

/** Whether a code point is shown as an escape (a newline only in one-line places). */
export function isHiddenCodePoint(cp: number, o?: VisibleOptions): boolean {
  return (o?.oneLine ? ONE_ONE_LINE : ONE).test(String.fromCodePoint(cp));
}

/** The escape for one hidden code point: `\t`, `<RLO>`, `<U+E0041>`. */
export function escapeLabel(cp: number): string {
  const name = NAMED[cp];
  if (name) return name.startsWith('\\') ? name : `<${name}>`;
  return `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Splits text into plain runs and escapes (each escape stands for one hidden character). */
export function visiblePieces(text: string, o?: VisibleOptions): TextPiece[] {
  const out: TextPiece[] = [];
  const re = pattern(o);
  let from = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > from) out.push({ text: text.slice(from, m.index), escaped: false });
    out.push({ text: escapeLabel(m[0].codePointAt(0)!), escaped: true });
    from = m.index + m[0].length;
  }
  if (from < text.length) out.push({ text: text.slice(from), escaped: false });
  return out;
}

/** The text with every hidden character written as its escape. */
export function visibleText(text: string, o?: VisibleOptions): string {
  return text.replace(pattern(o), (ch) => escapeLabel(ch.codePointAt(0)!));
}

/** How many characters are shown as escapes (a card warns when there are any). */
export function hiddenCount(text: string, o?: VisibleOptions): number {
  return text.match(pattern(o))?.length ?? 0;
}

/**
 * JSON for a terminal or a log: the same value (JSON.parse gives it back), with every hidden character
 * written as a `\uXXXX` escape, so printing it cannot move the cursor, reorder the line or hide a part.
 */
export function visibleJson(value: unknown, space?: number): string {
  // Newlines and spaces outside strings are the layout; inside strings JSON already escapes controls.
  const json = JSON.stringify(value, null, space) ?? 'null';
  return json.replace(pattern(undefined), (ch) => {
    let out = '';
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
