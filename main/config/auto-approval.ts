// [security.auto_approval], [security] never_auto_approve and [reviewers.<name>]: resolved into the
// reviewer's configuration, and checked at start-up so that a control that would do nothing, or that
// would let a reviewer answer for a floor, stops start-up with the key and the file (docs/auto-approval.md).
import type { Effect } from '../../common/domain';
import { BUILTIN_TOOL_NAMES } from '../policy/tools';
import { catalogueFor } from './model-catalogue';
import { isReviewFloorEffect, isReviewFloorTool, neverAutoApproveCovers, neverAutoApproveEntryProblem } from '../policy/review-eligibility';
import { DEFAULT_REVIEWER_PROMPT } from './reviewer-prompt';
import type { ConfigError as ConfigErrorType } from './config-error';
import type { ProviderConfig } from './provider';
import type { ParsedConfig } from './schema';

export interface ReviewerConfig {
  /** The table's name: [reviewers.<name>]. */
  name: string;
  kind: ProviderConfig['kind'];
  baseUrl: string;
  model: string;
  apiKeyEnv: string | null;
  systemPrompt: string;
  reasoningEffort: 'low' | 'medium' | 'high' | null;
  temperature: number;
}

export interface AutoApprovalConfig {
  /** The config file's switch. The one in force at a call is core.access() (file < Settings page < managed). */
  enabled: boolean;
  maxPerTurn: number;
  timeoutMs: number;
  /** The quorum, in the order named: every one must approve. */
  reviewers: ReviewerConfig[];
  /** Tools, toolsets (`mcp.*`, `mcp.<server>.*`) and effects no reviewer may answer for. */
  neverAutoApprove: string[];
}

export const AUTO_APPROVAL_OFF: AutoApprovalConfig = { enabled: false, maxPerTurn: 5, timeoutMs: 10_000, reviewers: [], neverAutoApprove: [] };

type Fail = (key: string, problem: string) => ConfigErrorType;
type Defaults = Record<ProviderConfig['kind'], { baseUrl: string; model: string; apiKeyEnv: string | null }>;

/**
 * Checks every review rule and reviewer; returns the resolved configuration and the start-up warnings.
 * `fail` builds the ConfigError naming the key (thrown here).
 */
export function resolveAutoApproval(cfg: ParsedConfig, provider: ProviderConfig, defaults: Defaults, fail: Fail): { autoApproval: AutoApprovalConfig; warnings: string[] } {
  const sec = cfg.security;
  const never = sec.never_auto_approve;
  never.forEach((entry, i) => {
    const problem = neverAutoApproveEntryProblem(entry, BUILTIN_TOOL_NAMES);
    if (problem) throw fail(`security.never_auto_approve[${i}]`, problem);
  });

  // `review` on a floor: a reviewer may never answer there, so the rule could only mislead.
  const reviewKeys: string[] = [];
  for (const [effect, rule] of Object.entries(cfg.rules.effects)) {
    if (rule !== 'review') continue;
    const key = `rules.effects.${effect}`;
    if (isReviewFloorEffect(effect as Effect)) throw fail(key, `"review" is not allowed: ${effect} is a floor, and no reviewer may answer for it (a human decides each one)`);
    const listed = never.find((n) => neverAutoApproveCovers(n, null, [effect as Effect]));
    if (listed) throw fail(key, `"review" is not allowed: ${effect} is in [security] never_auto_approve ("${listed}")`);
    reviewKeys.push(key);
  }
  for (const [tool, rule] of Object.entries(cfg.rules.tools)) {
    if (rule !== 'review') continue;
    const key = `rules.tools.${tool}`;
    if (isReviewFloorTool(tool)) throw fail(key, `"review" is not allowed: ${tool} always goes to you, and no reviewer may answer for it`);
    // Checked by name, so a whole toolset (mcp.*) holds before its servers have loaded.
    const listed = never.find((n) => neverAutoApproveCovers(n, tool, []));
    if (listed) throw fail(key, `"review" is not allowed: ${tool} is in [security] never_auto_approve ("${listed}")`);
    reviewKeys.push(key);
  }

  const named = sec.auto_approval.reviewers;
  const declared = Object.keys(cfg.reviewers);
  for (const name of declared) {
    if (!named.includes(name)) throw fail(`reviewers.${name}`, `reviewer "${name}" is declared but not named in [security.auto_approval] reviewers, so it would never be asked`);
  }
  const enabled = sec.auto_approval.enabled;
  if (enabled && reviewKeys.length === 0) throw fail('security.auto_approval.enabled', 'auto-approval is enabled but no rule is "review" ([rules.tools] or [rules.effects]), so no reviewer would ever be asked');
  const duplicate = named.find((n, i) => named.indexOf(n) !== i);
  if (duplicate) throw fail('security.auto_approval.reviewers', `reviewer "${duplicate}" is named twice`);
  const warnings: string[] = [];
  // Switched off in the file, the declared reviewers are still resolved (and checked): the Settings page
  // may switch auto-approval on, and must find them ready. Only a reviewer with no table is skipped then
  // (the schema names "approval" by default, which an unused feature need not declare).
  const reviewers = named.flatMap((name, i): ReviewerConfig[] => {
    const r = cfg.reviewers[name];
    if (!r && !enabled) return [];
    if (!r) throw fail(`security.auto_approval.reviewers[${i}]`, `reviewer "${name}" is named but there is no [reviewers.${name}] table`);
    const kind = r.kind;
    const baseUrl = r.base_url ?? defaults[kind].baseUrl;
    const model = r.model ?? defaults[kind].model;
    const catalogue = catalogueFor(kind, baseUrl, defaults[kind].baseUrl);
    if (catalogue && !catalogue.includes(model)) throw fail(`reviewers.${name}.model`, `"${model}" is not a model ${kind} knows (its catalogue has, for example, ${catalogue.slice(0, 3).join(', ')})`);
    if (r.reasoning_effort && kind === 'openai-compatible') throw fail(`reviewers.${name}.reasoning_effort`, 'an OpenAI-compatible server has no reasoning effort setting');
    if (enabled && kind === provider.kind && model === provider.model && baseUrl.replace(/\/+$/, '') === provider.baseUrl.replace(/\/+$/, '')) {
      warnings.push(`reviewer "${name}" uses the agent's own model (${kind} ${model}): text that talks the agent into a call can talk its reviewer into approving it; point [reviewers.${name}] at another model`);
    }
    return [{ name, kind, baseUrl, model, apiKeyEnv: r.api_key_env ?? defaults[kind].apiKeyEnv, systemPrompt: (r.system_prompt ?? DEFAULT_REVIEWER_PROMPT).trim(), reasoningEffort: r.reasoning_effort ?? null, temperature: r.temperature }];
  });
  return { autoApproval: { enabled, maxPerTurn: sec.auto_approval.max_per_turn, timeoutMs: sec.auto_approval.timeout_seconds * 1000, reviewers, neverAutoApprove: never }, warnings };
}

