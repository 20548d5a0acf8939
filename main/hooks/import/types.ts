// What importing another agent's permission rules produces: for each rule as written, what it becomes in
// Threshold (a grant, a per-tool rule, nothing because Threshold already behaves at least as strictly) or
// why it cannot be expressed without widening it (refused, by name). Never a looser Threshold than the rule.
import type { GrantPattern, ToolRule } from '../../../common/domain';

export type ImportKind = 'allow' | 'ask' | 'deny';

export type ImportResult =
  /** A grant with provenance "imported from …": one rule may need several (one per tool it names). */
  | { become: 'grants'; grants: { tool: string; pattern: GrantPattern }[]; note?: string }
  /** Per-tool rules (rules.tools), written to the Settings page's layer. */
  | { become: 'rules'; rules: { tool: string; value: ToolRule }[]; note?: string }
  /** Nothing to add: Threshold already does this or something stricter. */
  | { become: 'nothing'; why: string }
  /** Cannot be expressed without widening (or at all): left out, with the reason. */
  | { become: 'refused'; why: string };

export interface ImportedRule {
  /** The rule as the file writes it (or a short form of it), for the person reading the plan. */
  source: string;
  kind: ImportKind;
  result: ImportResult;
}

export interface ImportPlan {
  /** Which agent's format, and the file. */
  agent: string;
  file: string;
  /** The folder relative paths in the rules were read against. */
  project: string;
  rules: ImportedRule[];
  /** Whole-file problems and settings that are not rules (default modes and the like). */
  notes: string[];
}

/** A refusal, written once so every reader says "refused" the same way. */
export const refused = (why: string): ImportResult => ({ become: 'refused', why });
export const nothing = (why: string): ImportResult => ({ become: 'nothing', why });
