// Builds the AppApi from injected invoke/subscribe functions, so it is tested without Electron. One verb
// per contract method; the raw IPC object never reaches the page.
import { EVENT_CHANNEL, VERBS, type AppApi, type CoreEventMessage } from '../common/contract';

export type Invoke = (channel: string, payload?: unknown) => Promise<unknown>;
export type Subscribe = (channel: string, listener: (message: CoreEventMessage) => void) => () => void;

export function createApi(invoke: Invoke, subscribe: Subscribe): AppApi {
  const api = {} as Record<string, unknown>;
  for (const [verb, channel] of Object.entries(VERBS)) api[verb] = (payload?: unknown) => invoke(channel, payload);
  api['onEvent'] = (listener: (e: CoreEventMessage) => void) => subscribe(EVENT_CHANNEL, listener);
  return api as unknown as AppApi;
}
