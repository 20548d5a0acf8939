// Small builders shared by the program tables.
import type { Class, Effect } from '../../../../common/domain';
import type { Analysis, Invocation, ProgramRule } from '../types';
import type { Producer, Word } from '../words';
import { operands } from '../args';
import { isUrl } from '../network/hosts';

export type Rule = ProgramRule;

/** Judges operands (by index) as files the program writes. */
export function writeOperands(inv: Invocation, a: Analysis, indices: number[], what = 'writes'): void {
  for (const i of indices) {
    const w = inv.args[i];
    if (w) a.write(inv.argv[i]!, w.literal, inv.cwd, what);
  }
}

/** Judges operands (by index) as files the program reads. */
export function readOperands(inv: Invocation, a: Analysis, indices: number[], recursive = false): void {
  for (const i of indices) {
    const w = inv.args[i];
    if (w) a.read(inv.argv[i]!, w.literal, inv.cwd, recursive);
  }
}

/** Judges one option value as a written path. */
export function writeValue(inv: Invocation, a: Analysis, value: string): void {
  const i = inv.argv.indexOf(value);
  const literal = i === -1 ? !/[$`]/.test(value) : inv.args[i]!.literal;
  a.write(value, literal, inv.cwd);
}

/** What one subcommand (or subcommand path, `pm cache rm`) of a program does, as data. */
export interface SubcommandClass {
  cls: Class;
  /** Shown on the card, after the program and subcommand: "queries the registry". */
  why: string;
  effects?: readonly Effect[];
  /** Only when nothing follows the subcommand path (`bun pm version` reads; `bun pm version 2.0` writes). */
  alone?: true;
  /** Only when one of these options is present (`--outdated`), or none of these is (`!--prefix`). */
  when?: readonly string[];
}

/**
 * The entry of a subcommand table that matches an invocation: the longest subcommand path (up to four
 * words) its operands start with, among the entries whose conditions hold.
 */
export function subcommandClass(inv: Invocation, table: Readonly<Record<string, SubcommandClass | readonly SubcommandClass[]>>, valued: { short?: string; long?: readonly string[] } = {}): (SubcommandClass & { path: string }) | null {
  const ops = operands(inv.argv, valued).map((i) => inv.argv[i]!);
  for (let n = Math.min(4, ops.length, longestKeyOf(table)); n >= 1; n--) {
    const path = ops.slice(0, n).join(' ');
    const entry = table[path];
    if (!entry) continue;
    for (const e of Array.isArray(entry) ? (entry as SubcommandClass[]) : [entry as SubcommandClass]) {
      if (e.alone && ops.length > n) continue;
      if (e.when && !e.when.every((w) => (w.startsWith('!') ? !inv.argv.some((x) => x === w.slice(1) || x.startsWith(`${w.slice(1)}=`)) : inv.argv.some((x) => x === w || x.startsWith(`${w}=`))))) continue;
      return { ...e, path };
    }
  }
  return null;
}

const longestKeys = new WeakMap<object, number>();

/**
 * The most space-separated parts a key of the table has, counted once per table: n operands joined by
 * spaces have at least n parts, so a longer path cannot be a key and is not built to be looked up.
 */
function longestKeyOf(table: object): number {
  let longest = longestKeys.get(table);
  if (longest === undefined) {
    longest = 0;
    for (const key of Object.keys(table)) longest = Math.max(longest, key.split(' ').length);
    longestKeys.set(table, longest);
  }
  return longest;
}

/** A word known before the run (a module function: tsx keeps closure names at a defineProperty each). */
export function literalWord(value: string): Word {
  return { source: value, value, literal: true, glob: false, substitutions: [], unknown: [] };
}

/**
 * A word of a command line another program fills in at run time (find's {}, xargs -I's string): the same
 * word, computed at run time from `origin`. Written out rather than spread: words come in several shapes
 * (with or without risks and origin), which makes an object spread take its slow path.
 */
export function filledAtRunTime(w: Word, origin: Producer): Word {
  const out: Word = { source: w.source, value: w.value, literal: false, glob: w.glob, substitutions: w.substitutions, unknown: w.unknown, origin };
  if (w.risks !== undefined) out.risks = w.risks;
  return out;
}

/**
 * A URL among the given arguments (all of them when none are given) is fetched: network, and the URL
 * is named on the card. True when one was found.
 */
export function fetchesUrls(inv: Invocation, a: Analysis, indices?: readonly number[]): boolean {
  for (const i of indices ?? inv.argv.keys()) {
    const v = inv.argv[i]!;
    if (inv.args[i]!.literal && isUrl(v)) {
      a.raise('network', `${inv.name} fetches ${v.length > 60 ? v.slice(0, 59) + '…' : v}`, ['network']);
      return true;
    }
  }
  return false;
}
