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

/** The name of a long option without its dashes and value (`in-place` of `--in-place=.bak`), without splitting it. */
function longKey(arg: string): string {
  const eq = arg.indexOf('=', 2);
  return eq === -1 ? arg.slice(2) : arg.slice(2, eq);
}

/** True when a long option (or an unambiguous-looking prefix of it) appears before `--`. */
export function hasLong(argv: readonly string[], names: readonly string[]): boolean {
  const end = endOfOptions(argv);
  for (let i = 0; i < end; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--') || arg.length < 3) continue;
    const key = longKey(arg);
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
      const eq = arg.indexOf('=', 2);
      const key = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (!long.some((n) => n.startsWith(key))) continue;
      if (eq !== -1) out.push(arg.slice(eq + 1));
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
      if (!arg.includes('=') && longV.includes(arg.slice(2))) i++;
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

// ── Known-option tables ─────────────────────────────────────────────────────────────────────────
// A rule that can return `read` lists the options it knows, in a small text format, so the tables stay
// data a reviewer can check against a man page:
//   -a        a short flag              -n:   a short option with a value (-n 5, -n5)
//   -i?       a short option whose value is optional and only attached (-i, -i.bak)
//   --all     a long flag               --lines=   a long option with a value (--lines 5, --lines=5)
//   --color?  a long option whose value is optional and only attached (--color, --color=auto)
//   !opt      an option the rule judges itself (it escalates); each needs a notMatch example
//   -NUM      numbers such as -5 are accepted (head -5, kill -9)
//   @in-order options end at the first operand (carriers, programs with subcommands, POSIX awk)
//   @bundle   the first argument may be short options without a dash (tar tvf); @bundle=aux lists the
//             letters such a bundle may hold as flags (ps aux), where they differ from the short options
//   @plus     an argument starting with + is an option too (less +F, set +x): unknown unless listed as +x
//   @single-dash  -name is a long option written with one dash (find, pdfinfo); matched exactly
//   @data     the words are data, never options (echo's text, test's expression): nothing is checked
//   @all-read every option the program has only changes what it prints or reads (checked against its
//             manual): a word computed at run time in an option position cannot make it write
// Anything else in an option position is an unknown option, and the segment is at least write.
// Long options may be abbreviated to any unique prefix of the listed names (GNU getopt_long); an
// abbreviation that fits two listed options is ambiguous and counts as unknown.

export type Arity = 'none' | 'required' | 'optional';

export interface OptionTable {
  readonly short: ReadonlyMap<string, Arity>;
  readonly long: ReadonlyMap<string, Arity>;
  /** Options the rule judges itself, as written in the table (-i, --in-place). */
  readonly judged: readonly string[];
  readonly numbers: boolean;
  readonly inOrder: boolean;
  readonly bundle: boolean;
  readonly allRead: boolean;
  readonly data: boolean;
  readonly plus: boolean;
  readonly singleDash: boolean;
  /** Letters a dashless first bundle may hold as flags, when they differ from the short options. */
  readonly bundleLetters: string | null;
  readonly text: string;
}

export function optionTable(text: string): OptionTable {
  const short = new Map<string, Arity>();
  const long = new Map<string, Arity>();
  const judged: string[] = [];
  let numbers = false;
  let inOrder = false;
  let bundle = false;
  let allRead = false;
  let plus = false;
  let data = false;
  let singleDash = false;
  let bundleLetters: string | null = null;
  for (let token of text.split(/\s+/).filter(Boolean)) {
    if (token === '@in-order') inOrder = true;
    else if (token === '@plus') plus = true;
    else if (token === '@data') data = true;
    else if (token === '@single-dash') singleDash = true;
    else if (token.startsWith('@bundle=')) {
      bundle = true;
      bundleLetters = token.slice(8);
    } else if (token === '@bundle') bundle = true;
    else if (token === '@all-read') allRead = true;
    else if (token === '-NUM') numbers = true;
    else {
      const isJudged = token.startsWith('!');
      if (isJudged) token = token.slice(1);
      const arity: Arity = token.endsWith(':') || token.endsWith('=') ? 'required' : token.endsWith('?') ? 'optional' : 'none';
      const name = arity === 'none' ? token : token.slice(0, -1);
      if (/^--[A-Za-z0-9][\w.-]*$/.test(name)) long.set(name.slice(2), arity);
      else if (/^-[A-Za-z][\w.-]+$/.test(name)) long.set(name.slice(1), arity);
      else if (/^-[^-]$/.test(name) || /^\+[^+]$/.test(name)) short.set(name.slice(name[0] === '+' ? 0 : 1), arity);
      else throw new Error(`Threshold classifier: bad option-table token "${token}" in: ${text}`);
      if (isJudged) judged.push(name);
    }
  }
  return { short, long, judged, numbers, inOrder, bundle, allRead, data, plus, singleDash, bundleLetters, text };
}

export interface FoundOption {
  /** The option's name as listed: -n or --lines. */
  name: string;
  value: string | null;
  /** Index of the argument that holds the option. */
  index: number;
}

export interface ScannedOptions {
  /** Options the table does not list, as written (without a value): --frob, -q. */
  unknown: string[];
  /** Indices of the operands. */
  operands: number[];
  /** The listed options met, in order. */
  found: FoundOption[];
  /** Indices of arguments in an option position (before `--` and, in order, before the first operand). */
  optionPositions: number[];
}

/**
 * Option names that many programs have and that write, run or load something (`--output`, `--exec`,
 * `--python`): written in full, they are never taken as an abbreviation of a longer listed option
 * (`--output` is not `--output-format`, `--python` is not `--python-version`), because the program's own
 * parser would take the exact option the table does not list.
 */
const NEVER_ABBREVIATIONS = new Set(['output', 'out', 'exec', 'execute', 'config', 'python', 'pager', 'editor', 'shell', 'command', 'cmd', 'file', 'write', 'in-place',
  'delete', 'eval', 'load', 'plugin', 'plugins', 'script', 'run', 'init', 'init-file', 'rcfile', 'require', 'import', 'preload', 'hook', 'hooks', 'filter', 'program',
  'browser', 'open', 'edit', 'fix', 'apply', 'save', 'log', 'log-file', 'dump', 'remote', 'server', 'host', 'proxy', 'upload', 'send', 'post', 'install', 'tee']);

/** Resolves a long option or a unique prefix of one; null when unknown or ambiguous. */
export function resolveLong(table: OptionTable, key: string): string | null {
  if (table.long.has(key)) return key;
  if (NEVER_ABBREVIATIONS.has(key)) return null;
  let hit: string | null = null;
  for (const name of table.long.keys()) {
    if (!name.startsWith(key)) continue;
    if (hit !== null) return null;
    hit = name;
  }
  return hit;
}

/** Reads argv (from `start`) against a table of known options, as the program's option parser would. */
export function scanOptions(argv: readonly string[], table: OptionTable, start = 0): ScannedOptions {
  const out: ScannedOptions = { unknown: [], operands: [], found: [], optionPositions: [] };
  // Most invocations carry no option at all: everything is an operand, nothing to resolve.
  let optionLike = false;
  for (let j = start; j < argv.length && !optionLike; j++) {
    const a = argv[j]!;
    optionLike = a.length > 1 && (a[0] === '-' || (a[0] === '+' && (table.plus || table.short.has(a.slice(0, 2)))));
  }
  if (table.data || (!optionLike && !table.bundle)) {
    for (let j = start; j < argv.length; j++) out.operands.push(j);
    return out;
  }
  let i = start;
  if (table.bundle && i < argv.length && /^[A-Za-z]+$/.test(argv[i]!)) {
    // Old-style bundle: each letter that takes a value takes the next argument, in order.
    const letters = argv[i]!;
    out.optionPositions.push(i);
    const at = i++;
    for (const letter of letters) {
      const arity = table.bundleLetters !== null ? (table.bundleLetters.includes(letter) ? 'none' : undefined) : table.short.get(letter);
      if (arity === undefined) {
        out.unknown.push(`-${letter}`);
        continue;
      }
      const value = arity === 'required' && i < argv.length ? argv[i++]! : null;
      out.found.push({ name: `-${letter}`, value, index: at });
    }
  }
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.optionPositions.push(i);
      for (let j = i + 1; j < argv.length; j++) out.operands.push(j);
      return out;
    }
    if (arg.startsWith('--') && arg.length > 2) {
      out.optionPositions.push(i);
      const eq = arg.indexOf('=');
      const key = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      const name = resolveLong(table, key);
      const arity = name === null ? undefined : table.long.get(name);
      if (name === null || arity === undefined || (arity === 'none' && eq !== -1)) {
        out.unknown.push(`--${key}`);
        continue;
      }
      let value: string | null = eq === -1 ? null : arg.slice(eq + 1);
      if (arity === 'required' && value === null && i + 1 < argv.length) value = argv[++i]!;
      out.found.push({ name: `--${name}`, value, index: i - (arity === 'required' && eq === -1 ? 1 : 0) });
      continue;
    }
    if (table.singleDash && arg.length > 2 && arg[0] === '-' && arg[1] !== '-') {
      out.optionPositions.push(i);
      const eq = arg.indexOf('=');
      const key = eq === -1 ? arg.slice(1) : arg.slice(1, eq);
      const arity = table.long.get(key);
      if (arity === undefined || (arity === 'none' && eq !== -1)) {
        out.unknown.push(`-${key}`);
        continue;
      }
      let value: string | null = eq === -1 ? null : arg.slice(eq + 1);
      const at = i;
      if (arity === 'required' && value === null && i + 1 < argv.length) value = argv[++i]!;
      out.found.push({ name: `-${key}`, value, index: at });
      continue;
    }
    if (arg.length > 1 && (arg[0] === '-' || (arg[0] === '+' && (table.plus || table.short.has('+' + arg[1]))))) {
      if (arg[0] === '-' && table.numbers && /^-\d+$/.test(arg)) {
        out.optionPositions.push(i);
        out.found.push({ name: '-NUM', value: arg.slice(1), index: i });
        continue;
      }
      out.optionPositions.push(i);
      const at = i;
      if (arg[0] === '+') {
        const arity = table.short.get(arg.slice(0, 2));
        if (arity === undefined) {
          out.unknown.push(arg.slice(0, 2));
          continue;
        }
        let value: string | null = arg.length > 2 ? arg.slice(2) : null;
        if (arity === 'required' && value === null && i + 1 < argv.length) value = argv[++i]!;
        out.found.push({ name: arg.slice(0, 2), value, index: at });
        continue;
      }
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        const arity = table.short.get(letter);
        if (arity === undefined) {
          // What follows an unknown letter may be its value: stop reading the cluster.
          out.unknown.push(`-${letter}`);
          break;
        }
        if (arity === 'none') {
          out.found.push({ name: `-${letter}`, value: null, index: at });
          continue;
        }
        let value: string | null = arg.slice(j + 1);
        if (value === '') value = arity === 'required' && i + 1 < argv.length ? argv[++i]! : arity === 'required' ? null : null;
        out.found.push({ name: `-${letter}`, value, index: at });
        break;
      }
      continue;
    }
    out.operands.push(i);
    if (table.inOrder) {
      for (let j = i + 1; j < argv.length; j++) out.operands.push(j);
      return out;
    }
  }
  return out;
}

/** Values of one listed option (by any of its names) in a scan. */
export function valuesOf(scan: ScannedOptions, ...names: string[]): string[] {
  return scan.found.filter((f) => names.includes(f.name) && f.value !== null).map((f) => f.value!);
}

/** True when the scan met any of the named options. */
export function found(scan: ScannedOptions, ...names: string[]): boolean {
  return scan.found.some((f) => names.includes(f.name));
}

const compiled = new Map<string, OptionTable>();
/** The compiled table for a table text (compiled once). */
export function tableFor(text: string | OptionTable): OptionTable {
  if (typeof text !== 'string') return text;
  let t = compiled.get(text);
  if (!t) compiled.set(text, (t = optionTable(text)));
  return t;
}
