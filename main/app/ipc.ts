// IPC registration against an injected ipcMain-like object, so it is tested without Electron. Each
// operation the UI may use is one channel named after it (common/operations.ts); every sender frame is
// checked and every payload parsed before use (the core parses it again when the relay delivers it);
// answers are Result values, never thrown errors.
import { OPERATION_NAMES, OPERATIONS, type OperationName, type Result } from '../../common/operations';
import { invokeOperation, type OperationHandlers } from '../../common/invoke';

export interface IpcLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
}

export interface IpcEventLike {
  senderFrame?: { url: string } | null;
}

export interface IpcDeps {
  /** The operations' handlers for the desktop surface: the shell's relay to the core (shell.ts), or the core's own. */
  handlers: OperationHandlers;
  /** Whether a frame URL is the app's own renderer. */
  trustedFrame: (url: string) => boolean;
}

/** The operations offered to the window: the table's UI operations, each on a channel of its own name. */
export const IPC_CHANNELS: OperationName[] = OPERATION_NAMES.filter((name) => (OPERATIONS[name].transports as readonly string[]).includes('ui'));

/** Dispatches one request: frame check, then the shared operation path (schema check, handler). Never throws. */
export async function dispatch(handlers: OperationHandlers, trustedFrame: (url: string) => boolean, channel: OperationName, event: IpcEventLike, payload: unknown): Promise<Result<unknown>> {
  const url = event.senderFrame?.url ?? '';
  if (!trustedFrame(url)) return { ok: false, error: { code: 'untrusted_sender', message: `Refused: ${channel} was called from a frame that is not Threshold's window (${url || 'unknown'}).` } };
  return invokeOperation(handlers, 'ui', channel, payload);
}

export function registerHandlers(ipc: IpcLike, deps: IpcDeps): void {
  for (const channel of IPC_CHANNELS) ipc.handle(channel, (event, payload) => dispatch(deps.handlers, deps.trustedFrame, channel, event, payload));
}
