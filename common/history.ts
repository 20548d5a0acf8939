// The history of calls: every call the gate saw, whoever or whatever decided it. Shared by the store's
// query, the operations table, `ctl calls` and the History screen, so a filter means the same everywhere.
import type { Outcome, ExecutionOutcome } from './approvals';
import type { CallState } from './call-state';
import type { Class } from './domain';
import type { DecidedBy, DeciderKind } from './decided-by';
import type { CallOrigin } from './origin';

/** Who or what decided, in the groups a person filters by. */
export const DECIDER_GROUPS = [
  { key: 'person', label: 'A person' },
  { key: 'remote', label: 'A person away from the desk (chat or phone)' },
  { key: 'grant', label: 'A grant' },
  { key: 'earlier_approval', label: 'An earlier approval' },
  { key: 'level', label: 'The level' },
  { key: 'rule', label: 'A rule' },
  { key: 'reviewer', label: 'The reviewer' },
  { key: 'floor', label: 'A floor or safety check' },
  { key: 'tool', label: 'The tool (invalid or refused call)' },
  { key: 'timeout', label: 'A timeout' },
  { key: 'nobody', label: 'Nobody there' },
  { key: 'stopped', label: 'A stop or restart' },
] as const satisfies readonly { key: string; label: string }[];

export type DeciderGroup = (typeof DECIDER_GROUPS)[number]['key'];
export const DECIDER_GROUP_KEYS = DECIDER_GROUPS.map((g) => g.key) as [DeciderGroup, ...DeciderGroup[]];

/** The group of each kind of decider: a new kind is a compile error until it has one. */
export const DECIDER_GROUP_OF_KIND: Readonly<Record<DeciderKind, DeciderGroup>> = {
  human: 'person',
  remote: 'remote',
  grant: 'grant',
  earlier_approval: 'earlier_approval',
  session_approve_all: 'earlier_approval',
  level: 'level',
  rule: 'rule',
  reviewer: 'reviewer',
  floor: 'floor',
  safety: 'floor',
  tool: 'tool',
  timeout: 'timeout',
  no_approver: 'nobody',
  turn_stopped: 'stopped',
  restart: 'stopped',
};

/** The kinds of decider a group covers. */
export function kindsOfGroup(group: DeciderGroup): DeciderKind[] {
  return (Object.keys(DECIDER_GROUP_OF_KIND) as DeciderKind[]).filter((k) => DECIDER_GROUP_OF_KIND[k] === group);
}

/** The group a decider belongs to (null for none: a call still being classified, or a row older than the tagged decider). */
export function deciderGroupOf(by: DecidedBy | null): DeciderGroup | null {
  return by ? DECIDER_GROUP_OF_KIND[by.kind] : null;
}

/** What the Outcome filter offers: call states grouped the way a person asks ("what failed?"). */
export const OUTCOME_GROUPS = [
  { key: 'succeeded', label: 'Ran and succeeded', states: ['succeeded'] },
  { key: 'failed', label: 'Ran and failed', states: ['failed', 'timed_out', 'interrupted'] },
  { key: 'refused', label: 'Refused', states: ['denied', 'refused'] },
  { key: 'not_run', label: 'Did not run (stopped)', states: ['cancelled', 'not_run'] },
  { key: 'handed_off', label: 'Handed off (the agent that asked ran it)', states: ['handed_off'] },
  { key: 'in_progress', label: 'Waiting or running', states: ['received', 'validating', 'classifying', 'reviewing', 'awaiting_approval', 'scheduled', 'executing'] },
] as const satisfies readonly { key: string; label: string; states: readonly CallState[] }[];

export type OutcomeGroup = (typeof OUTCOME_GROUPS)[number]['key'];

export function outcomeGroupOf(state: CallState): OutcomeGroup {
  return OUTCOME_GROUPS.find((g) => (g.states as readonly CallState[]).includes(state))!.key;
}

/** The filters of a history query; every one is optional and they combine with AND. */
export interface CallFilter {
  /** The call's state (its outcome once it ended); any of these. */
  state?: CallState[];
  tool?: string;
  class?: Class;
  session_id?: string;
  decided_by?: DeciderGroup;
  /** Found in the tool, the redacted arguments, the explanation or the decider (case-insensitive). */
  text?: string;
}

/** One row of the history: enough for the list; the detail (calls.get) has the rest. */
export interface CallRecord {
  id: string;
  session_id: string;
  turn_id: string | null;
  tool: string;
  /** One line: the command, path or URL (redacted, clipped), else the arguments as JSON. */
  summary: string;
  class: Class | null;
  /** The policy's own decision (allow, ask, deny). */
  decision: 'allow' | 'ask' | 'deny' | null;
  /** Who or what decided in the end: as stored and printed (formatDecidedBy), as data, and its group. */
  decided_by: string | null;
  /** Null on a row written before deciders were stored as data: its stored words still say who. */
  by: DecidedBy | null;
  decider: DeciderGroup | null;
  state: CallState;
  created_at: number;
  updated_at: number;
  /** When it asked: the approval and how it ended. */
  approval: { id: string; outcome: Outcome | null; decided_at: number | null } | null;
  execution: ExecutionOutcome | null;
  /** The checkpoint taken before it ran, when it could change the workspace. */
  checkpoint_id: string | null;
  /** The model's id for the call (its tool-call id), when a model made it: the chat finds its row by it. */
  model_call_id: string | null;
  /** Who asked: Threshold's agent, ctl, another agent through its hook or the MCP gateway; null on older rows. */
  origin?: CallOrigin | null;
}

export interface CallPage {
  calls: CallRecord[];
  /** Pass as `cursor` for the next page (older calls); null at the end. */
  next_cursor: string | null;
  /** The newest call this listing covers: pass as `upto` (with `offset`) so later calls do not shift pages. */
  upto: string | null;
  /** How many calls match (only when asked for with `with_total`). */
  total: number | null;
}

/** A position in the history: (created_at, id), opaque to clients. The time has no dot, so the first one splits. */
export const CURSOR_PATTERN = /^(\d{1,16})\.([^\s]{1,64})$/;

export function encodeCursor(at: number, id: string): string {
  return `${at}.${id}`;
}

export function decodeCursor(cursor: string): { at: number; id: string } | null {
  const m = CURSOR_PATTERN.exec(cursor);
  return m ? { at: Number(m[1]), id: m[2]! } : null;
}

