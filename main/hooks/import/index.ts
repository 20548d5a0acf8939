// `threshold import <agent> FILE`: another agent's permission rules as Threshold's, one result per rule,
// printed as a plan (--print) or applied through the running core (grants with provenance "imported from
// FILE: RULE", per-tool rules into the Settings page's layer, both audited).
import { basename, dirname } from 'node:path';
import type { GrantPattern } from '../../../common/domain';
import type { ExternalAgent } from '../../../common/external-agents';
import { initClassifier } from '../../policy/classifier';
import type { PathContext } from '../../policy/paths';
import { importClaudeCode } from './claude-code';
import { importCodex } from './codex';
import { importGemini } from './gemini';
import type { ImportPlan, ImportedRule } from './types';

export type { ImportPlan, ImportedRule } from './types';

export async function planImport(agent: ExternalAgent, text: string, file: string, project: string, ctx: PathContext): Promise<ImportPlan> {
  await initClassifier();
  const at = { ...ctx, workspace: project };
  switch (agent) {
    case 'claude-code':
      return importClaudeCode(text, file, project, at);
    case 'codex':
      return importCodex(text, file, project, at);
    case 'gemini':
      return importGemini(text, file, project, at);
  }
}

/**
 * The project a settings file belongs to, when its place says so (`<project>/.claude/settings.json`,
 * `<project>/.gemini/policies/x.toml`, `<project>/.codex/rules/x.rules`); otherwise the current folder.
 */
export function projectOf(file: string, cwd: string): string {
  const dir = dirname(file);
  const parent = dirname(dir);
  if (['.claude', '.gemini', '.codex'].includes(basename(dir))) return parent;
  if (['policies', 'rules'].includes(basename(dir)) && ['.gemini', '.codex'].includes(basename(parent))) return dirname(parent);
  return cwd;
}

/** The plan as a person reads it: each rule, what it becomes, and what cannot be expressed and why. */
export function describePlan(plan: ImportPlan): string {
  const lines = [`${plan.agent} rules in ${plan.file} (relative paths read against ${plan.project}):`];
  const width = Math.min(48, Math.max(0, ...plan.rules.map((r) => r.source.length)));
  for (const r of plan.rules) lines.push(`  ${r.kind.padEnd(5)} ${r.source.padEnd(width)}  → ${becomes(r)}`);
  if (!plan.rules.length) lines.push('  (no rules)');
  for (const n of plan.notes) lines.push(`  note: ${n}`);
  const counts = { grants: 0, rules: 0, nothing: 0, refused: 0 };
  for (const r of plan.rules) counts[r.result.become]++;
  lines.push(`${counts.grants} become grants, ${counts.rules} become rules, ${counts.nothing} need nothing (Threshold is already at least as strict), ${counts.refused} refused.`);
  return lines.join('\n');
}

function becomes(r: ImportedRule): string {
  const res = r.result;
  switch (res.become) {
    case 'grants':
      return `grant ${res.grants.map((g) => `${g.tool} ${patternWords(g.pattern)}`).join(' and ')} (always)${res.note ? `; ${res.note}` : ''}`;
    case 'rules':
      return `rule ${res.rules.map((x) => `${x.tool} = "${x.value}"`).join(', ')}${res.note ? `; ${res.note}` : ''}`;
    case 'nothing':
      return `nothing to add: ${res.why}`;
    case 'refused':
      return `refused: ${res.why}`;
  }
}

function patternWords(p: GrantPattern): string {
  switch (p.kind) {
    case 'argv':
      return `\`${p.argv.join(' ')}\`${p.match === 'exact' ? ' exactly' : ' and any further arguments'}`;
    case 'path':
      return p.glob;
    case 'url':
      return `${p.prefix}…`;
    case 'command':
      return `\`${p.command}\` exactly`;
    case 'tool':
      return '(every call)';
  }
}
