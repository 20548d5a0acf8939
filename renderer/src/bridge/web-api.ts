// The AppApi over the web transport: the same verbs the Electron preload exposes.
import { VERBS, type AppApi } from '../../../common/contract';
import type { Transport } from './socket-transport';

export function createWebApi(t: Transport): AppApi {
  const api = {} as Record<string, unknown>;
  for (const [verb, op] of Object.entries(VERBS)) api[verb] = (params?: unknown) => t.invoke(op, params);
  api['onEvent'] = t.subscribe;
  return api as unknown as AppApi;
}
