// IPC handlers against an injected ipcMain-like object, so they are tested without Electron. Every
// payload is parsed with the contract's schema and every sender frame is checked before use; answers
// are Result values, never thrown errors.
import { requestSchemas, type AppInfo, type Channel, type Result } from '../../common/contract';
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
