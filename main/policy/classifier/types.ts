// Shapes of the classifier's output and of the program rules it applies.
import type { Class, Effect, Flag } from '../../../common/domain';
import type { PathContext } from '../paths';
import type { OptionTable, ScannedOptions } from './args';
import type { NetworkFiles } from './network/config-files';
import type { NetworkUse } from './network/types';
import type { Producer, Word } from './words';

export type { Producer } from './words';

export interface RedirectInfo {
  /** The operator as written: >, >>, <, &>, >|, <<, <<< ... */
  op: string;
  /** The target's value (resolved to an absolute path when it is a literal path). */
  target: string;
  /** True when the target was written literally (no expansion). */
  literal: boolean;
}

export interface Segment {
  /** The command as written. */
  text: string;
  /** Its arguments after quote removal (non-literal words keep their source text). */
  argv: string[];
  /** `NAME=value` words written before the program (quote-removed): they change what runs, so a grant must name them. */
  assignments: string[];
  /** The program, normalised (/usr/bin/rm is rm); null when computed at run time. */
  program: string | null;
  class: Class;
  effects: Effect[];
  reasons: string[];
  /** The carriers this segment runs under, outermost first: "sudo", "bash -c", "$(...)". */
  via: string[];
  /** True when every word is known before it runs. */
  literal: boolean;
  /** True when a word of this segment holds a $(...), `...`, <(...) or >(...). */
  substitution: boolean;
  /** True when its code or program is computed at run time. */
  dynamic: boolean;
  redirects: RedirectInfo[];
  /** Absolute paths it writes, when known. */
  writes: string[];
  /** True when it writes somewhere that is not known statically. */
  unknownWrites: boolean;
  hardline: boolean;
  /** What it does with the network and where (network programs only): the level `full` runs downloads from allowed hosts. */
  network: NetworkUse[];
}

export interface Classification {
  class: Class;
  hardline: boolean;
  flags: Flag[];
  segments: Segment[];
  reasons: string[];
  /** Every effect any segment can reach. */
  effects: Effect[];
}


/** One program invocation, after carriers were peeled off. */
export interface Invocation {
  /** Normalised program name. */
  name: string;
  /** The program as written (/usr/bin/rm, .venv/bin/pip). */
  rawName: string;
  /** The words after the program name. */
  args: Word[];
  /** Literal values of args (source text where not literal), brace-expanded. */
  argv: string[];
  /** Current directory (null when unknown, e.g. after cd "$X"). */
  cwd: string | null;
  /** What feeds its standard input. */
  stdin: Producer;
}

export interface Analysis {
  raise(cls: Class, reason: string, effects?: readonly Effect[]): void;
  addEffects(effects: readonly Effect[]): void;
  /** Marks the segment as running code or a program that is only known at run time. */
  markDynamic(reason: string): void;
  markHardline(reason: string): void;
  /** Raises a classifier flag for the whole command (non_posix, dynamic, ...). */
  flag(flag: Flag, reason: string): void;
  /** Records a path the command writes (literal value or raw word) and judges it. */
  write(raw: string, literal: boolean, cwd: string | null, what?: string): void;
  /**
   * Records a path the command reads (literal value or raw word) and judges it. `kind` says what is read:
   * the content (the default), only names, sizes, times and modes (metadata), or a digest of the content.
   */
  read(raw: string, literal: boolean, cwd: string | null, recursive?: boolean, kind?: ReadKind): void;
  /** Analyses another invocation (a carrier's command) into this same segment. */
  runArgv(args: Word[], carrier: string, stdin?: Producer): void;
  /** Parses and analyses shell code carried as a string (bash -c, eval, su -c). */
  runCode(code: Word | string, carrier: string, stdin?: Producer): void;
  /** A shell reads its code from standard input. */
  runStdinAsShell(stdin: Producer, carrier: string): void;
  /** A non-shell interpreter runs code we cannot analyse. */
  runForeignCode(code: string | null, carrier: string, stdin?: Producer): void;
  /** Sets the current directory for the segments that follow (cd). */
  setCwd(dir: string | null): void;
  /** Sets what this invocation writes to stdout, for the next stage of a pipeline. */
  produce(p: Producer): void;
  /**
   * Reads the arguments from `start` against a table of known options (args.ts); every unknown option,
   * and every word computed at run time that could be one, makes the segment at least write.
   */
  options(inv: Invocation, table: OptionTable | string, label: string, start?: number): ScannedOptions;
  /** Judges an environment variable a carrier sets for the command it runs (env NAME=value). */
  assign(name: string, value: Word): void;
  /** Records what a network program sends and where (the level `full`, docs/policy.md). */
  network(use: NetworkUse): void;
  /** The configuration files that name remotes and registries, read lazily (network programs only). */
  readonly files: NetworkFiles;
  ctx: PathContext;
}

/**
 * What a program learns from a file it is given: its content (cat, grep), only its name, size, times and
 * mode (ls, du, stat: `metadata`), or a fixed-size digest of its content (md5sum, sha256sum, cksum, wc:
 * `digest`). docs/policy.md says which effect each needs.
 */
export type ReadKind = 'content' | 'metadata' | 'digest';

/** An option that makes a program only check or simulate (conventions.ts). */
export interface CheckConvention {
  /** The options that make it inert, as the table names them: -n, --dry-run, --syntax-check. */
  when: readonly string[];
  /** Every option allowed beside them (args.ts format, the inert ones included); any other makes it not inert. */
  table: string;
  /** Shown on the card: "only checks the syntax". */
  what: string;
  /** What its operands are: files it reads (judged as content reads), none allowed, or anything (names, packages). */
  operands: 'read' | 'none' | 'any';
  /** The subcommands (first operand) it applies to (`apt-get -s install`, `cargo fmt --check`); not judged as operands. */
  first?: readonly string[];
  /** The values the `when` option may have (`ninja -t targets`): any other value is not inert. */
  whenValues?: readonly string[];
}

/** The shared conventions (conventions.ts) as one program documents them. */
export interface ProgramConventions {
  /** Info options besides --help and --version that only print help or the version (-h, -V). */
  info?: readonly string[];
  /** Why --help and --version are not inert for this program (it runs project code or reaches the network). */
  noInfo?: string;
  /** Options that make it only check or simulate. */
  checks?: readonly CheckConvention[];
  /** `-` as an operand is a file name here, not standard input or output. */
  stdio?: false;
  /** What it learns from the files it is given (content unless said). */
  reads?: ReadKind;
  /**
   * `PROGRAM SUB [SUB2] --help` only prints the help of SUB: up to `depth` subcommand words, none of the
   * `except` paths (after which the words name a command or package it runs), and, when given, a first
   * word from `only` (programs that also run scripts or files by name).
   */
  subcommandHelp?: { depth: number; except?: readonly string[]; only?: readonly string[]; flags?: readonly string[] };
}

export interface ProgramRule {
  /** Program names this rule covers (normalised basenames). */
  names: readonly string[];
  /** Class when none of the rule's escalations apply. */
  base: Class;
  /** Effects at the base class (command_exec is always added). */
  effects: readonly Effect[];
  /** What the program does, as it appears in reasons: "lists files". */
  what: string;
  /** Whether its plain arguments may be files it reads (scanned for credential locations). */
  readsArgs?: boolean;
  analyze?: (inv: Invocation, a: Analysis) => void;
  /**
   * The options it knows (the format is in args.ts), one table for all its names or one per name. A rule
   * whose base is `read` needs this or `checksOwnOptions`: an option nobody listed is never read-only
   * by default (a table marked @data says the words are never options, as echo's are not).
   */
  options?: string | Readonly<Record<string, string>>;
  /** analyze() reads every read path's options itself through a.options() (per subcommand tables). */
  checksOwnOptions?: true;
  /** The shared conventions as this program documents them: one declaration for all its names, or one per name. */
  conventions?: ProgramConventions | { byName: Readonly<Record<string, ProgramConventions>> };
  /** Commands this rule leaves at `base` (checked at load and in tests). */
  match: readonly string[];
  /** Commands this rule raises above `base`. */
  notMatch: readonly string[];
}
