// Option parsing helpers for program rules. GNU tools accept options after operands and unambiguous
// prefixes of long options (--in-pl is --in-place), so both are honoured here: a missed option is a
// bypass, a false alarm only costs a prompt.

/** Index of the `--` that ends options, or argv.length. */
export function endOfOptions(argv: readonly string[]): number {
  const i = argv.indexOf('--');
  return i === -1 ? argv.length : i;
}

function isShortGroup(arg: string): boolean {
  return arg.length > 1 && arg[0] === '-' && arg[1] !== '-';
}

/** True when any short option letter appears, alone or bundled (-rf), before `--`. */
export function hasShort(argv: readonly string[], letters: string): boolean {
  const end = endOfOptions(argv);
  for (let i = 0; i < end; i++) {
    const arg = argv[i]!;
    if (!isShortGroup(arg)) continue;
    for (let j = 1; j < arg.length; j++) if (letters.includes(arg[j]!)) return true;
  }
  return false;
}

/** True when a long option (or an unambiguous-looking prefix of it) appears before `--`. */
export function hasLong(argv: readonly string[], names: readonly string[]): boolean {
  const end = endOfOptions(argv);
  for (let i = 0; i < end; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--') || arg.length < 3) continue;
    const key = arg.slice(2).split('=')[0]!;
    if (names.some((n) => n.startsWith(key))) return true;
  }
  return false;
}

export function hasOption(argv: readonly string[], short: string, long: readonly string[]): boolean {
  return (short !== '' && hasShort(argv, short)) || hasLong(argv, long);
}

/**
 * Values of an option: -o X, -oX, --output X, --output=X (and long prefixes).
 * `short` is one letter or ''.
 */
export function optionValues(argv: readonly string[], short: string, long: readonly string[]): string[] {
  const out: string[] = [];
  const end = endOfOptions(argv);
  for (let i = 0; i < end; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--') && arg.length > 2) {
      const [key, ...rest] = arg.slice(2).split('=');
      if (!long.some((n) => n.startsWith(key!))) continue;
      if (rest.length) out.push(rest.join('='));
      else if (i + 1 < argv.length) out.push(argv[++i]!);
    } else if (short && isShortGroup(arg)) {
      const at = arg.indexOf(short, 1);
      if (at === -1) continue;
      const attached = arg.slice(at + 1);
      if (attached) out.push(attached);
      else if (i + 1 < argv.length) out.push(argv[++i]!);
    }
  }
  return out;
}

/**
 * Operands: arguments that are not options, skipping the values of options that take one.
 * `withValue` lists short letters and long names whose value is the next argument.
 */
export function operands(argv: readonly string[], withValue: { short?: string; long?: readonly string[] } = {}): number[] {
  const out: number[] = [];
  const shortV = withValue.short ?? '';
  const longV = withValue.long ?? [];
  let options = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (options && arg === '--') {
      options = false;
      continue;
    }
    if (options && arg.startsWith('--') && arg.length > 2) {
      const key = arg.slice(2).split('=')[0]!;
      if (!arg.includes('=') && longV.some((n) => n === key)) i++;
      continue;
    }
    if (options && isShortGroup(arg)) {
      // A value-taking letter consumes the rest of the group, or the next argument.
      for (let j = 1; j < arg.length; j++) {
        if (shortV.includes(arg[j]!)) {
          if (j === arg.length - 1) i++;
          break;
        }
      }
      continue;
    }
    out.push(i);
  }
  return out;
}

/** The first operand (e.g. a subcommand), skipping options that take values. */
export function firstOperand(argv: readonly string[], withValue: { short?: string; long?: readonly string[] } = {}): number {
  const ops = operands(argv, withValue);
  return ops.length ? ops[0]! : -1;
}
