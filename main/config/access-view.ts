// The effective agent access as the Settings page and `settings.get` show it, and the check of the
// page's stored rows (a row that is not a valid value is ignored, so the file's value holds).
import type { z } from 'zod';
import { EFFECT_RULES, EFFECTS, LEVELS, TOOL_RULES } from '../../common/domain';
import type { accessViewSchema } from '../../common/operations';
import { UI_KEY_PREFIX, type EffectiveAccess } from './layers';
import type { ThresholdConfig } from './load';

export type AccessView = z.output<typeof accessViewSchema>;

export function accessView(a: EffectiveAccess, config: ThresholdConfig): AccessView {
  const raw = (config.raw ?? {}) as { security?: { auto_approval?: { reviewers?: string[] } }; reviewers?: Record<string, unknown> };
  const managed = config.managed ?? null;
  return {
    level: a.provenance.level,
    effects: a.provenance.effects,
    tools: a.provenance.tools,
    approval_ttl_seconds: a.provenance.approvalTtlSeconds,
    auto_approval: {
      enabled: a.provenance.autoApprovalEnabled,
      reviewers: raw.security?.auto_approval?.reviewers ?? ['approval'],
      declared: Object.keys(raw.reviewers ?? {}),
      forbidden_by: managed?.reviewerForbidden ? managed.file : null,
    },
    never_auto_approve: a.provenance.neverAutoApprove,
    managed: managed ? { file: managed.file, max_level: managed.maxLevel } : null,
  };
}

/** Whether a stored row of the page's layer holds a value its key accepts. */
export function validUiRow(key: string, value: unknown): boolean {
  const k = key.slice(UI_KEY_PREFIX.length);
  if (k === 'autonomy.level') return (LEVELS as readonly unknown[]).includes(value);
  if (k === 'approvals.ttl_seconds') return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 7 * 24 * 3600;
  if (k === 'security.auto_approval.enabled') return typeof value === 'boolean';
  if (k.startsWith('rules.effects.')) return (EFFECTS as readonly string[]).includes(k.slice('rules.effects.'.length)) && (EFFECT_RULES as readonly unknown[]).includes(value);
  if (k.startsWith('rules.tools.')) return k.length > 'rules.tools.'.length && (TOOL_RULES as readonly unknown[]).includes(value);
  return false;
}
