// The AppApi over any transport: one verb per UI operation of the table, each calling `invoke` with the
// operation's canonical name and its one params argument. The Electron preload (over IPC) and the web
// bridge (over the WebSocket, with common/web-client.ts) both build their AppApi here.
import { VERBS, type AppApi, type CoreEvent, type OperationName } from './operations';

export type Invoke = (operation: OperationName, params?: unknown) => Promise<unknown>;
export type Subscribe = (listener: (event: CoreEvent) => void) => () => void;

export function createApi(invoke: Invoke, subscribe: Subscribe): AppApi {
  const api: Record<string, unknown> = {};
  for (const [verb, operation] of Object.entries(VERBS)) api[verb] = (params?: unknown) => invoke(operation, params);
  api['onEvent'] = (listener: (e: CoreEvent) => void) => subscribe(listener);
  return api as AppApi;
}
