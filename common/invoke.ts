// Runs one operation of the table against a set of handlers: the one path every transport shares (IPC,
// the web socket, the control API, the desktop shell's relay). It imports only the table, so the desktop
// shell can check a payload exactly as the core will without loading the core.
import { parseParams, resolveOperation, type ErrorValue, type OperationName, type ParamsOf, type Result, type ResultOf, type Transport } from './operations';

/** What a transport knows of the request: `signal` aborts when its client goes away (the control socket closes). */
export interface RequestContext {
  signal?: AbortSignal;
}

/** Anything shaped like the handlers: one function per operation name. */
export type OperationHandlers = { [K in OperationName]: (params: never) => unknown };

/** The operations' implementation as one surface sees it (main/runtime/handlers.ts builds it). */
export type Handlers = { [K in OperationName]: (params: ParamsOf<K>, request?: RequestContext) => Result<ResultOf<K>> | Promise<Result<ResultOf<K>>> };

function fail(code: string, message: string): { ok: false; error: ErrorValue } {
  return { ok: false, error: { code, message } };
}

/**
 * Runs one operation by name (or alias) for a transport: resolves it, parses its params with the
 * table's schema, calls the handler. Never throws; an operation the transport does not offer is
 * `unknown_operation`.
 */
export async function invokeOperation(handlers: OperationHandlers, transport: Transport, name: string, params: unknown, request?: RequestContext): Promise<Result<unknown>> {
  const canonical = typeof name === 'string' ? resolveOperation(name, transport) : null;
  if (!canonical) return fail('unknown_operation', `There is no operation "${String(name)}"${transport === 'ui' ? ' for the window' : ''}.`);
  const parsed = parseParams(canonical, params);
  if (!parsed.ok) return parsed;
  try {
    return await (handlers[canonical] as (p: unknown, r?: RequestContext) => Result<unknown> | Promise<Result<unknown>>)(parsed.value, request);
  } catch (err) {
    return fail('internal_error', `${canonical} failed: ${(err as Error).message}`);
  }
}
