// IPC handlers against an injected ipcMain-like object, so they are tested without Electron. Every
// payload is parsed with the contract's schema and every sender frame is checked before use; answers
// are Result values, never thrown errors.
import { requestSchemas, type AppInfo, type Channel, type Result } from '../../common/contract';
import type { Agent } from '../agent/agent';
import type { ThresholdCore } from '../gate/core';

export interface IpcLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
}

export interface IpcEventLike {
  senderFrame?: { url: string } | null;
}

export interface HandlerDeps {
  version: string;
  runtime: AppInfo['runtime'];
  /** The core; absent while it failed to open (every call then answers with that error). */
  core: ThresholdCore | null;
  coreError?: string;
  /** The agent; absent when the core failed or the app runs without one. */
  agent?: Agent | null;
  /** Stores the provider key in the OS keychain and switches the agent to it (absent: no keychain). */
  setApiKey?: (key: string) => Result<{ stored: true }>;
  /** Whether a frame URL is the app's own renderer. */
  trustedFrame: (url: string) => boolean;
  /** Who decides through this surface (desktop or web). */
  surface: 'desktop' | 'web';
}

type Handler = (payload: never) => Promise<Result<unknown>> | Result<unknown>;

function fail(code: string, message: string): Result<never> {
  return { ok: false, error: { code, message } };
}

function wrap<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): Result<T> {
  return r;
}

export function createHandlers(deps: HandlerDeps): Record<Channel, Handler> {
  const core = () => deps.core;
  const unavailable = () => fail('core_unavailable', deps.coreError ?? 'Threshold could not start its core.');
  // The agent's verbs: the core's error when there is no core, else a plain "no agent".
  const withAgent = <T>(fn: (agent: Agent, core: ThresholdCore) => Result<T>): Result<T> => {
    if (!deps.core) return unavailable();
    if (!deps.agent) return fail('agent_unavailable', 'Threshold runs without an agent.');
    return fn(deps.agent, deps.core);
  };
  return {
    'app.get-info': () => ({ ok: true, value: { name: 'Threshold', version: deps.version, runtime: deps.runtime } }),
    'approvals.list-pending': () => (core() ? { ok: true, value: core()!.gate.listPending() } : unavailable()),
    'approvals.list-decisions': (p: { limit?: number; session_id?: string; outcome?: never } | undefined) =>
      core() ? { ok: true, value: core()!.store.approvals.listDecisions({ limit: p?.limit ?? 50, ...p }) } : unavailable(),
    'approvals.decide': async (p: { id: string; hash: string; outcome: string; note?: string; grant?: never }) => {
      if (!core()) return unavailable();
      return wrap(await core()!.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: p.outcome, surface: deps.surface, note: p.note ?? null, grant: p.grant }));
    },
    'grants.list': (p: { include_inactive?: boolean } | undefined) => (core() ? { ok: true, value: core()!.listGrants({ include_inactive: p?.include_inactive }) } : unavailable()),
    'grants.revoke': (p: { id: string }) => (core() ? wrap(core()!.revokeGrant(p.id, deps.surface)) : unavailable()),
    'settings.get': () => (core() ? { ok: true, value: core()!.settings() } : unavailable()),
    'settings.set-level': (p: { level: string }) => (core() ? wrap(core()!.setLevel(p.level, deps.surface)) : unavailable()),
    'agent.get-info': () => withAgent((a) => ({ ok: true, value: { model: a.modelLabel, running: a.runningSessions() } })),
    'agent.send': (p: { message: string; session_id?: string }) =>
      withAgent((a) => {
        // The window's turns are reactive: someone is there to answer.
        const h = a.send(p.session_id ?? null, p.message, { kind: 'reactive' });
        h.done.catch(() => undefined);
        return { ok: true, value: { session_id: h.sessionId, turn_id: h.turnId, appended: h.appended } };
      }),
    'agent.stop': (p: { session_id: string }) => withAgent((a) => ({ ok: true, value: { stopped: a.stop(p.session_id) } })),
    'agent.list-sessions': () => withAgent((a, c) => ({ ok: true, value: c.store.sessions.list(100).map((s) => ({ id: s.id, title: s.title, created_at: s.created_at, updated_at: s.updated_at, running: a.isRunning(s.id) })) })),
    'agent.get-transcript': (p: { session_id: string }) =>
      withAgent((_a, c) => (c.store.sessions.get(p.session_id) ? { ok: true, value: c.store.transcripts.list(p.session_id) } : fail('not_found', `No session ${p.session_id}.`))),
    'questions.list': () => withAgent((a) => ({ ok: true, value: a.questions.pending() })),
    'questions.answer': (p: { id: string; answer: string }) =>
      withAgent((a) => (a.questions.answer(p.id, p.answer) ? { ok: true, value: { id: p.id } } : fail('not_found', `No open question ${p.id} (already answered, dismissed or timed out).`))),
    'questions.dismiss': (p: { id: string }) =>
      withAgent((a) => (a.questions.dismiss(p.id) ? { ok: true, value: { id: p.id } } : fail('not_found', `No open question ${p.id} (already answered, dismissed or timed out).`))),
    'settings.set-api-key': (p: { key: string }) => {
      if (!core()) return unavailable();
      return deps.setApiKey ? deps.setApiKey(p.key) : fail('keychain_unavailable', 'This Threshold has no OS keychain; set the key in the environment variable named by [provider] api_key_env.');
    },
  };
}

/** Dispatches one request: frame check, schema check, handler. Never throws. */
export async function dispatch(handlers: Record<Channel, Handler>, deps: Pick<HandlerDeps, 'trustedFrame'>, channel: Channel, event: IpcEventLike, payload: unknown): Promise<Result<unknown>> {
  const url = event.senderFrame?.url ?? '';
  if (!deps.trustedFrame(url)) return fail('untrusted_sender', `Refused: ${channel} was called from a frame that is not Threshold's window (${url || 'unknown'}).`);
  const parsed = requestSchemas[channel].safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail('invalid_payload', `Invalid request for ${channel}: ${issue.path.join('.') || 'payload'}: ${issue.message}.`);
  }
  try {
    return await handlers[channel](parsed.data as never);
  } catch (err) {
    return fail('internal_error', `${channel} failed: ${(err as Error).message}`);
  }
}

export function registerHandlers(ipc: IpcLike, deps: HandlerDeps): void {
  const handlers = createHandlers(deps);
  for (const channel of Object.keys(requestSchemas) as Channel[]) {
    ipc.handle(channel, (event, payload) => dispatch(handlers, deps, channel, event, payload));
  }
}
