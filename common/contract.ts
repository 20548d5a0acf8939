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
  'agent.get-info': z.undefined(),
  'agent.send': z.object({ message: z.string().min(1).max(100_000), session_id: z.string().min(1).max(64).optional() }).strict(),
  'agent.stop': z.object({ session_id: z.string().min(1).max(64) }).strict(),
  'agent.list-sessions': z.undefined(),
  'agent.get-transcript': z.object({ session_id: z.string().min(1).max(64) }).strict(),
  'questions.list': z.undefined(),
  'questions.answer': z.object({ id: z.string().min(1).max(64), answer: z.string().min(1).max(20_000) }).strict(),
  'questions.dismiss': z.object({ id: z.string().min(1).max(64) }).strict(),
  /** Stores the provider's API key in the OS keychain; it is never sent back. */
  'settings.set-api-key': z.object({ key: z.string().min(8).max(4096).regex(/^\S+$/, 'an API key has no spaces') }).strict(),
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

export interface AgentInfo {
  /** "Demo: scripted model" in demo mode. */
  model: string;
  /** Sessions with a turn running. */
  running: string[];
}

export interface SessionView {
  id: string;
  title: string | null;
  created_at: number;
  updated_at: number | null;
  running: boolean;
}

export interface TranscriptEntry {
  role: 'user' | 'assistant' | 'tool' | 'note';
  turn_id: string | null;
  /** A model message (redacted), or `{ text }` for a note. */
  content: unknown;
  created_at: number;
}

export interface QuestionView {
  id: string;
  session_id: string;
  turn_id: string;
  call_id: string;
  question: string;
  created_at: number;
  expires_at: number;
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
  getAgentInfo(): Promise<Result<AgentInfo>>;
  /** Starts a turn (or joins the running one); returns at once. */
  send(req: z.infer<(typeof requestSchemas)['agent.send']>): Promise<Result<{ session_id: string; turn_id: string; appended: boolean }>>;
  stop(req: z.infer<(typeof requestSchemas)['agent.stop']>): Promise<Result<{ stopped: boolean }>>;
  listSessions(): Promise<Result<SessionView[]>>;
  getTranscript(req: z.infer<(typeof requestSchemas)['agent.get-transcript']>): Promise<Result<TranscriptEntry[]>>;
  listQuestions(): Promise<Result<QuestionView[]>>;
  answerQuestion(req: z.infer<(typeof requestSchemas)['questions.answer']>): Promise<Result<{ id: string }>>;
  dismissQuestion(req: z.infer<(typeof requestSchemas)['questions.dismiss']>): Promise<Result<{ id: string }>>;
  setApiKey(req: z.infer<(typeof requestSchemas)['settings.set-api-key']>): Promise<Result<{ stored: true }>>;
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
  getAgentInfo: 'agent.get-info',
  send: 'agent.send',
  stop: 'agent.stop',
  listSessions: 'agent.list-sessions',
  getTranscript: 'agent.get-transcript',
  listQuestions: 'questions.list',
  answerQuestion: 'questions.answer',
  dismissQuestion: 'questions.dismiss',
  setApiKey: 'settings.set-api-key',
} as const satisfies Record<Exclude<keyof AppApi, 'onEvent'>, Channel>;
