// Domain vocabulary shared by every runtime (see DESIGN.md). Pure data; no I/O.

/** Severity buckets, ordered. Across the segments of a shell command the highest wins. */
export const CLASSES = ['read', 'write', 'network', 'install', 'destructive'] as const;
export type Class = (typeof CLASSES)[number];

export function classRank(c: Class): number {
  return CLASSES.indexOf(c);
}
export function maxClass(a: Class, b: Class): Class {
  return classRank(a) >= classRank(b) ? a : b;
}

/** What a call can do. A shell command's effective rule is the strictest rule of every effect it can reach. */
export const EFFECTS = [
  'file_read',
  'file_write',
  'file_delete',
  'command_exec',
  'network',
  'install',
  'destructive',
  'secret_read',
  'desktop_open',
  'mcp_call',
  'capability_change',
  'human_input',
] as const;
export type Effect = (typeof EFFECTS)[number];

/** Effects an unknown program, an interpreter or non-literal code can reach. */
export const SHELL_REACHABLE_EFFECTS: readonly Effect[] = [
  'file_read',
  'file_write',
  'file_delete',
  'command_exec',
  'network',
  'install',
  'destructive',
];

export const LEVELS = ['read-only', 'supervised', 'auto-edit', 'full'] as const;
export type Level = (typeof LEVELS)[number];

export const TIERS = ['read', 'write', 'exec'] as const;
export type ToolTier = (typeof TIERS)[number];

export const DECISIONS = ['allow', 'ask', 'deny'] as const;
export type Decision = (typeof DECISIONS)[number];

export function decisionRank(d: Decision): number {
  return DECISIONS.indexOf(d);
}
export function strictest(a: Decision, b: Decision): Decision {
  return decisionRank(a) >= decisionRank(b) ? a : b;
}

/** `review`: it asks, and a declared reviewer model may approve it in the user's place (never deny). */
export const EFFECT_RULES = ['auto', 'ask', 'deny', 'review'] as const;
export type EffectRule = (typeof EFFECT_RULES)[number];

export const TOOL_RULES = ['allow', 'ask', 'deny', 'review'] as const;
export type ToolRule = (typeof TOOL_RULES)[number];

/** Classifier flags. Extended compatibly: consumers must ignore flags they do not know. */
export const FLAGS = [
  'parse_error',
  'unknown_syntax',
  'substitution',
  'redirection',
  'background',
  'obfuscation',
  'hardline',
  'dynamic',
  'non_posix',
] as const;
export type Flag = (typeof FLAGS)[number];

/** How an argv grant's words meet a command's: the same words (exact), or these words then any further arguments (prefix). */
export const ARGV_MATCHES = ['exact', 'prefix'] as const;
export type ArgvMatch = (typeof ARGV_MATCHES)[number];

/**
 * What a grant covers (the pattern language is common/grant-pattern.ts, documented in docs/approvals.md):
 * one command's words (run_command; `match` absent reads as `exact`, as such rows were shown,
 * unless the last word is a lone `*`), exactly one command line (run_command; a compound command is granted only this way), a path
 * glob (file tools), a URL prefix (web_fetch), or any call of one tool.
 */
export type GrantPattern =
  | { kind: 'argv'; argv: string[]; redirects?: string[]; match?: ArgvMatch }
  | { kind: 'command'; command: string }
  | { kind: 'path'; glob: string }
  | { kind: 'url'; prefix: string }
  | { kind: 'tool' };

export const GRANT_SCOPES = ['session', 'until', 'always'] as const;
export type GrantScope = (typeof GRANT_SCOPES)[number];

/** An argument-scoped allow rule the user made. Grants never lower a floor. */
export interface Grant {
  id: string;
  tool: string;
  pattern: GrantPattern;
  scope: GrantScope;
  /** The session a `session` grant belongs to. */
  sessionId?: string | null;
  /** Epoch ms after which an `until` grant no longer applies. */
  expiresAt?: number | null;
  /** Where it came from: the config file, or the session and call whose approval created it. */
  provenance: { source: 'config' | 'approval' | 'user'; sessionId?: string | null; callId?: string | null };
  createdAt: number;
  lastUsedAt?: number | null;
  useCount?: number;
  note?: string | null;
}
