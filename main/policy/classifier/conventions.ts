// The conventions every program table shares, read in one place (here and in args.ts), so a new table
// cannot forget them:
// - `--` ends options: args.ts scanOptions reads everything after it as operands.
// - `-` as an operand is standard input or output, never a file (unless the table says `stdio: false`).
// - Options a program documents as doing nothing else than printing its help or version, or checking or
//   simulating (`bash -n`, `php -l`, `apt-get -s`, `cargo fmt --check`), make the invocation `read`,
//   provided every other option given is one the declaration lists beside them. `--help` and `--version`
//   alone are such options for every program the classifier knows, unless its rule says why not (yarn runs
//   a release file from the project, rustup may install a toolchain, terraform checks for updates online).
// - A subcommand's help (`gh pr create --help`) is inert for the programs that declare where it is
//   (`subcommandHelp`): how many subcommand words may precede the help option, and the subcommands after
//   which the words are a command or package to run instead (`uv run ruff --help` runs ruff).
// What an inert invocation still reads (the script `bash -n` parses) is judged as a read of its content.
import { scanOptions, tableFor, type ScannedOptions } from './args';
import type { Invocation, ProgramConventions, ProgramRule, ReadKind } from './types';

/** The options that print help or the version, when given alone, for every program unless its rule opts out. */
export const DEFAULT_INFO_OPTIONS: readonly string[] = ['--help', '--version'];

/** A subcommand as CLIs spell them: lower-case words with dashes (pr, create, config-manager). */
const SUBCOMMAND_WORD = /^[a-z][a-z0-9-]*$/;

/** The operand that stands for standard input or output. */
export const STDIO_OPERAND = '-';

const NONE: ProgramConventions = {};

/** The conventions a rule declares for one of its programs (by name, then `*`). */
export function conventionsOf(rule: ProgramRule, name: string): ProgramConventions {
  const c = rule.conventions;
  if (c === undefined) return NONE;
  if ('byName' in c) return c.byName[name] ?? c.byName['*'] ?? NONE;
  return c;
}

/** The info options (help, version) of a program; none when its rule explains why they are not inert. */
export function infoOptions(c: ProgramConventions): readonly string[] {
  if (c.noInfo !== undefined) return [];
  if (!c.info) return DEFAULT_INFO_OPTIONS;
  let list = INFO_BY_CONVENTIONS.get(c);
  if (!list) INFO_BY_CONVENTIONS.set(c, (list = [...DEFAULT_INFO_OPTIONS, ...c.info]));
  return list;
}
/** Built once per declaration: every invocation of a program looks its info options up. */
const INFO_BY_CONVENTIONS = new WeakMap<ProgramConventions, readonly string[]>();

/** True when `-` is standard input or output for this program (the default). */
export function stdioOperand(c: ProgramConventions): boolean {
  return c.stdio !== false;
}

/** How a program reads the files it is given (content unless declared). */
export function readKindOf(c: ProgramConventions): ReadKind {
  return c.reads ?? 'content';
}

export interface InertInvocation {
  /** Shown on the card: "prints its help or version", "only checks the syntax". */
  what: string;
  /** Operand indices the program still reads (a script it parses); judged as content reads. */
  reads: number[];
}

/**
 * Whether this invocation only prints help or a version, or only checks: every argument is an info option,
 * or a check option is present and every other option is one its declaration lists beside it.
 */
export function inertInvocation(inv: Invocation, c: ProgramConventions): InertInvocation | null {
  const argv = inv.argv;
  if (argv.length === 0) return null;
  const info = infoOptions(c);
  // Most invocations carry no declared check and start with no help or version option: nothing to look at.
  if (!c.checks && !c.subcommandHelp && !info.includes(argv[0]!)) return null;
  // A word only known at run time could be anything: never inert.
  if (inv.args.some((w) => !w.literal)) return null;
  if (info.length && argv.every((a) => info.includes(a))) return { what: 'only prints its help or version', reads: [] };
  const help = c.subcommandHelp;
  if (help && info.length) {
    // `gh pr create --help`, `conda create -h`: subcommand words, then one help option, and nothing else.
    const flag = argv[argv.length - 1]!;
    const words = argv.slice(0, -1);
    if ((help.flags ?? ['--help', '-h']).includes(flag) && words.length >= 1 && words.length <= help.depth && words.every((w) => SUBCOMMAND_WORD.test(w))) {
      const path = words.join(' ');
      const excepted = (help.except ?? []).some((e) => path === e || path.startsWith(`${e} `));
      if (!excepted && (!help.only || help.only.includes(words[0]!))) return { what: `only prints the help of ${path}`, reads: [] };
    }
  }
  for (const check of c.checks ?? []) {
    const table = tableFor(check.table);
    const scan: ScannedOptions = scanOptions(argv, table, 0);
    if (scan.unknown.length) continue;
    if (!scan.found.some((f) => check.when.includes(f.name))) continue;
    if (check.whenValues && !scan.found.every((f) => !check.when.includes(f.name) || check.whenValues!.includes(f.value ?? ''))) continue;
    let operands = scan.operands;
    if (check.first) {
      if (operands.length === 0 || !check.first.includes(argv[operands[0]!]!)) continue;
      operands = operands.slice(1);
    }
    if (check.operands === 'none' && operands.length) continue;
    return { what: check.what, reads: check.operands === 'read' ? operands : [] };
  }
  return null;
}
