// Builds the AppApi from an injected invoke function, so it can be tested without Electron.
import { channels, type AppApi } from '../common/contract';

export type Invoke = (channel: string, ...args: unknown[]) => Promise<unknown>;

export function createApi(invoke: Invoke): AppApi {
  return {
    getInfo: () => invoke(channels.getInfo) as ReturnType<AppApi['getInfo']>,
  };
}
