// How deep untrusted structure may nest. Every walk over input from outside (RPC params, a model's
// tool-call arguments) measures depth here first, with an explicit stack, so a message of a few KB nested
// thousands deep is refused with a sentence instead of overflowing the call stack of whoever walks it.

/** The deepest a tool call's arguments may nest; no tool takes anything close to this. */
export const MAX_NESTING = 64;

/**
 * A hard cap for walks over data that is already stored or derived from accepted input (a record that
 * wraps arguments adds a few levels), far below what the call stack can take.
 */
export const MAX_WALK_DEPTH = 128;

/** Depth of a JSON-like value (a scalar is 0, `[]` is 1), counted without recursion; stops past `limit`. */
export function nestingDepth(value: unknown, limit: number = MAX_NESTING): number {
  let deepest = 0;
  const todo: [unknown, number][] = [[value, 0]];
  while (todo.length) {
    const [v, depth] = todo.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') todo.push([child, here]);
    }
  }
  return deepest;
}

/**
 * Depth of JSON text, read bracket by bracket outside strings (no parse); stops past `limit`. Invalid
 * JSON gets a number too: the parser that follows reports it.
 */
export function jsonTextDepth(text: string, limit: number = MAX_NESTING): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The sentence for a refusal: what nested too deep and the limit. */
export function tooDeepMessage(what: string, limit: number = MAX_NESTING): string {
  return `${what} nest deeper than ${limit} levels, more than Threshold accepts`;
}
