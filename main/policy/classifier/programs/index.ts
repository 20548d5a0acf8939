// The program table: every program the classifier knows, by normalised name.
import { posix } from 'node:path';
import type { OptionTable } from '../args';
import type { ProgramConventions, ProgramRule } from '../types';
import { carrierRules } from './carriers';
import { fileRules } from './files';
import { gitRules } from './git';
import { interpreterRules } from './interpreters';
import { keyRules } from './keys';
import { moreReaderRules } from './more-readers';
import { networkRules } from './network';
import { packageRules } from './packages';
import { readRules } from './read';
import { systemRules } from './system';
import { systemReaderRules } from './system-readers';

export const PROGRAM_RULES: readonly ProgramRule[] = [
  ...readRules,
  ...moreReaderRules,
  ...fileRules,
  ...gitRules,
  ...keyRules,
  ...packageRules,
  ...networkRules,
  ...systemRules,
  ...systemReaderRules,
  ...carrierRules,
  ...interpreterRules,
];

/**
 * One name of a program and its rule, made once per name: every command looks its program up, and what is
 * derived from the rule for that name (its conventions, its option table) is kept here on first use.
 * The name is the table's own string, so the keyed look-ups by name that follow compare it without
 * hashing a string sliced from the command again.
 */
export class ProgramEntry {
  /** The rule's conventions for this name (conventions.ts conventionsOf), once asked for. */
  conventions: ProgramConventions | undefined = undefined;
  /** The option table for this name (null: none, or the rule checks its own), once asked for. */
  table: OptionTable | null | undefined = undefined;
  /** `${name} ${rule.what}`: the reason given at the rule's base class. */
  readonly baseReason: string;
  // The rule's fields every invocation reads, copied here: rules are object literals of many shapes, so
  // reading them from the rule is a megamorphic property load each time; entries all share one shape.
  /** rule.base */
  readonly base: ProgramRule['base'];
  /** rule.effects */
  readonly effects: ProgramRule['effects'];
  /** rule.readsArgs */
  readonly readsArgs: ProgramRule['readsArgs'];
  /** rule.analyze (rules never read `this`). */
  readonly analyze: NonNullable<ProgramRule['analyze']> | null;

  constructor(
    readonly rule: ProgramRule,
    readonly name: string,
  ) {
    this.baseReason = `${name} ${rule.what}`;
    this.base = rule.base;
    this.effects = rule.effects;
    this.readsArgs = rule.readsArgs;
    this.analyze = rule.analyze ?? null;
  }
}

const byName = new Map<string, ProgramEntry>();
for (const rule of PROGRAM_RULES) {
  for (const name of rule.names) {
    if (byName.has(name)) throw new Error(`Threshold classifier: the program "${name}" has two rules.`);
    byName.set(name, new ProgramEntry(rule, name));
  }
}

/** The rule for a program, and the name it is known by (python3.12 is python). */
export function lookupProgram(name: string): ProgramEntry | undefined {
  const exact = byName.get(name);
  if (exact) return exact;
  return byName.get(stripVersion(name));
}

/** python3.12 → python3, gcc-13 → gcc, mkfs.ext4 → mkfs. */
function stripVersion(name: string): string {
  if (name.startsWith('mkfs.')) return 'mkfs';
  if (name.startsWith('fsck.')) return 'fsck';
  const m = /^([a-zA-Z+]+?[a-zA-Z+]*?)[-.]?\d+(\.\d+)*$/.exec(name);
  if (m && byName.has(m[1]!)) return m[1]!;
  const m2 = /^(python|pip|ruby|perl|php|lua|node|pypy)\d+(\.\d+)*$/.exec(name);
  if (m2) return m2[1]! === 'pip' ? 'pip' : m2[1]!;
  return name;
}

const TRUSTED_DIRS = ['/bin/', '/usr/bin/', '/usr/local/bin/', '/sbin/', '/usr/sbin/', '/usr/local/sbin/', '/opt/homebrew/bin/', '/opt/homebrew/sbin/', '/usr/libexec/', '/run/current-system/sw/bin/', '/snap/bin/'];

/**
 * Normalises a program word: /usr/bin/rm, /usr/bin/../bin/rm and (from ~/project) ../../../usr/bin/rm
 * are rm. A path outside the system's program directories (./rm, /tmp/rm) is not trusted to be the
 * program its name says.
 */
export function normaliseProgramName(raw: string, cwd: string | null = null): { name: string; trusted: boolean } {
  if (!raw.includes('/')) return { name: raw, trusted: true };
  const abs = raw.startsWith('/') ? posix.normalize(raw) : cwd === null ? null : posix.join(cwd, raw);
  const path = abs ?? raw;
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  return { name: base, trusted: abs !== null && TRUSTED_DIRS.includes(dir) };
}
