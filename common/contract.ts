// The one IPC contract between the renderer and the main process: channel names, payload schemas,
// and the AppApi type that both the Electron preload and the web-mode bridge implement.
import { z } from 'zod';
import { GRANT_DURATIONS, OUTCOMES, type DecisionRecord, type GrantRecord, type PendingApproval } from './approvals';
import { LEVELS, type Level } from './domain';

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  runtime: z.enum(['electron', 'web']),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** Errors cross every boundary as values with a stable code and a sentence a user can act on. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

const grantPattern = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('argv'), argv: z.array(z.string().min(1)).min(1), redirects: z.array(z.string().min(1)).optional() }).strict(),
  z.object({ kind: z.literal('path'), glob: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('url'), prefix: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('tool') }).strict(),
]);

/** Every invoke channel, with the schema of its one payload argument. */
export const requestSchemas = {
  'app.get-info': z.undefined(),
  'approvals.list-pending': z.undefined(),
  'approvals.list-decisions': z.object({ limit: z.number().int().min(1).max(500).optional(), session_id: z.string().min(1).optional(), outcome: z.enum(OUTCOMES).optional() }).strict().optional(),
  'approvals.decide': z
    .object({
      id: z.string().min(1).max(64),
      hash: z.string().regex(/^[0-9a-f]{64}$/),
      outcome: z.enum(['approve_once', 'approve_session', 'approve_always', 'approve_all_session', 'skip', 'deny']),
      note: z.string().max(2000).optional(),
      grant: z.object({ patterns: z.array(grantPattern).min(1).optional(), duration: z.enum(GRANT_DURATIONS).optional() }).strict().optional(),
    })
    .strict(),
  'grants.list': z.object({ include_inactive: z.boolean().optional() }).strict().optional(),
  'grants.revoke': z.object({ id: z.string().min(1).max(64) }).strict(),
  'settings.get': z.undefined(),
  'settings.set-level': z.object({ level: z.enum(LEVELS) }).strict(),
} as const;

export type Channel = keyof typeof requestSchemas;
export const CHANNELS = Object.keys(requestSchemas) as Channel[];

/** Main → renderer: one channel carrying every core event. */
export const EVENT_CHANNEL = 'core.event';
export interface CoreEventMessage {
  name: string;
  payload: unknown;
}

export interface SettingsView {
  level: Level;
  config_level: Level;
  approval_ttl_seconds: number;
  workspace: string;
  approvers: string[];
}

export interface AppApi {
  getInfo(): Promise<Result<AppInfo>>;
  listPending(): Promise<Result<PendingApproval[]>>;
  listDecisions(filter?: z.infer<(typeof requestSchemas)['approvals.list-decisions']>): Promise<Result<DecisionRecord[]>>;
  decide(decision: z.infer<(typeof requestSchemas)['approvals.decide']>): Promise<Result<DecisionRecord>>;
  listGrants(opts?: z.infer<(typeof requestSchemas)['grants.list']>): Promise<Result<GrantRecord[]>>;
  revokeGrant(req: z.infer<(typeof requestSchemas)['grants.revoke']>): Promise<Result<GrantRecord>>;
  getSettings(): Promise<Result<SettingsView>>;
  setLevel(req: z.infer<(typeof requestSchemas)['settings.set-level']>): Promise<Result<{ level: Level }>>;
  /** Subscribes to core events; returns the unsubscribe function. */
  onEvent(listener: (event: CoreEventMessage) => void): () => void;
}

/** Which AppApi verb invokes which channel. */
export const VERBS = {
  getInfo: 'app.get-info',
  listPending: 'approvals.list-pending',
  listDecisions: 'approvals.list-decisions',
  decide: 'approvals.decide',
  listGrants: 'grants.list',
  revokeGrant: 'grants.revoke',
  getSettings: 'settings.get',
  setLevel: 'settings.set-level',
} as const satisfies Record<Exclude<keyof AppApi, 'onEvent'>, Channel>;
