// Who or what decided a call: a tagged union that logic reads, and one formatter that gives the string
// stored in the database and shown in `ctl history`, `--json` output and the UI. The strings are a
// contract (scripts match them); logic never parses them.
import type { Effect, EffectRule, Level, ToolRule } from './domain';

export const SAFETY_REASONS = ['parse_error', 'unknown_syntax', 'obfuscation', 'override', 'non_posix'] as const;
export type SafetyReason = (typeof SAFETY_REASONS)[number];
/** The hardline list and the always-ask floors. */
export const FLOORS = ['hardline', 'destructive', 'secret_read', 'capability_change', 'human_input'] as const;
export type FloorName = (typeof FLOORS)[number];
export type ToolProblem = 'invalid_args' | 'unknown_tool' | 'refused';
/** Where a remote person answered from: a chat bridge, or a paired phone's page. */
export const REMOTE_VIAS = ['telegram', 'matrix', 'phone'] as const;
export type RemoteVia = (typeof REMOTE_VIAS)[number];
/** A person decider: at the desk (a surface) or away from it. */
export type PersonDecider = Extract<DecidedBy, { kind: 'human' | 'remote' }>;

export type DecidedBy =
  /** The hardline list or an always-ask floor. */
  | { kind: 'floor'; floor: FloorName }
  /** What cannot be analysed, or what the tool insists on showing. */
  | { kind: 'safety'; reason: SafetyReason }
  /** A rule of the user's: per tool, per effect, or every reachable effect set to auto. */
  | { kind: 'rule'; on: 'tool'; tool: string; value: ToolRule }
  | { kind: 'rule'; on: 'effect'; effect: Effect; value: EffectRule }
  | { kind: 'rule'; on: 'effects_auto' }
  | { kind: 'grant'; grantIds: readonly string[] }
  | { kind: 'level'; level: Level }
  /** The tool refused, or the call was not a valid call of a known tool. */
  | { kind: 'tool'; problem: ToolProblem | string }
  /** A person, through a surface (desktop, web, control). */
  | { kind: 'human'; surface: string }
  /** A person away from the desk: a chat bridge's user, or a paired phone (main/remote). */
  | { kind: 'remote'; via: RemoteVia; who: string }
  /** An earlier human decision covered this exact call (same content hash). */
  | { kind: 'earlier_approval'; approvalId: string; via: 'approve_session' | 'follow_up' }
  /** The session is in approve-all mode. */
  | { kind: 'session_approve_all' }
  /** Nobody decided before the approval's TTL. */
  | { kind: 'timeout' }
  | { kind: 'turn_stopped' }
  | { kind: 'no_approver'; why: 'unattended_turn' | 'no_approver_surface' }
  /** Threshold stopped (a crash, kill -9, a restart) before the call ended. */
  | { kind: 'restart' }
  /** Every reviewer of the quorum approved (main/reviewer): a one-time approval, never a grant. */
  | { kind: 'reviewer'; reviewers: readonly { name: string; model: string }[] };

/** The one formatter: the stored and displayed form. */
export function formatDecidedBy(d: DecidedBy): string {
  switch (d.kind) {
    case 'floor':
      return `floor:${d.floor}`;
    case 'safety':
      return `safety:${d.reason}`;
    case 'rule':
      if (d.on === 'tool') return `rule:tool:${d.tool}=${d.value}`;
      if (d.on === 'effect') return `rule:effect:${d.effect}=${d.value}`;
      return 'rule:effects=auto';
    case 'grant':
      return `grant:${d.grantIds.join(',')}`;
    case 'level':
      return `level:${d.level}`;
    case 'tool':
      return `tool:${d.problem}`;
    case 'human':
      return d.surface;
    case 'remote':
      return `person:${d.via}:${d.who}`;
    case 'earlier_approval':
      return `approval:${d.approvalId}:${d.via}`;
    case 'session_approve_all':
      return 'session_approve_all';
    case 'timeout':
      return 'ttl';
    case 'turn_stopped':
      return 'turn_stopped';
    case 'no_approver':
      return d.why;
    case 'restart':
      return 'restart';
    case 'reviewer':
      return `reviewer:${d.reviewers.map((r) => `${r.name}(model ${r.model})`).join('+')}`;
  }
}

/** The kinds of decider, one per member of the union (what History groups and the store filters on). */
export type DeciderKind = DecidedBy['kind'];

/**
 * The part of a decider that tells it apart within its kind, for people: the surface, the grant ids, the
 * level, the rule, the reviewers, where a remote person answered from. Empty when the kind says it all.
 */
export function deciderDetail(d: DecidedBy): string {
  switch (d.kind) {
    case 'floor':
      return d.floor;
    case 'safety':
      return d.reason;
    case 'rule':
      return d.on === 'tool' ? `tool:${d.tool}=${d.value}` : d.on === 'effect' ? `effect:${d.effect}=${d.value}` : 'effects=auto';
    case 'grant':
      return d.grantIds.join(',');
    case 'level':
      return d.level;
    case 'tool':
      return d.problem;
    case 'human':
      return d.surface;
    case 'remote':
      return `${d.via}:${d.who}`;
    case 'earlier_approval':
      return `${d.approvalId}:${d.via}`;
    case 'no_approver':
      return d.why;
    case 'reviewer':
      return d.reviewers.map((r) => r.name).join('+');
    case 'session_approve_all':
    case 'timeout':
    case 'turn_stopped':
    case 'restart':
      return '';
  }
}

/** A decider as a person reads it in one line: a remote person is `person via telegram:42`; every other reads as stored. */
export function displayDecidedBy(d: DecidedBy): string {
  return d.kind === 'remote' ? `person via ${deciderDetail(d)}` : formatDecidedBy(d);
}
