// The configuration layers of agent access, in one place: built-in defaults < the user's config file <
// the Settings page (a validated layer in the database; the file is never rewritten), with the managed
// policy applied last as a ceiling. Every key of the result says which layer it came from and what each
// layer holds, so the page can show where a value comes from and which wins.
import { EFFECTS, LEVELS, type Effect, type EffectRule, type Level, type ToolRule } from '../../common/domain';
import type { PolicyRules } from '../policy/evaluate';
import { BUILTIN_TOOL_NAMES } from '../policy/tools';
import type { ManagedPolicy } from './managed';
import { neverAutoApproveCovers } from '../policy/review-eligibility';

/** What one layer sets; an absent key leaves the layer below in force. */
export interface AccessLayer {
  level?: Level;
  effects?: Readonly<Partial<Record<Effect, EffectRule>>>;
  tools?: Readonly<Record<string, ToolRule>>;
  /** How long a card waits; 0 waits indefinitely. */
  approvalTtlSeconds?: number;
  autoApprovalEnabled?: boolean;
  neverAutoApprove?: readonly string[];
}

export type LayerName = 'default' | 'file' | 'ui' | 'managed';

/** One key of the effective configuration: its value, the layer that won, and every layer's value. */
export interface Provenance<T> {
  key: string;
  value: T | null;
  source: LayerName;
  layers: Record<LayerName, T | null>;
  /** The managed policy lowered a value a lower layer chose. */
  capped: boolean;
}

export interface EffectiveAccess {
  level: Level;
  rules: PolicyRules;
  approvalTtlSeconds: number;
  autoApprovalEnabled: boolean;
  neverAutoApprove: string[];
  provenance: {
    level: Provenance<Level>;
    effects: Provenance<EffectRule>[];
    tools: Provenance<ToolRule>[];
    approvalTtlSeconds: Provenance<number>;
    autoApprovalEnabled: Provenance<boolean>;
    neverAutoApprove: { entry: string; source: 'file' | 'ui' | 'managed' }[];
  };
}

export const ACCESS_DEFAULTS = { level: 'supervised', approvalTtlSeconds: 600, autoApprovalEnabled: false } as const satisfies AccessLayer;

const LEVEL_RANK: Record<Level, number> = Object.fromEntries(LEVELS.map((l, i) => [l, i])) as Record<Level, number>;
// How strict a rule is; unset (the level decides) is the loosest. A future `review` sits below ask.
const EFFECT_RANK: Record<string, number> = { auto: 0, review: 1, ask: 2, deny: 3 };
const TOOL_RANK: Record<string, number> = { allow: 0, review: 1, ask: 2, deny: 3 };

export function levelAbove(level: Level, max: Level): boolean {
  return LEVEL_RANK[level] > LEVEL_RANK[max];
}

/** The layer a config file sets, read from its parsed TOML (before defaults fill it in). */
export function fileLayerOf(raw: unknown): AccessLayer {
  const r = (raw ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const rules = (r['rules'] ?? {}) as { effects?: Record<string, EffectRule>; tools?: Record<string, ToolRule> };
  const security = (r['security'] ?? {}) as { never_auto_approve?: string[]; auto_approval?: { enabled?: boolean } };
  const layer: AccessLayer = {};
  if (typeof r['autonomy']?.['level'] === 'string') layer.level = r['autonomy']['level'] as Level;
  if (rules.effects && Object.keys(rules.effects).length) layer.effects = rules.effects;
  if (rules.tools && Object.keys(rules.tools).length) layer.tools = rules.tools;
  if (typeof r['approvals']?.['ttl_seconds'] === 'number') layer.approvalTtlSeconds = r['approvals']['ttl_seconds'] as number;
  if (typeof security.auto_approval?.enabled === 'boolean') layer.autoApprovalEnabled = security.auto_approval.enabled;
  if (security.never_auto_approve?.length) layer.neverAutoApprove = security.never_auto_approve;
  return layer;
}

/**
 * The file's layer of a loaded config: from its TOML when it has one; a config built in code (tests, the
 * defaults) sets what its fields say.
 */
export function fileLayerOfConfig(c: { raw?: unknown; level: Level; rules: PolicyRules; approvalTtlSeconds: number }): AccessLayer {
  if (c.raw !== undefined) return fileLayerOf(c.raw);
  const layer: AccessLayer = { level: c.level, approvalTtlSeconds: c.approvalTtlSeconds };
  return {
    ...layer,
    ...(Object.keys(c.rules.effects).length ? { effects: c.rules.effects } : {}),
    ...(Object.keys(c.rules.tools).length ? { tools: c.rules.tools } : {}),
  };
}

/** The layer as config-file keys (`rules.tools.x`), to validate it exactly as a file would be. */
export function layerAsToml(layer: AccessLayer): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  const put = (table: string, key: string, value: unknown) => ((out[table] ??= {})[key] = value);
  if (layer.level !== undefined) put('autonomy', 'level', layer.level);
  if (layer.effects) put('rules', 'effects', { ...layer.effects });
  if (layer.tools) put('rules', 'tools', { ...layer.tools });
  if (layer.approvalTtlSeconds !== undefined) put('approvals', 'ttl_seconds', layer.approvalTtlSeconds);
  if (layer.autoApprovalEnabled !== undefined) put('security', 'auto_approval', { enabled: layer.autoApprovalEnabled });
  if (layer.neverAutoApprove) put('security', 'never_auto_approve', [...layer.neverAutoApprove]);
  return out;
}

/** Deep-merges config tables (the layer's keys replace the base's, tables merge). */
export function mergeTables(base: unknown, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...((base ?? {}) as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b) ? mergeTables(b, v as Record<string, unknown>) : v;
  }
  return out;
}

/**
 * Where a layer would loosen the managed policy: each as [config key, sentence]. `what` names the layer
 * ("the config file /home/…/threshold.toml", "Settings → Agent access").
 */
export function looseningProblems(layer: AccessLayer, managed: ManagedPolicy | null): [string, string][] {
  if (!managed) return [];
  const by = `the managed policy ${managed.file}`;
  const out: [string, string][] = [];
  if (layer.level && managed.maxLevel && levelAbove(layer.level, managed.maxLevel)) out.push(['autonomy.level', `"${layer.level}" is above the highest level ${by} allows ("${managed.maxLevel}")`]);
  for (const [effect, rule] of Object.entries(layer.effects ?? {})) {
    const m = managed.effects[effect as Effect];
    if (m && (EFFECT_RANK[rule] ?? 0) < EFFECT_RANK[m]!) out.push([`rules.effects.${effect}`, `"${rule}" would loosen ${by}, which sets ${effect} = "${m}"`]);
  }
  for (const [tool, rule] of Object.entries(layer.tools ?? {})) {
    const m = managed.tools[tool];
    if (m && (TOOL_RANK[rule] ?? 0) < TOOL_RANK[m]!) out.push([`rules.tools.${tool}`, `"${rule}" would loosen ${by}, which sets ${tool} = "${m}"`]);
  }
  if (layer.autoApprovalEnabled === true && managed.reviewerForbidden) out.push(['security.auto_approval.enabled', `true is not allowed: ${by} turns the reviewer off`]);
  // A `review` rule for what the managed never_auto_approve covers would let a reviewer answer it.
  for (const [effect, rule] of Object.entries(layer.effects ?? {})) {
    const n = rule === 'review' && managed.neverAutoApprove.find((e) => neverAutoApproveCovers(e, null, [effect as Effect]));
    if (n) out.push([`rules.effects.${effect}`, `"review" is not allowed: ${by} lists "${n}" in never_auto_approve`]);
  }
  for (const [tool, rule] of Object.entries(layer.tools ?? {})) {
    const n = rule === 'review' && managed.neverAutoApprove.find((e) => neverAutoApproveCovers(e, tool, []));
    if (n) out.push([`rules.tools.${tool}`, `"review" is not allowed: ${by} lists "${n}" in never_auto_approve`]);
  }
  return out;
}

function pick<T>(key: string, layers: Record<LayerName, T | null>): Provenance<T> {
  const source: LayerName = layers.ui !== null ? 'ui' : layers.file !== null ? 'file' : 'default';
  return { key, value: layers[source], source, layers, capped: false };
}

/** The managed value wins when it is stricter than what the layers below chose. */
function ceiling<T extends string>(p: Provenance<T>, rank: Record<string, number>): Provenance<T> {
  const m = p.layers.managed;
  if (m === null) return p;
  if (p.value === null || (rank[p.value] ?? 0) < rank[m]!) return { ...p, value: m, source: 'managed', capped: p.value !== null };
  return p;
}

function fromManaged(ps: readonly Provenance<string>[], prefix: string): string[] {
  return ps.filter((p) => p.source === 'managed').map((p) => p.key.slice(prefix.length));
}

/** The effective agent access: defaults < file < ui, then the managed ceiling. */
export function mergeLayers(file: AccessLayer, ui: AccessLayer, managed: ManagedPolicy | null): EffectiveAccess {
  let level = pick<Level>('autonomy.level', { default: ACCESS_DEFAULTS.level, file: file.level ?? null, ui: ui.level ?? null, managed: managed?.maxLevel ?? null });
  if (managed?.maxLevel && levelAbove(level.value!, managed.maxLevel)) level = { ...level, value: managed.maxLevel, source: 'managed', capped: true };

  const effects = EFFECTS.map((e) =>
    ceiling(pick<EffectRule>(`rules.effects.${e}`, { default: null, file: file.effects?.[e] ?? null, ui: ui.effects?.[e] ?? null, managed: managed?.effects[e] ?? null }), EFFECT_RANK),
  );
  const toolNames = [...new Set([...BUILTIN_TOOL_NAMES, ...Object.keys(file.tools ?? {}), ...Object.keys(ui.tools ?? {}), ...Object.keys(managed?.tools ?? {})])];
  const tools = toolNames.map((t) =>
    ceiling(pick<ToolRule>(`rules.tools.${t}`, { default: null, file: file.tools?.[t] ?? null, ui: ui.tools?.[t] ?? null, managed: (managed?.tools[t] as ToolRule | undefined) ?? null }), TOOL_RANK),
  );
  const ttl = pick<number>('approvals.ttl_seconds', { default: ACCESS_DEFAULTS.approvalTtlSeconds, file: file.approvalTtlSeconds ?? null, ui: ui.approvalTtlSeconds ?? null, managed: null });
  let review = pick<boolean>('security.auto_approval.enabled', { default: ACCESS_DEFAULTS.autoApprovalEnabled, file: file.autoApprovalEnabled ?? null, ui: ui.autoApprovalEnabled ?? null, managed: managed?.reviewerForbidden ? false : null });
  if (managed?.reviewerForbidden) review = { ...review, value: false, source: 'managed', capped: review.value === true };

  const never: EffectiveAccess['provenance']['neverAutoApprove'] = [];
  const addNever = (entries: readonly string[] | undefined, source: 'file' | 'ui' | 'managed') => {
    for (const entry of entries ?? []) if (!never.some((n) => n.entry === entry)) never.push({ entry, source });
  };
  addNever(managed?.neverAutoApprove, 'managed');
  addNever(file.neverAutoApprove, 'file');
  addNever(ui.neverAutoApprove, 'ui');

  const set = <R>(ps: Provenance<R>[]) => Object.fromEntries(ps.filter((p) => p.value !== null).map((p) => [p.key.split('.').slice(2).join('.'), p.value as R]));
  return {
    level: level.value!,
    rules: {
      effects: set(effects) as Partial<Record<Effect, EffectRule>>,
      tools: set(tools) as Record<string, ToolRule>,
      ...(managed ? { managed: { effects: fromManaged(effects, 'rules.effects.'), tools: fromManaged(tools, 'rules.tools.') } } : {}),
    },
    approvalTtlSeconds: ttl.value!,
    autoApprovalEnabled: review.value!,
    neverAutoApprove: never.map((n) => n.entry),
    provenance: { level, effects, tools, approvalTtlSeconds: ttl, autoApprovalEnabled: review, neverAutoApprove: never },
  };
}

/** A change from the Settings page: a value sets this page's layer, null clears it (the file's value returns). */
export interface AccessChange {
  level?: Level | null;
  effects?: Partial<Record<Effect, EffectRule | null>>;
  tools?: Record<string, ToolRule | null>;
  approval_ttl_seconds?: number | null;
  auto_approval_enabled?: boolean | null;
}

/** The page's layer after a change. */
export function applyChange(layer: AccessLayer, change: AccessChange): AccessLayer {
  const next: { -readonly [K in keyof AccessLayer]: AccessLayer[K] } = { ...layer };
  const setOrClear = <K extends 'level' | 'approvalTtlSeconds' | 'autoApprovalEnabled'>(key: K, v: AccessLayer[K] | null | undefined) => {
    if (v === undefined) return;
    if (v === null) delete next[key];
    else next[key] = v;
  };
  setOrClear('level', change.level);
  setOrClear('approvalTtlSeconds', change.approval_ttl_seconds);
  setOrClear('autoApprovalEnabled', change.auto_approval_enabled);
  const rules = <R>(current: Readonly<Record<string, R>> | undefined, edits: Record<string, R | null> | undefined) => {
    if (!edits) return current;
    const out: Record<string, R> = { ...(current ?? {}) };
    for (const [k, v] of Object.entries(edits)) {
      if (v === null) delete out[k];
      else out[k] = v;
    }
    return Object.keys(out).length ? out : undefined;
  };
  const effects = rules(layer.effects as Record<string, EffectRule> | undefined, change.effects as Record<string, EffectRule | null> | undefined);
  const tools = rules(layer.tools, change.tools);
  if (effects) next.effects = effects;
  else delete next.effects;
  if (tools) next.tools = tools;
  else delete next.tools;
  return next;
}

// ── the page's layer as settings rows (key → value), the one encoding the store holds ────────────────

export const UI_KEY_PREFIX = 'ui:';

export function layerToRows(layer: AccessLayer): Record<string, unknown> {
  const rows: Record<string, unknown> = {};
  if (layer.level !== undefined) rows[`${UI_KEY_PREFIX}autonomy.level`] = layer.level;
  for (const [e, r] of Object.entries(layer.effects ?? {})) rows[`${UI_KEY_PREFIX}rules.effects.${e}`] = r;
  for (const [t, r] of Object.entries(layer.tools ?? {})) rows[`${UI_KEY_PREFIX}rules.tools.${t}`] = r;
  if (layer.approvalTtlSeconds !== undefined) rows[`${UI_KEY_PREFIX}approvals.ttl_seconds`] = layer.approvalTtlSeconds;
  if (layer.autoApprovalEnabled !== undefined) rows[`${UI_KEY_PREFIX}security.auto_approval.enabled`] = layer.autoApprovalEnabled;
  return rows;
}

export function layerFromRows(rows: Record<string, unknown>): AccessLayer {
  const layer: { -readonly [K in keyof AccessLayer]: AccessLayer[K] } = {};
  const effects: Record<string, EffectRule> = {};
  const tools: Record<string, ToolRule> = {};
  for (const [key, value] of Object.entries(rows)) {
    if (!key.startsWith(UI_KEY_PREFIX)) continue;
    const k = key.slice(UI_KEY_PREFIX.length);
    if (k === 'autonomy.level') layer.level = value as Level;
    else if (k === 'approvals.ttl_seconds') layer.approvalTtlSeconds = value as number;
    else if (k === 'security.auto_approval.enabled') layer.autoApprovalEnabled = value as boolean;
    else if (k.startsWith('rules.effects.')) effects[k.slice('rules.effects.'.length)] = value as EffectRule;
    else if (k.startsWith('rules.tools.')) tools[k.slice('rules.tools.'.length)] = value as ToolRule;
  }
  if (Object.keys(effects).length) layer.effects = effects;
  if (Object.keys(tools).length) layer.tools = tools;
  return layer;
}
