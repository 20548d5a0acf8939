// Small builders shared by the program tables.
import type { Analysis, Invocation, ProgramRule } from '../types';
import { operands } from '../args';

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

export function allOperands(inv: Invocation, withValue: { short?: string; long?: readonly string[] } = {}): number[] {
  return operands(inv.argv, withValue);
}

/** True when only --version / --help style arguments are given. */
export function onlyInfoFlags(argv: readonly string[]): boolean {
  return argv.length > 0 && argv.every((a) => /^(--version|-V|-v|--help|-h|-help|version|help)$/.test(a));
}
