// The approval lifecycle's vocabulary, shared by the gate, the store, the control API, the CLI and the UI.
// JSON shapes use snake_case: they cross process boundaries and scripts read them.
import type { Class, Effect, GrantPattern, GrantScope } from './domain';
import type { CallOrigin } from './origin';
import type { ReviewReport } from './review';
import type { DecidedBy } from './decided-by';

/** Every way an approval ends. The same identifiers are used everywhere: RPC, CLI, database. */
export const OUTCOMES = [
  'approve_once',
  'approve_session',
  'approve_always',
  'approve_all_session',
  'skip',
  'deny',
  'expired',
  'cancelled',
  'no_approver',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outcomes a person can choose; the rest are recorded by the system. */
export const HUMAN_OUTCOMES = ['approve_once', 'approve_session', 'approve_always', 'approve_all_session', 'skip', 'deny'] as const;
export type HumanOutcome = (typeof HUMAN_OUTCOMES)[number];

export function isApproval(o: Outcome): boolean {
  return o === 'approve_once' || o === 'approve_session' || o === 'approve_always' || o === 'approve_all_session';
}

/** The narrowest grant that would cover the call; the person may edit it before choosing approve_always. */
export interface ProposedGrant {
  tool: string;
  patterns: GrantPattern[];
}

/** Scopes offered on a card for approve_always. */
export const GRANT_DURATIONS = ['15m', '1h', 'session', 'always'] as const;
export type GrantDuration = (typeof GRANT_DURATIONS)[number];

/**
 * One part of a command as the gate's classifier judged it (redacted for display): what a card shows in
 * its first screen for every part above `read`, and for the part that decided.
 */
export interface CallPart {
  text: string;
  class: Class;
  /** The classifier's main reason for this part. */
  reason: string | null;
  /** The carriers it runs under, outermost first ("bash -c", "$(...)"); empty at the top level. */
  via: string[];
}

/** The most of a preview (a diff) a pending approval stores and a card shows. */
export const PREVIEW_MAX_CHARS = 64 * 1024;
/**
 * The last line of a preview cut at PREVIEW_MAX_CHARS: the card then knows the diff is not all there and
 * shows the arguments in full instead (a person never approves what the card did not show).
 */
export const PREVIEW_CUT_LINE = '[Threshold: the diff is longer than a card holds; it was cut here]';

export function previewWasCut(preview: string | null): boolean {
  return !!preview && preview.endsWith(`\n${PREVIEW_CUT_LINE}`);
}

export interface PendingApproval {
  id: string;
  session_id: string;
  turn_id: string | null;
  call_id: string;
  tool: string;
  /** Redacted for display. */
  args: unknown;
  /** Content hash of the exact arguments, cwd and environment key names; a decision must name it. */
  hash: string;
  class: Class;
  effects: Effect[];
  /** Why it asks: the evaluation's explanation. */
  reason: string;
  /** The shell segment that triggered the ask. */
  segment: { index: number; text: string } | null;
  /** A floor applies: only approve_once, skip and deny are offered. */
  floor: string | null;
  outcomes: HumanOutcome[];
  proposed_grant: ProposedGrant | null;
  created_at: number;
  /** null: waits indefinitely. */
  expires_at: number | null;
  /** The process that parked it has gone (restart or crash); its turn cannot resume. */
  orphan: boolean;
  /** What the call would change (a unified diff for file edits), redacted; null when there is none. */
  preview: string | null;
  /** Present only when a reviewer was asked and escalated: its reason (or failure) shown on the card. */
  review?: ReviewReport;
  /** Who asked (the agent, ctl, another tool); null on rows from before it was recorded. */
  origin?: CallOrigin | null;
  /** Where the call runs (redacted): for another agent's call, the folder its hook reported. */
  cwd?: string | null;
  /** A command's parts as the gate judged them (redacted), in order; null for other tools and older rows. */
  parts?: CallPart[] | null;
}

/** `interrupted` also covers a call Threshold stopped while it ran; `not_run`: Threshold stopped before it ran. */
export const EXECUTION_STATUSES = ['succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled', 'not_run'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export interface ExecutionOutcome {
  status: ExecutionStatus;
  exit_code: number | null;
  signal: string | null;
  duration_ms: number | null;
  /** Sanitised and capped at 512 characters. */
  error: string | null;
  recorded_at: number;
}

export interface DecisionRecord {
  id: string;
  session_id: string;
  call_id: string;
  tool: string;
  args: unknown;
  hash: string;
  class: Class;
  reason: string;
  outcome: Outcome;
  /** Who or what decided, formatted by formatDecidedBy (common/decided-by.ts): a surface (desktop, web, control), or the system (ttl, turn_stopped, no_approver_surface, unattended_turn, session_approve_all). */
  decided_by: string;
  /** The same as data, which logic reads; null on a decision stored before deciders were kept as data. */
  by: DecidedBy | null;
  decided_at: number;
  created_at: number;
  note: string | null;
  grant_ids: string[];
  /** For an orphan approved after a restart: awaiting its follow-up turn, or consumed by it. */
  follow_up: 'awaiting' | 'consumed' | null;
  /** When an orphan was approved after a restart: the later call that carried it out (its outcome is `execution`). */
  follow_up_call_id: string | null;
  execution: ExecutionOutcome | null;
}

export interface GrantRecord {
  id: string;
  tool: string;
  pattern: GrantPattern;
  scope: GrantScope;
  session_id: string | null;
  expires_at: number | null;
  /** import: made by `threshold import` from another agent's rules (its note says from which file and rule). */
  source: 'config' | 'approval' | 'user' | 'import';
  source_session_id: string | null;
  source_call_id: string | null;
  created_at: number;
  last_used_at: number | null;
  use_count: number;
  revoked_at: number | null;
  note: string | null;
  /** Set when the grant is stored but not in force: the width judge refuses it (it was made before that check). */
  not_in_force?: string;
  /**
   * Who it came from, in a few words, for filtering (Settings → Grants, `ctl grants`): the agent whose
   * card made it ("Claude Code", "the agent"), "Imported", "Config file", "By hand". Listings carry it.
   */
  origin_label?: string;
}
