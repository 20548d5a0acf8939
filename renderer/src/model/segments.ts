// Splits a shell command into the segments a person reads (joined by ;, &&, ||, |, & or a newline),
// for display only: the gate's classifier decides, this only lays out what it decided about. Quotes,
// escapes, $(…) and backticks are respected so an operator inside them does not split.

export interface DisplaySegment {
  text: string;
  /** The operator that follows this segment, or null for the last one. */
  joiner: string | null;
}

const OPERATORS = ['&&', '||', ';;', ';', '|&', '|', '&', '\n'];

export function splitSegments(command: string): DisplaySegment[] {
  const out: DisplaySegment[] = [];
  let cur = '';
  let quote: "'" | '"' | '`' | null = null;
  let depth = 0; // $( … ) nesting
  const push = (joiner: string | null) => {
    const text = cur.trim();
    if (text) out.push({ text, joiner });
    else if (joiner && out.length) out[out.length - 1]!.joiner = joiner;
    cur = '';
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote === "'") {
      cur += ch;
      if (ch === "'") quote = null;
      continue;
    }
    if (ch === '\\' && i + 1 < command.length) {
      cur += ch + command[++i];
      continue;
    }
    if (quote) {
      cur += ch;
      if (ch === quote) quote = null;
      else if (quote === '"' && ch === '$' && command[i + 1] === '(') {
        cur += command[++i];
        depth++;
      }
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
      cur += ch;
      continue;
    }
    if (ch === '$' && command[i + 1] === '(') {
      depth++;
      cur += '$(';
      i++;
      continue;
    }
    if (depth > 0) {
      if (ch === ')') depth--;
      else if (ch === '(') depth++;
      cur += ch;
      continue;
    }
    // `>&`, `&>` and `2>&1` are redirections, not the background operator.
    if (ch === '&' && (command[i - 1] === '>' || command[i + 1] === '>' || command[i - 1] === '<')) {
      cur += ch;
      continue;
    }
    const op = OPERATORS.find((o) => command.startsWith(o, i));
    if (op) {
      push(op === '\n' ? ';' : op);
      i += op.length - 1;
      continue;
    }
    cur += ch;
  }
  push(null);
  if (out.length) out[out.length - 1]!.joiner = null;
  return out;
}

/** Which displayed segment the gate named as deciding: by its text first, else by its index. */
export function decidingSegment(segments: readonly DisplaySegment[], decided: { index: number; text: string } | null): number | null {
  if (!decided) return null;
  const want = decided.text.trim();
  const byText = segments.findIndex((s) => s.text === want);
  if (byText !== -1) return byText;
  const partial = segments.findIndex((s) => s.text.includes(want) || want.includes(s.text));
  if (partial !== -1) return partial;
  return decided.index >= 0 && decided.index < segments.length ? decided.index : null;
}
