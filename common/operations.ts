// The one operations table: every operation the UI (Electron IPC and the web bridge), the JSON-RPC control
// API and `threshold ctl` use, with its canonical name, its params and result schemas, and every event
// the core broadcasts with its payload schema. IPC channels, control methods, preload verbs, the web
// bridge and AppApi are all derived from here; nothing restates a schema.
import { z } from 'zod';
import { EXECUTION_STATUSES, GRANT_DURATIONS, HUMAN_OUTCOMES, OUTCOMES, type DecisionRecord, type ExecutionOutcome, type GrantRecord, type PendingApproval, type ProposedGrant } from './approvals';
import { ARGV_MATCHES, CLASSES, DECISIONS, EFFECT_RULES, EFFECTS, GRANT_SCOPES, LEVELS, TOOL_RULES, type GrantPattern } from './domain';
import { CALL_STATES } from './call-state';
import { FLOORS, REMOTE_VIAS, SAFETY_REASONS, type DecidedBy } from './decided-by';
import { callOriginSchema } from './origin';
import { EXTERNAL_AGENTS } from './external-agents';
import { REVIEW_FAIL_PATHS, type ReviewReport } from './review';
import { CURSOR_PATTERN, DECIDER_GROUP_KEYS, type CallPage, type CallRecord } from './history';

// ── shared value schemas ────────────────────────────────────────────────────────────────────────────

const id = z.string().min(1).max(64);
const hash = z.string().regex(/^[0-9a-f]{64}$/, 'hash must be the 64-character content hash shown with the approval');
const limit = z.number().int().min(1).max(500);
/** No params: absent or `{}` (ctl and JSON-RPC clients send `{}`). */
const none = z.strictObject({}).optional();

export const levelSchema = z.enum(LEVELS);
export const classSchema = z.enum(CLASSES);
export const effectSchema = z.enum(EFFECTS);
export const outcomeSchema = z.enum(OUTCOMES);
export const humanOutcomeSchema = z.enum(HUMAN_OUTCOMES);
export const grantDurationSchema = z.enum(GRANT_DURATIONS);

export const grantPatternSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('argv'), argv: z.array(z.string().min(1)).min(1), redirects: z.array(z.string().min(1)).optional(), match: z.enum(ARGV_MATCHES).optional() }),
  z.strictObject({ kind: z.literal('command'), command: z.string().min(1).max(100_000) }),
  z.strictObject({ kind: z.literal('path'), glob: z.string().min(1) }),
  z.strictObject({ kind: z.literal('url'), prefix: z.string().min(1) }),
  z.strictObject({ kind: z.literal('tool') }),
]);

export const proposedGrantSchema = z.object({ tool: z.string(), patterns: z.array(grantPatternSchema) });

const reviewUsageSchema = z.object({ input_tokens: z.number().nullable(), output_tokens: z.number().nullable() });
export const reviewReportSchema = z.object({
  session_id: z.string(),
  turn_id: z.string().nullable(),
  call_id: z.string(),
  approval_id: z.string(),
  tool: z.string(),
  args: z.unknown(),
  outcome: z.enum(['approved', 'escalated']),
  path: z.enum([...REVIEW_FAIL_PATHS, 'withheld']).nullable(),
  reason: z.string(),
  reviewers: z.array(
    z.object({
      name: z.string(),
      model: z.string(),
      answer: z.object({ in_scope: z.boolean(), reversible: z.boolean(), injection_suspected: z.boolean(), reason: z.string() }).nullable(),
      error: z.object({ path: z.enum(REVIEW_FAIL_PATHS), message: z.string() }).nullable(),
      latency_ms: z.number().nullable(),
      usage: reviewUsageSchema.nullable(),
    }),
  ),
  budget: z.object({ number: z.number().int(), max: z.number().int() }).nullable(),
  latency_ms: z.number(),
  usage: reviewUsageSchema.nullable(),
  at: z.number(),
});

export const pendingApprovalSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  turn_id: z.string().nullable(),
  call_id: z.string(),
  tool: z.string(),
  args: z.unknown(),
  hash: z.string(),
  class: classSchema,
  effects: z.array(effectSchema),
  reason: z.string(),
  segment: z.object({ index: z.number().int(), text: z.string() }).nullable(),
  floor: z.string().nullable(),
  outcomes: z.array(humanOutcomeSchema),
  proposed_grant: proposedGrantSchema.nullable(),
  created_at: z.number(),
  expires_at: z.number().nullable(),
  orphan: z.boolean(),
  preview: z.string().nullable(),
  /** Present only when a reviewer escalated the call (its reason or failure). */
  review: reviewReportSchema.optional(),
  /** Who asked: the agent, ctl, another tool (common/origin.ts); null on older rows. */
  origin: callOriginSchema.nullable().optional(),
  /** Where the call runs (redacted). */
  cwd: z.string().nullable().optional(),
  /** A command's parts as the gate judged them, in order (the card shows those above read first). */
  parts: z.array(z.object({ text: z.string(), class: classSchema, reason: z.string().nullable(), via: z.array(z.string()) })).nullable().optional(),
});

export const executionOutcomeSchema = z.object({
  status: z.enum(EXECUTION_STATUSES),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  duration_ms: z.number().nullable(),
  error: z.string().nullable(),
  recorded_at: z.number(),
});

/** Who or what decided, as data (common/decided-by.ts): what logic on every side of a wire reads. */
export const decidedBySchema = z.union([
  z.object({ kind: z.literal('floor'), floor: z.enum(FLOORS) }),
  z.object({ kind: z.literal('safety'), reason: z.enum(SAFETY_REASONS) }),
  z.object({ kind: z.literal('rule'), on: z.literal('tool'), tool: z.string(), value: z.enum(TOOL_RULES) }),
  z.object({ kind: z.literal('rule'), on: z.literal('effect'), effect: effectSchema, value: z.enum(EFFECT_RULES) }),
  z.object({ kind: z.literal('rule'), on: z.literal('effects_auto') }),
  z.object({ kind: z.literal('grant'), grantIds: z.array(z.string()).readonly() }),
  z.object({ kind: z.literal('level'), level: levelSchema }),
  z.object({ kind: z.literal('tool'), problem: z.string() }),
  z.object({ kind: z.literal('human'), surface: z.string() }),
  z.object({ kind: z.literal('remote'), via: z.enum(REMOTE_VIAS), who: z.string() }),
  z.object({ kind: z.literal('earlier_approval'), approvalId: z.string(), via: z.enum(['approve_session', 'follow_up']) }),
  z.object({ kind: z.literal('session_approve_all') }),
  z.object({ kind: z.literal('timeout') }),
  z.object({ kind: z.literal('turn_stopped') }),
  z.object({ kind: z.literal('no_approver'), why: z.enum(['unattended_turn', 'no_approver_surface']) }),
  z.object({ kind: z.literal('restart') }),
  z.object({ kind: z.literal('reviewer'), reviewers: z.array(z.object({ name: z.string(), model: z.string() })).readonly() }),
]);

export const decisionRecordSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  call_id: z.string(),
  tool: z.string(),
  args: z.unknown(),
  hash: z.string(),
  class: classSchema,
  reason: z.string(),
  outcome: outcomeSchema,
  decided_by: z.string(),
  by: decidedBySchema.nullable(),
  decided_at: z.number(),
  created_at: z.number(),
  note: z.string().nullable(),
  grant_ids: z.array(z.string()),
  follow_up: z.enum(['awaiting', 'consumed']).nullable(),
  follow_up_call_id: z.string().nullable(),
  execution: executionOutcomeSchema.nullable(),
});

export const grantRecordSchema = z.object({
  id: z.string(),
  tool: z.string(),
  pattern: grantPatternSchema,
  scope: z.enum(GRANT_SCOPES),
  session_id: z.string().nullable(),
  expires_at: z.number().nullable(),
  source: z.enum(['config', 'approval', 'user', 'import']),
  source_session_id: z.string().nullable(),
  source_call_id: z.string().nullable(),
  created_at: z.number(),
  last_used_at: z.number().nullable(),
  use_count: z.number().int(),
  revoked_at: z.number().nullable(),
  note: z.string().nullable(),
  not_in_force: z.string().optional(),
  origin_label: z.string().optional(),
});

export const appInfoSchema = z.object({ name: z.string(), version: z.string(), runtime: z.enum(['electron', 'web', 'daemon', 'phone']) });

export const surfaceKindSchema = z.enum(['desktop', 'web', 'control', 'telegram', 'matrix', 'phone']);

// ── agent access: the configuration layers (main/config/layers.ts) ─────────────────────────────────

/** Where a value comes from: the built-in default, the config file, the Settings page, a managed policy. */
export const layerNameSchema = z.enum(['default', 'file', 'ui', 'managed']);
const provenanceOf = <T extends z.ZodType>(v: T) =>
  z.object({
    key: z.string(),
    /** The value that wins (null: unset, the level decides). */
    value: v.nullable(),
    source: layerNameSchema,
    /** What each layer holds (managed: its ceiling). */
    layers: z.object({ default: v.nullable(), file: v.nullable(), ui: v.nullable(), managed: v.nullable() }),
    /** The managed policy lowered what a lower layer chose. */
    capped: z.boolean(),
  });
export const effectRuleSchema = z.enum(EFFECT_RULES);
export const toolRuleSchema = z.enum(TOOL_RULES);

export const accessViewSchema = z.object({
  level: provenanceOf(levelSchema),
  effects: z.array(provenanceOf(effectRuleSchema)),
  tools: z.array(provenanceOf(toolRuleSchema)),
  /** 0 waits indefinitely. */
  approval_ttl_seconds: provenanceOf(z.number()),
  auto_approval: z.object({
    enabled: provenanceOf(z.boolean()),
    /** The reviewers `[security.auto_approval] reviewers` names, and those `[reviewers.*]` declares. */
    reviewers: z.array(z.string()),
    declared: z.array(z.string()),
    /** The managed policy that turns the reviewer off, when one does. */
    forbidden_by: z.string().nullable(),
  }),
  never_auto_approve: z.array(z.object({ entry: z.string(), source: z.enum(['file', 'ui', 'managed']) })),
  managed: z.object({ file: z.string(), max_level: levelSchema.nullable() }).nullable(),
});

/** A change on the Settings page: a value sets the page's layer, null clears it (the file's value returns). */
export const accessChangeSchema = z.strictObject({
  level: levelSchema.nullable().optional(),
  effects: z.partialRecord(effectSchema, effectRuleSchema.nullable()).optional(),
  tools: z.record(z.string().min(1).max(200), toolRuleSchema.nullable()).optional(),
  approval_ttl_seconds: z.number().int().min(0).max(7 * 24 * 3600).nullable().optional(),
  auto_approval_enabled: z.boolean().nullable().optional(),
});

const previewDecisionSchema = z.object({ decision: z.enum(DECISIONS), decided_by: z.string(), by: decidedBySchema, explanation: z.string() });
export const policyPreviewSchema = z.object({
  /** How many recent calls were replayed. */
  replayed: z.number().int(),
  /** Under the proposed policy. */
  counts: z.object({ allow: z.number().int(), ask: z.number().int(), deny: z.number().int(), changed: z.number().int() }),
  calls: z.array(
    z.object({
      call_id: z.string(),
      session_id: z.string(),
      tool: z.string(),
      /** The command, path or URL (redacted, as stored). */
      text: z.string(),
      created_at: z.number(),
      current: previewDecisionSchema,
      proposed: previewDecisionSchema,
      change: z.enum(['now_allowed', 'now_asked', 'now_denied']).nullable(),
    }),
  ),
  /** Why saving this change would be refused, when it would. */
  problem: z.string().nullable(),
});

export const settingsViewSchema = z.object({
  level: levelSchema,
  config_level: levelSchema,
  approval_ttl_seconds: z.number(),
  audit_retention: z.object({ max_entries: z.number().nullable(), max_age_days: z.number().nullable() }),
  config_file: z.string().nullable(),
  data_dir: z.string(),
  workspace: z.string(),
  approvers: z.array(surfaceKindSchema),
  jail: z.object({
    jailed: z.boolean(),
    unjailed: z.boolean(),
    problem: z.object({ cause: z.string(), fix: z.string() }).nullable(),
    containment: z.enum(['cgroup', 'rlimit']).nullable(),
    /** How each call's memory limit is held (docs/executor.md, "Memory"); rlimit-as is the weak fallback, none is macOS (not held). */
    memory: z.enum(['cgroup', 'systemd-scope', 'rlimit-as', 'none']).nullable(),
    /** Shown wherever the level is shown when commands run unjailed or cannot run. */
    warning: z.string().nullable(),
  }),
  /** Every agent-access value with the layer it comes from. */
  access: accessViewSchema,
});

export const agentInfoSchema = z.object({ model: z.string(), running: z.array(z.string()) });

export const sessionViewSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  workspace: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number().nullable(),
  approve_all_at: z.number().nullable(),
  approve_all_approval: z.string().nullable(),
  running: z.boolean(),
});

/** A session in approve-all mode, as the chat's banner and Settings → Grants show it. */
export const approveAllViewSchema = z.object({
  session_id: z.string(),
  session_title: z.string().nullable(),
  /** When it began. */
  since: z.number(),
  /** The approval whose "Approve all for this session" began it. */
  approval_id: z.string().nullable(),
  /** That approval's call as its card showed it (redacted). */
  call: z.object({ tool: z.string(), args: z.unknown() }).nullable(),
  /** Who chose it (desktop, web, control). */
  started_by: z.string().nullable(),
  /** Later calls it approved without asking, and when the last one was. */
  uses: z.number().int(),
  last_used_at: z.number().nullable(),
});
/** An approval for the session (Approve for session) in force: identical calls of the session run unasked. */
export const sessionApprovalViewSchema = z.object({
  approval_id: z.string(),
  session_id: z.string(),
  session_title: z.string().nullable(),
  tool: z.string(),
  args: z.unknown(),
  decided_at: z.number(),
  decided_by: z.string().nullable(),
  by: decidedBySchema.nullable(),
  uses: z.number().int(),
  last_used_at: z.number().nullable(),
});
export const sessionApprovalRevokedSchema = z.object({ approval_id: z.string(), session_id: z.string(), revoked_at: z.number(), revoked_by: z.string() });
export const approveAllEndedSchema = z.object({ session_id: z.string(), approval_id: z.string().nullable(), ended_at: z.number(), ended_by: z.string() });

export const transcriptEntrySchema = z.object({
  session_id: z.string(),
  seq: z.number().int(),
  role: z.enum(['user', 'assistant', 'tool', 'note']),
  turn_id: z.string().nullable(),
  /** A model message (redacted), or `{ text }` for a note. */
  content: z.unknown(),
  created_at: z.number(),
  /** Who wrote a `user` message: null for the person, `threshold` for a message the product sent the model. */
  origin: z.enum(['threshold']).nullable().default(null),
});

export const questionViewSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  turn_id: z.string(),
  call_id: z.string(),
  question: z.string(),
  created_at: z.number(),
  expires_at: z.number(),
});

export const consentOfferSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  call_id: z.string(),
  path: z.string(),
  access: z.enum(['write', 'code', 'read', 'host']),
  attempted: z.string(),
  evidence: z.string(),
  reason: z.string().optional(),
  created_at: z.number(),
});
/** hour: allowed for an hour (host offers only). */
export const consentChoiceSchema = z.enum(['session', 'hour', 'always', 'deny']);

export const auditEntrySchema = z.object({
  seq: z.number().int(),
  at: z.number(),
  kind: z.string(),
  session_id: z.string().nullable(),
  subject: z.string().nullable(),
  data: z.unknown(),
  prev_hash: z.string(),
  hash: z.string(),
});

export const auditVerifySchema = z.union([
  z.object({ ok: z.literal(true), entries: z.number().int(), checkpoints: z.number().int(), head: z.string() }),
  z.object({ ok: z.literal(false), entries: z.number().int(), broken_at: z.number().int(), reason: z.string() }),
]);

export const checkpointViewSchema = z.object({
  id: z.string(),
  workspace: z.string(),
  session_id: z.string().nullable(),
  call_id: z.string().nullable(),
  kind: z.string(),
  commit: z.string(),
  files: z.number().int(),
  excluded: z.array(z.string()),
  created_at: z.number(),
  restored_at: z.number().nullable(),
  call: z.object({ tool: z.string(), args: z.unknown() }).nullable(),
  /** A checkpoint taken before a restore: the checkpoint that was restored (restoring this one undoes it). */
  restore_of: z.string().nullable(),
  /** After a restore of this checkpoint: the checkpoint that undoes it, and when it was used. */
  undo: z.object({ id: z.string(), created_at: z.number(), restored_at: z.number().nullable() }).nullable(),
});

const fileChangeSchema = z.object({ path: z.string(), change: z.enum(['added', 'modified', 'deleted']) });
export const restorePlanSchema = z.object({
  checkpoint: checkpointViewSchema,
  /** The workspace as the plan saw it: pass it to checkpoint.restore as expected_tree. */
  tree: z.string(),
  /** What changed since the checkpoint, file by file (Restore deletes what was added and puts back the rest). */
  files: z.array(fileChangeSchema),
  /** Those changes grouped by the checkpoint before them (the call it was taken for), oldest first. */
  steps: z.array(z.object({ checkpoint: checkpointViewSchema, files: z.array(fileChangeSchema), patch: z.string(), truncated: z.boolean() })),
  more_steps: z.number().int(),
  /** Paths no checkpoint holds (ignored by .gitignore, or too large): Restore leaves them as they are. */
  left_alone: z.array(z.string()),
  left_alone_more: z.number().int(),
});

export const checkpointDiffSchema = z.object({ from: z.string(), to: z.string(), stat: z.string(), patch: z.string(), truncated: z.boolean() });

/** One example a grant is checked against: `covered` by it, or `never` coverable by any grant. */
export const grantSampleSchema = z.object({
  text: z.string(),
  /** call: the card's own call; recent: an earlier call of the same session; sample: a generated variant; given: passed in by the caller. */
  source: z.enum(['call', 'recent', 'sample', 'given']),
  covered: z.boolean(),
  never: z.boolean(),
  /** A sentence saying why, for the preview. */
  reason: z.string(),
});

/** The model provider as the Model page shows it (never the key itself). */
export const providerKindSchema = z.enum(['openai-compatible', 'anthropic', 'openai']);
export const modelViewSchema = z.object({
  kind: providerKindSchema,
  base_url: z.string(),
  model: z.string(),
  /** The environment variable the key is read from (null: the provider needs none). */
  api_key_env: z.string().nullable(),
  /** Where the key in use comes from; `none` when neither the keychain nor the variable holds one. */
  key_source: z.enum(['keychain', 'environment', 'none']),
  /** Whether this surface can store a key in the OS keychain (the desktop window only). */
  key_storable: z.boolean(),
  /** config: the config file (or the defaults); page: saved on the Model page, over the file. */
  origin: z.enum(['config', 'page']),
  /** The agent's label for it ("Anthropic claude-sonnet-4-5"). */
  label: z.string(),
  /** Whether that key goes to this provider: a key is sent only to the endpoint it is bound to. */
  key_applies: z.boolean(),
  /** Why it does not, and where it is kept (null when it does, or there is no key). */
  key_note: z.string().nullable(),
});
export const providerInputSchema = z.strictObject({
  kind: providerKindSchema,
  base_url: z.url({ protocol: /^https?$/, error: 'the base URL must be an http:// or https:// address' }).max(2000),
  model: z.string().trim().min(1).max(200),
});
export const modelTestSchema = z.object({
  /** Whether the provider answered with text. */
  reached: z.boolean(),
  /** The model's answer (redacted, trimmed), when it answered. */
  answer: z.string().nullable(),
  latency_ms: z.number(),
  /** The provider's error, in its own words where it gave some. */
  error: z.string().nullable(),
  label: z.string(),
  /** Whether the API key went with the request (only to the endpoint it is bound to, or on the desktop window's confirmation). */
  key_sent: z.boolean(),
  /** Why a key on hand was not sent (null when it was, or there is none). */
  key_note: z.string().nullable(),
});

/** A repeated approval that a grant could replace, mined from the history. */
export const grantSuggestionSchema = z.object({
  tool: z.string(),
  /** The call as approved (redacted): its command, path or URL. */
  text: z.string(),
  class: classSchema,
  /** How many times a person approved exactly this call, once at a time, in this workspace. */
  count: z.number().int(),
  last_approved_at: z.number(),
  /** The grant that would cover it (the one its card offered). */
  patterns: z.array(grantPatternSchema).min(1),
  /** The content hash the approvals share (a card with this hash is the same call). */
  hash: z.string(),
});
export const turnEndReasonSchema = z.enum(['completed', 'stopped', 'denied', 'step_limit', 'provider_error', 'crashed']);
export const questionOutcomeKindSchema = z.enum(['answered', 'dismissed', 'timed_out', 'cancelled', 'no_one']);
export const notificationSchema = z.object({ id: z.string(), session_id: z.string(), message: z.string(), urgency: z.enum(['info', 'attention', 'urgent']), created_at: z.number() });

// ── approvers away from the desk (main/remote, docs/remote.md) ──────────────────────────────────────

export const bridgeNameSchema = z.enum(['telegram', 'matrix']);
export const deviceViewSchema = z.object({ id: z.string(), name: z.string(), created_at: z.number(), last_seen_at: z.number().nullable(), revoked_at: z.number().nullable() });
export const remoteStatusSchema = z.object({
  /** Cards above this class carry no approve button away from the desk. */
  max_class: classSchema,
  content: z.enum(['summary', 'none']),
  bridges: z.array(
    z.object({
      name: bridgeNameSchema,
      /** The chat or room whose answers count. */
      audience: z.string(),
      /** Where its token is sent: the Bot API or the homeserver. */
      endpoint: z.string(),
      /** Matrix: the only person whose answers count (null for Telegram, where the chat decides). */
      person: z.string().nullable(),
      /** Where its token comes from (never the token). */
      token_source: z.enum(['keychain', 'environment', 'none']),
      /** The environment variable the config names for the token. */
      token_env: z.string(),
      state: z.enum(['starting', 'ok', 'failing', 'stopped', 'not_started']),
      error: z.string().nullable(),
      last_ok_at: z.number().nullable(),
    }),
  ),
  /** The phone page on the LAN; null when [remote.phone] is not set (loopback only). */
  phone: z.object({ origin: z.string(), fingerprint: z.string() }).nullable(),
});
export const pairingSchema = z.object({
  /** What the QR code holds: the phone page's address with the one-time code in its fragment. */
  url: z.string(),
  code: z.string(),
  /** The QR code as an SVG document. */
  qr_svg: z.string(),
  /** SHA-256 of the phone page's certificate, to compare with what the phone's browser shows. */
  fingerprint: z.string(),
  expires_at: z.number(),
});

// ── the history of calls (common/history.ts) ────────────────────────────────────────────────────────

export const callStateSchema = z.enum(CALL_STATES);
const cursor = z.string().regex(CURSOR_PATTERN, 'a cursor is what next_cursor or upto returned');

export const callRecordSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  turn_id: z.string().nullable(),
  tool: z.string(),
  summary: z.string(),
  class: classSchema.nullable(),
  decision: z.enum(['allow', 'ask', 'deny']).nullable(),
  decided_by: z.string().nullable(),
  by: decidedBySchema.nullable(),
  decider: z.enum(DECIDER_GROUP_KEYS).nullable(),
  state: callStateSchema,
  created_at: z.number(),
  updated_at: z.number(),
  approval: z.object({ id: z.string(), outcome: outcomeSchema.nullable(), decided_at: z.number().nullable() }).nullable(),
  execution: executionOutcomeSchema.nullable(),
  checkpoint_id: z.string().nullable(),
  model_call_id: z.string().nullable(),
  origin: callOriginSchema.nullable().optional(),
});

export const callPageSchema = z.object({ calls: z.array(callRecordSchema), next_cursor: z.string().nullable(), upto: z.string().nullable(), total: z.number().int().nullable() });

export const callDetailSchema = callRecordSchema.extend({
  args: z.unknown(),
  cwd: z.string().nullable(),
  hash: z.string(),
  effects: z.array(effectSchema),
  explanation: z.string().nullable(),
  /** When it asked: the approval as stored (the card's reason and preview, the decision and its note). */
  asked: z
    .object({
      id: z.string(),
      reason: z.string(),
      outcome: outcomeSchema.nullable(),
      decided_by: z.string().nullable(),
      by: decidedBySchema.nullable(),
      decided_at: z.number().nullable(),
      created_at: z.number(),
      expires_at: z.number().nullable(),
      note: z.string().nullable(),
      grant_ids: z.array(z.string()),
      preview: z.string().nullable(),
    })
    .nullable(),
  checkpoint: checkpointViewSchema.nullable(),
  /** The audit entries about this call and its approval, oldest first. */
  audit: z.array(auditEntrySchema),
});

export const callListParamsSchema = z
  .strictObject({
    limit: limit.optional(),
    cursor: cursor.optional(),
    offset: z.number().int().min(0).max(10_000_000).optional(),
    upto: cursor.optional(),
    with_total: z.boolean().optional(),
    state: z.array(callStateSchema).min(1).max(CALL_STATES.length).optional(),
    tool: z.string().min(1).max(200).optional(),
    class: classSchema.optional(),
    session_id: id.optional(),
    decided_by: z.enum(DECIDER_GROUP_KEYS).optional(),
    text: z.string().min(1).max(200).optional(),
  })
  .refine((p) => p.cursor === undefined || p.offset === undefined, { message: 'give cursor or offset, not both', path: ['offset'] })
  .optional();

/** The history's schemas describe its types exactly (a drift is a compile error). */
export const CALL_SCHEMAS_MATCH_HISTORY: [Same<z.output<typeof callRecordSchema>, CallRecord>, Same<z.output<typeof callPageSchema>, CallPage>] = [true, true];

// ── operations ──────────────────────────────────────────────────────────────────────────────────────

/** ui: the Electron window (IPC) and the web bridge; control: the JSON-RPC socket and ctl. */
export type Transport = 'ui' | 'control';

export interface OperationSpec {
  params: z.ZodType;
  result: z.ZodType;
  transports: readonly Transport[];
  /** The AppApi verb, for operations the UI uses. */
  verb?: string;
  /** Older names that keep working on the control API (they are contracts). */
  aliases?: readonly string[];
  summary: string;
}

function op<const S extends OperationSpec>(spec: S): S {
  return spec;
}

const both = ['ui', 'control'] as const;

const agentSendStarted = z.object({ session_id: z.string(), turn_id: z.string(), appended: z.boolean() });

export const OPERATIONS = {
  'app.get_info': op({ summary: "Threshold's name, version and where it runs.", params: none, result: appInfoSchema, transports: both, verb: 'getInfo' }),
  'app.get_web_address': op({
    summary: 'The web UI\'s address with its token, exactly as the `threshold: web UI:` line printed it (for `threshold ctl web`); the control socket only.',
    params: none,
    result: z.object({ url: z.string() }),
    transports: ['control'],
  }),

  'approval.list_pending': op({ summary: 'Approvals waiting for a decision (an empty list when there are none).', params: none, result: z.array(pendingApprovalSchema), transports: both, verb: 'listPending' }),
  'approval.list_decisions': op({
    summary: 'Recent decisions, newest first, each with the outcome of its execution.',
    params: z.strictObject({ limit: limit.optional(), session_id: z.string().min(1).optional(), outcome: outcomeSchema.optional(), tool: z.string().min(1).optional(), since: z.number().int().min(0).optional() }).optional(),
    result: z.array(decisionRecordSchema),
    transports: both,
    verb: 'listDecisions',
    aliases: ['approval.list_recent_decisions'],
  }),
  'approval.decide': op({
    summary: 'Decides a pending approval; the hash binds the decision to the exact call shown.',
    params: z.strictObject({
      id,
      hash,
      outcome: humanOutcomeSchema,
      /** Deny: a note the model sees. */
      note: z.string().max(2000).optional(),
      /** approve_always: the grant as edited on the card (default: the proposal) and its duration. */
      grant: z.strictObject({ patterns: z.array(grantPatternSchema).min(1).optional(), duration: grantDurationSchema.optional() }).optional(),
    }),
    result: decisionRecordSchema,
    transports: both,
    verb: 'decide',
  }),
  'approval.reveal': op({
    summary: "The pending call's original, unredacted arguments for the card's Reveal toggle: only while it waits in this process, never stored; the window and the page only.",
    params: z.strictObject({ id }),
    result: z.object({ args: z.unknown() }),
    // Not on the control socket: a script that can read the socket would otherwise read every secret a
    // pending command holds; a person at the card is the only reader this is for.
    transports: ['ui'],
    verb: 'revealArgs',
  }),
  'approval.request': op({
    summary: "Submits a tool call to the gate (scripts and tests); with execute an approved run_command runs in the jail.",
    params: z.strictObject({
      tool: z.string().min(1),
      args: z.record(z.string(), z.unknown()),
      session_id: z.string().min(1).optional(),
      turn_id: z.string().min(1).optional(),
      cwd: z.string().min(1).optional(),
      unattended: z.boolean().optional(),
      wait: z.boolean().optional(),
      execute: z.boolean().optional(),
    }),
    result: z.looseObject({}),
    transports: ['control'],
  }),
  'external.review': op({
    summary:
      "Judges a call another agent is about to make (its hook asks, the call mapped onto Threshold's tools): allowed, denied, or parked as a card until a person decides; the answer carries the card's or the policy's reason. An allowed command may go to Threshold's jail (jail: true) as a one-time ticket.",
    params: z.strictObject({
      agent: z.enum(EXTERNAL_AGENTS),
      /** pre_tool_use: before the agent runs a call; permission_request: the agent is about to ask its own user (Codex). */
      event: z.enum(['pre_tool_use', 'permission_request']).optional(),
      /** The agent's own session id (Threshold's session is derived from it). */
      session_id: z.string().min(1).max(200),
      turn_id: z.string().min(1).max(200).optional(),
      agent_call_id: z.string().min(1).max(200).optional(),
      tool: z.string().min(1).max(200),
      args: z.record(z.string(), z.unknown()),
      /** Where the call runs and the agent's project, absolute. */
      cwd: z.string().min(1).max(4096),
      workspace: z.string().min(1).max(4096),
      /** The hook can rewrite the call: with `[hooks] jail = true` an allowed command goes to Threshold's jail. */
      can_rewrite: z.boolean().optional(),
    }),
    result: z.object({
      decision: z.enum(['allow', 'deny']),
      outcome: outcomeSchema.nullable(),
      reason: z.string(),
      call_id: z.string(),
      approval_id: z.string().nullable(),
      decided_by: z.string(),
      by: decidedBySchema,
      class: classSchema,
      run: z.object({ token: z.string(), expires_at: z.number() }).nullable(),
      checkpoint_id: z.string().nullable(),
      workspace: z.string(),
    }),
    transports: ['control'],
  }),
  'external.run': op({
    summary: "Runs a command Threshold allowed into its jail for another agent, once per ticket, after a checkpoint; returns its output (redacted), exit code and Threshold's notes.",
    params: z.strictObject({ token: z.string().min(16).max(128) }),
    result: z.object({ status: z.string(), exit_code: z.number().int().nullable(), stdout: z.string(), stderr: z.string(), notes: z.array(z.string()), checkpoint_id: z.string().nullable() }),
    transports: ['control'],
  }),
  'mcp.list_tools': op({
    summary: "The tools of the MCP servers in threshold.toml, for `threshold mcp-gateway` (a stopped server's as it last listed them), and each server's state and last problem.",
    params: none,
    result: z.object({
      tools: z.array(z.object({ server: z.string(), tool: z.string(), description: z.string().nullable(), input_schema: z.unknown(), annotations: z.object({ readOnlyHint: z.boolean(), destructiveHint: z.boolean(), openWorldHint: z.boolean() }) })),
      servers: z.array(z.object({ name: z.string(), state: z.enum(['running', 'stopped', 'failed']), problem: z.string().nullable(), restarts: z.number().int() })),
    }),
    transports: ['control'],
  }),
  'mcp.call_tool': op({
    summary: 'One tools/call from an MCP client of the gateway: judged by the gate (a card when it asks), then run on its server; the answer is the server\'s result, or why it did not run.',
    params: z.strictObject({
      server: z.string().regex(/^[a-z0-9][a-z0-9-]{0,30}$/, 'an MCP server name from threshold.toml'),
      tool: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a tool name'),
      arguments: z.record(z.string(), z.unknown()),
      /** The MCP client's name, as it introduced itself. */
      client: z.string().min(1).max(200),
      session_id: z.string().min(1).max(200),
    }),
    result: z.object({ decision: z.enum(['allow', 'deny']), reason: z.string(), call_id: z.string(), content: z.array(z.unknown()), is_error: z.boolean(), structured_content: z.unknown().optional() }),
    transports: ['control'],
  }),
  'approval.record_outcome': op({
    summary: 'Records the write-once execution outcome of an approved call run elsewhere.',
    params: z.strictObject({
      call_id: z.string().min(1),
      status: z.enum(EXECUTION_STATUSES),
      exit_code: z.number().int().nullable().optional(),
      signal: z.string().nullable().optional(),
      duration_ms: z.number().int().min(0).nullable().optional(),
      error: z.string().nullable().optional(),
    }),
    result: executionOutcomeSchema,
    transports: ['control'],
  }),
  'approval.list_follow_ups': op({
    summary: 'Approved orphans waiting for their follow-up turn.',
    params: z.strictObject({ session_id: z.string().min(1).optional() }).optional(),
    result: z.array(decisionRecordSchema),
    transports: ['control'],
    aliases: ['approval.follow_ups'],
  }),

  'grant.list': op({ summary: 'Grants in force (include_inactive: revoked and expired too), with those from the config file.', params: z.strictObject({ include_inactive: z.boolean().optional() }).optional(), result: z.array(grantRecordSchema), transports: both, verb: 'listGrants', aliases: ['grants.list'] }),
  'grant.create': op({
    summary: 'Creates a grant by hand.',
    params: z.strictObject({
      tool: z.string().min(1),
      pattern: grantPatternSchema,
      duration: grantDurationSchema.optional(),
      session_id: z.string().min(1).optional(),
      note: z.string().max(500).optional(),
      /** `threshold import`: the file and rule it came from; the grant's source is then "import". */
      imported_from: z.string().min(1).max(500).optional(),
    }),
    result: grantRecordSchema,
    transports: both,
    verb: 'createGrant',
    aliases: ['grants.create'],
  }),
  'grant.update': op({
    summary: "Edits a grant's pattern, scope (duration) or note.",
    params: z.strictObject({ id, pattern: grantPatternSchema.optional(), duration: grantDurationSchema.optional(), note: z.string().max(500).nullable().optional() }),
    result: grantRecordSchema,
    transports: both,
    verb: 'updateGrant',
    aliases: ['grants.update'],
  }),
  'grant.revoke': op({ summary: 'Revokes a grant; the next call it would have covered asks again.', params: z.strictObject({ id }), result: grantRecordSchema, transports: both, verb: 'revokeGrant', aliases: ['grants.revoke'] }),
  'grant.preview': op({
    summary: "What a grant would cover: the card's own call, generated examples and any given ones, each covered, not covered, or never coverable.",
    params: z.strictObject({
      tool: z.string().min(1),
      patterns: z.array(grantPatternSchema).min(1).max(20),
      /** The pending approval whose call is shown first. */
      approval_id: id.optional(),
      /** More examples: commands for run_command, paths for file tools, URLs for web_fetch. */
      samples: z.array(z.string().min(1).max(2000)).max(20).optional(),
    }),
    result: z.object({
      samples: z.array(grantSampleSchema),
      /** The width judge's answer (main/policy/grant-width.ts): a refused grant cannot be saved, and the server refuses it too. */
      verdict: z.object({ ok: z.boolean(), code: z.enum(['invalid_grant', 'too_wide', 'covers_nothing', 'not_this_call', 'one_grant']).optional(), reason: z.string().optional() }).optional(),
      /** With approval_id: whether the grant covers that call (it must, to be saved from its card). */
      covers_call: z.boolean().nullable().optional(),
    }),
    transports: both,
    verb: 'previewGrant',
  }),

  'approve_all.list': op({
    summary: 'Sessions in approve-all mode: since when, which card began it, how many calls it approved since.',
    params: none,
    result: z.array(approveAllViewSchema),
    transports: both,
    verb: 'listApproveAll',
  }),
  'approve_all.end': op({
    summary: "Ends a session's approve-all (audited): its next ask waits for a person again, on every surface.",
    params: z.strictObject({ session_id: id }),
    result: approveAllEndedSchema,
    transports: both,
    verb: 'endApproveAll',
  }),

  'approval.list_session': op({
    summary: 'Approvals for the session (Approve for session) in force: the exact call each covers in its session, and how often it was used.',
    params: none,
    result: z.array(sessionApprovalViewSchema),
    transports: both,
    verb: 'listSessionApprovals',
  }),
  'approval.revoke_session': op({
    summary: 'Revokes an approval for the session (audited): the identical call asks again, on every surface.',
    params: z.strictObject({ id }),
    result: sessionApprovalRevokedSchema,
    transports: both,
    verb: 'revokeSessionApproval',
  }),

  'call.list': op({
    summary: 'Every call the gate saw, newest first, whoever or whatever decided it, with its outcome and duration; filters combine, pages by cursor (or offset under upto).',
    params: callListParamsSchema,
    result: callPageSchema,
    transports: both,
    verb: 'listCalls',
    aliases: ['calls.list'],
  }),
  'call.get': op({ summary: "One call in full: its redacted arguments, explanation, approval, outcome, checkpoint and audit entries.", params: z.strictObject({ id }), result: callDetailSchema, transports: both, verb: 'getCall', aliases: ['calls.get'] }),
  'grant.list_suggestions': op({
    summary: 'Calls a person approved once at a time again and again in this workspace, each with the grant that would cover it (never floors or destructive calls).',
    params: z.strictObject({
      /** Only the suggestion for this pending approval's call (a card shows it after the third identical approval). */
      approval_id: id.optional(),
      limit: z.number().int().min(1).max(50).optional(),
    }).optional(),
    result: z.array(grantSuggestionSchema),
    transports: both,
    verb: 'listGrantSuggestions',
  }),

  'audit.list': op({
    summary: 'Audit entries, newest first.',
    params: z.strictObject({ limit: limit.optional(), before: z.number().int().optional(), kind: z.string().min(1).optional() }).optional(),
    result: z.array(auditEntrySchema),
    transports: both,
    verb: 'listAudit',
  }),
  'audit.verify': op({ summary: "Verifies the audit history's hash chain.", params: none, result: auditVerifySchema, transports: both, verb: 'verifyAudit' }),

  'sandbox.list_offers': op({ summary: 'Paths the jail denied, waiting for consent.', params: none, result: z.array(consentOfferSchema), transports: both, verb: 'listConsentOffers' }),
  'sandbox.consent': op({ summary: 'Answers a sandbox consent offer: allow for the session, for an hour (hosts), always, or keep denied.', params: z.strictObject({ id, choice: consentChoiceSchema }), result: consentOfferSchema, transports: both, verb: 'decideConsent' }),

  'checkpoint.list': op({
    summary: 'Workspace checkpoints, newest first.',
    params: z.strictObject({ workspace: z.string().min(1).optional(), limit: limit.optional() }).optional(),
    result: z.array(checkpointViewSchema),
    transports: both,
    verb: 'listCheckpoints',
    aliases: ['checkpoints.list'],
  }),
  'checkpoint.diff': op({ summary: 'What the checkpointed call changed.', params: z.strictObject({ id }), result: checkpointDiffSchema, transports: both, verb: 'getCheckpointDiff', aliases: ['checkpoints.diff'] }),
  'checkpoint.plan_restore': op({
    summary: 'Everything restoring a checkpoint would undo: that call and every later change in the workspace, step by step with files and diffs, and what it leaves alone.',
    params: z.strictObject({ id }),
    result: restorePlanSchema,
    transports: both,
    verb: 'planRestore',
  }),
  'checkpoint.restore': op({
    summary: 'Restores the workspace to a checkpoint (a safety checkpoint of the current state is taken first; restoring it undoes the restore). With expected_tree (a plan\'s tree), refuses if the workspace changed since the plan.',
    params: z.strictObject({ id, expected_tree: z.string().regex(/^[0-9a-f]{40,64}$/, 'expected_tree is the tree a restore plan returned').optional() }),
    result: z.object({ restored: checkpointViewSchema, safety: checkpointViewSchema }),
    transports: both,
    verb: 'restoreCheckpoint',
    aliases: ['checkpoints.restore'],
  }),

  'settings.get': op({ summary: 'The level, TTL, retention, paths, approver surfaces and jail status.', params: none, result: settingsViewSchema, transports: both, verb: 'getSettings' }),
  'settings.set_level': op({ summary: 'Sets the level.', params: z.strictObject({ level: levelSchema }), result: z.object({ level: levelSchema }), transports: both, verb: 'setLevel' }),
  'settings.update': op({
    summary: "Changes the Settings page's layer (validated like the config file, never past a managed policy; the file is not rewritten); applies from the next call.",
    params: z.strictObject({ changes: accessChangeSchema }),
    result: settingsViewSchema,
    transports: both,
    verb: 'updateSettings',
  }),
  'policy.preview': op({
    summary: 'Replays the last calls under a proposed change: which would now run unasked, be asked, or be refused.',
    params: z.strictObject({ changes: accessChangeSchema, limit: limit.optional() }),
    result: policyPreviewSchema,
    transports: both,
    verb: 'previewPolicy',
  }),
  'settings.set_api_key': op({
    summary: "Stores the provider's API key in the OS keychain; it is never sent back.",
    params: z.strictObject({ key: z.string().min(8).max(4096).regex(/^\S+$/, 'an API key has no spaces') }),
    result: z.object({ stored: z.literal(true) }),
    transports: ['ui'],
    verb: 'setApiKey',
  }),

  'model.get': op({ summary: 'The model provider in use: kind, base URL, model and where its key comes from (never the key).', params: none, result: modelViewSchema, transports: both, verb: 'getModel' }),
  'model.set': op({
    summary: 'Switches the model provider from the next model step on, saved over the config file (which is never rewritten).',
    params: providerInputSchema,
    result: modelViewSchema,
    transports: both,
    verb: 'setModel',
  }),
  'model.test': op({
    summary: "Sends the provider one short real request (the saved settings, or the ones given) and reports its answer, the latency or the provider's error.",
    params: providerInputSchema.optional(),
    result: modelTestSchema,
    transports: both,
    verb: 'testModel',
  }),

  'agent.get_info': op({ summary: "The model's label and the sessions with a turn running.", params: none, result: agentInfoSchema, transports: both, verb: 'getAgentInfo', aliases: ['agent.info'] }),
  'agent.send': op({
    summary: 'Sends the agent a message: starts a turn or joins the running one. The UI returns at once; the control API waits for the turn unless wait is false.',
    params: z.strictObject({
      message: z.string().min(1).max(100_000),
      session_id: id.optional(),
      /** An unattended turn: every call that would ask is denied, never reviewed. */
      unattended: z.boolean().optional(),
      wait: z.boolean().optional(),
    }),
    result: agentSendStarted.extend({ reason: turnEndReasonSchema.optional(), steps: z.number().int().optional(), text: z.string().optional(), error: z.string().nullable().optional() }),
    transports: both,
    verb: 'send',
  }),
  'agent.stop': op({ summary: "Stops the session's running turn and kills its processes.", params: z.strictObject({ session_id: id }), result: z.object({ stopped: z.boolean() }), transports: both, verb: 'stop' }),
  'agent.list_sessions': op({ summary: 'Sessions, most recently active first.', params: z.strictObject({ limit: limit.optional() }).optional(), result: z.array(sessionViewSchema), transports: both, verb: 'listSessions', aliases: ['agent.sessions'] }),
  'agent.get_transcript': op({ summary: "A session's messages (redacted) and notes.", params: z.strictObject({ session_id: id }), result: z.array(transcriptEntrySchema), transports: both, verb: 'getTranscript', aliases: ['agent.transcript'] }),

  'remote.status': op({ summary: 'Approvers away from the desk: each chat bridge (where its token comes from, never the token; whether it reaches its service) and the phone page.', params: none, result: remoteStatusSchema, transports: both, verb: 'getRemoteStatus' }),
  'remote.configure': op({
    summary: 'Sets where cards go from Settings → Devices (Telegram chat; Matrix homeserver, room and person; null turns a bridge off), saved over the config file and applied at once; a new endpoint only from the desktop window.',
    params: z.strictObject({
      telegram: z.strictObject({ chat_id: z.number().int() }).nullable().optional(),
      matrix: z.strictObject({ homeserver: z.string().min(1).max(2000), room_id: z.string().min(1).max(255), user_id: z.string().min(1).max(255) }).nullable().optional(),
    }),
    result: remoteStatusSchema,
    transports: both,
    verb: 'configureRemote',
  }),
  'remote.send_test': op({
    summary: 'Sends a test message to a chat bridge (no buttons, nothing to decide) and reports whether it arrived.',
    params: z.strictObject({ bridge: bridgeNameSchema }),
    result: z.object({ sent: z.literal(true), message_id: z.string() }),
    transports: both,
    verb: 'sendRemoteTest',
  }),
  'remote.set_token': op({
    summary: "Stores a chat bridge's token in the OS keychain (the desktop window only); it is never sent back, and the bridge restarts with it.",
    params: z.strictObject({ bridge: bridgeNameSchema, token: z.string().min(8).max(4096).regex(/^\S+$/, 'a token has no spaces') }),
    result: z.object({ stored: z.literal(true) }),
    transports: ['ui'],
    verb: 'setRemoteToken',
  }),
  'device.list': op({ summary: 'Paired phones: name, when paired, last seen (revoked ones with include_revoked).', params: z.strictObject({ include_revoked: z.boolean().optional() }).optional(), result: z.array(deviceViewSchema), transports: both, verb: 'listDevices' }),
  'device.pair': op({ summary: 'Starts pairing a phone: a one-time code (five minutes, one try per wrong guess up to five) and the QR code that holds it with the phone page address.', params: none, result: pairingSchema, transports: ['ui'], verb: 'pairDevice' }),
  'device.revoke': op({ summary: "Revokes a paired phone: its open page is closed and its next request is refused.", params: z.strictObject({ id }), result: deviceViewSchema, transports: both, verb: 'revokeDevice' }),

  'question.list': op({ summary: 'Open questions (ask_user).', params: none, result: z.array(questionViewSchema), transports: both, verb: 'listQuestions' }),
  'question.answer': op({ summary: 'Answers a question.', params: z.strictObject({ id, answer: z.string().min(1).max(20_000) }), result: z.object({ id: z.string(), outcome: z.literal('answered') }), transports: both, verb: 'answerQuestion' }),
  'question.dismiss': op({ summary: 'Dismisses a question (the agent uses its best judgment).', params: z.strictObject({ id }), result: z.object({ id: z.string(), outcome: z.literal('dismissed') }), transports: both, verb: 'dismissQuestion' }),
} as const;

export type Operations = typeof OPERATIONS;
export type OperationName = keyof Operations;
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];
export type ParamsOf<K extends OperationName> = z.output<Operations[K]['params']>;
/** What a caller may send (before defaults). */
export type ParamsIn<K extends OperationName> = z.input<Operations[K]['params']>;
export type ResultOf<K extends OperationName> = z.output<Operations[K]['result']>;

/** Old names (control API) → canonical names. */
export const ALIASES: Readonly<Record<string, OperationName>> = Object.fromEntries(
  OPERATION_NAMES.flatMap((name) => ((OPERATIONS[name] as OperationSpec).aliases ?? []).map((alias) => [alias, name] as const)),
);

/** The canonical operation for a name or an alias, when the transport offers it. */
export function resolveOperation(name: string, transport: Transport): OperationName | null {
  const canonical = Object.hasOwn(OPERATIONS, name) ? (name as OperationName) : Object.hasOwn(ALIASES, name) ? ALIASES[name]! : null;
  if (!canonical) return null;
  return (OPERATIONS[canonical].transports as readonly Transport[]).includes(transport) ? canonical : null;
}

/** Errors cross every boundary as values with a stable code and a sentence a user can act on. */
export type ErrorValue = { code: string; message: string };
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorValue };

export const errorValueSchema = z.object({ code: z.string(), message: z.string() });
export function resultSchema<T extends z.ZodType>(value: T) {
  return z.union([z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: errorValueSchema })]);
}

/** Parses an operation's params; a failure names the field and what is wrong with it. */
export function parseParams<K extends OperationName>(name: K, params: unknown): { ok: true; value: ParamsOf<K> } | { ok: false; error: ErrorValue } {
  const parsed = OPERATIONS[name].params.safeParse(params);
  if (parsed.success) return { ok: true, value: parsed.data as ParamsOf<K> };
  const issue = parsed.error.issues[0]!;
  return { ok: false, error: { code: 'invalid_params', message: `Invalid params for ${name}: ${issue.path.join('.') || 'params'}: ${issue.message}.` } };
}

// ── events ──────────────────────────────────────────────────────────────────────────────────────────

export const EVENTS = {
  'approval.requested': pendingApprovalSchema,
  'approval.decided': decisionRecordSchema,
  /** A reviewer approved a call in the user's place (a one-time approval, recorded as decided by the reviewer). */
  'review.approved': reviewReportSchema,
  /** A reviewer did not approve, or could not be asked: the ordinary approval card follows. */
  'review.escalated': reviewReportSchema,
  'grant.created': grantRecordSchema,
  'grant.updated': grantRecordSchema,
  'grant.revoked': grantRecordSchema,
  /** A person chose "Approve all for this session" on a card. */
  'approve_all.started': approveAllViewSchema,
  /** A session's approve-all was ended (on any surface). */
  'approve_all.ended': approveAllEndedSchema,
  /** An approval for the session was revoked (on any surface). */
  'approval.session_revoked': sessionApprovalRevokedSchema,
  'settings.changed': z.object({ level: levelSchema }),
  /** The jail blocked a path: an offer waits for consent. */
  'sandbox.denied': consentOfferSchema,
  /** A consent offer was answered (on any surface). */
  'sandbox.decided': consentOfferSchema.extend({ choice: consentChoiceSchema }),
  /** Live output of a running call (redacted). */
  'call.output': z.object({ call_id: z.string(), stream: z.enum(['stdout', 'stderr']), chunk: z.string() }),
  'call.state': z.object({ session_id: z.string(), turn_id: z.string(), call_id: z.string(), tool_call_id: z.string(), tool: z.string(), state: callStateSchema, detail: z.string().nullable(), by: decidedBySchema.nullable() }),
  'turn.started': z.object({ session_id: z.string(), turn_id: z.string(), kind: z.enum(['reactive', 'unattended']), model: z.string() }),
  /** Text the model is writing, as it streams (redacted). */
  'turn.text': z.object({ session_id: z.string(), turn_id: z.string(), delta: z.string() }),
  'turn.ended': z.object({ session_id: z.string(), turn_id: z.string(), reason: turnEndReasonSchema, steps: z.number().int(), error: z.string().nullable() }),
  'question.asked': questionViewSchema,
  'question.closed': z.object({ id: z.string(), outcome: questionOutcomeKindSchema }),
  'notification.sent': notificationSchema,
  /** Something the user should know that is not a model message (a provider problem, an MCP server down). */
  'session.note': z.object({ session_id: z.string().nullable(), text: z.string() }),
  /** A phone was paired (Settings → Devices lists it). */
  'device.paired': deviceViewSchema,
  /** A phone was revoked: its open page is closed. */
  'device.revoked': deviceViewSchema,
} as const;

export type EventName = keyof typeof EVENTS;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
export type EventPayloads = { [K in EventName]: z.output<(typeof EVENTS)[K]> };
/** Every event as a closed union: switching on `name` narrows `payload`. */
export type CoreEvent = { [K in EventName]: { name: K; payload: EventPayloads[K] } }[EventName];

// ── AppApi: the renderer's typed interface, derived from the table ────────────────────────────────

type VerbOps = { [K in OperationName]: Operations[K] extends { verb: string } ? K : never }[OperationName];
type VerbOf<K extends VerbOps> = Operations[K]['verb'];
type Method<K extends OperationName> = undefined extends ParamsIn<K> ? (params?: ParamsIn<K>) => Promise<Result<ResultOf<K>>> : (params: ParamsIn<K>) => Promise<Result<ResultOf<K>>>;

export type AppApi = { [K in VerbOps as VerbOf<K>]: Method<K> } & {
  /** Subscribes to core events; returns the unsubscribe function. */
  onEvent(listener: (event: CoreEvent) => void): () => void;
};
export type AppVerb = Exclude<keyof AppApi, 'onEvent'>;

/** Which AppApi verb invokes which operation. */
export const VERBS = Object.fromEntries(OPERATION_NAMES.flatMap((name) => ((OPERATIONS[name] as OperationSpec).verb ? [[(OPERATIONS[name] as OperationSpec).verb!, name]] : []))) as { [V in AppVerb]: OperationName };

// ── the table's schemas describe the domain types exactly (a drift is a compile error) ─────────────

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const SCHEMAS_MATCH_DOMAIN: [
  Same<z.output<typeof pendingApprovalSchema>, PendingApproval>,
  Same<z.output<typeof decisionRecordSchema>, DecisionRecord>,
  Same<z.output<typeof grantRecordSchema>, GrantRecord>,
  Same<z.output<typeof executionOutcomeSchema>, ExecutionOutcome>,
  Same<z.output<typeof proposedGrantSchema>, ProposedGrant>,
  Same<z.output<typeof grantPatternSchema>, GrantPattern>,
  Same<z.output<typeof reviewReportSchema>, ReviewReport>,
  Same<z.output<typeof decidedBySchema>, DecidedBy>,
] = [true, true, true, true, true, true, true, true];
