// IPC handler registration against an injected ipcMain-like object, so tests need no Electron.
import { channels, type AppInfo, type Result } from '../../common/contract';

export interface IpcLike {
  handle(channel: string, listener: (event: unknown, ...args: unknown[]) => unknown): void;
}

export interface HandlerDeps {
  version: string;
  runtime: AppInfo['runtime'];
}

export function registerHandlers(ipc: IpcLike, deps: HandlerDeps): void {
  ipc.handle(channels.getInfo, (): Result<AppInfo> => ({
    ok: true,
    value: { name: 'Threshold', version: deps.version, runtime: deps.runtime },
  }));
}
