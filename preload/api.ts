// Builds the AppApi from injected invoke/subscribe functions, so it is tested without Electron. One verb
// per UI operation of the table (common/operations.ts); the raw IPC object never reaches the page. The
// web bridge builds its AppApi with the same function over its WebSocket.
import { VERBS, type AppApi, type CoreEvent, type OperationName } from '../common/operations';

export type Invoke = (operation: OperationName, params?: unknown) => Promise<unknown>;
export type Subscribe = (listener: (event: CoreEvent) => void) => () => void;

export function createApi(invoke: Invoke, subscribe: Subscribe): AppApi {
  const api: Record<string, unknown> = {};
  for (const [verb, operation] of Object.entries(VERBS)) api[verb] = (params?: unknown) => invoke(operation, params);
  api['onEvent'] = (listener: (e: CoreEvent) => void) => subscribe(listener);
  return api as AppApi;
}
