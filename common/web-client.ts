// The browser end of the web protocol (common/web-protocol.ts), without the DOM: it numbers calls,
// matches replies to them, checks each reply's value and each event's payload against the operations
// table, and answers every call still waiting with `disconnected` when the connection drops. The web
// bridge gives it a `send` over its WebSocket and feeds it what arrives; `createApi(client.invoke,
// client.subscribe)` is then the page's AppApi.
import type { CoreEvent, OperationName, Result } from './operations';
import { checkReply, parseEvent, replyMessageSchema } from './web-protocol';

export interface WireClient {
  invoke(operation: OperationName, params?: unknown): Promise<Result<unknown>>;
  subscribe(listener: (event: CoreEvent) => void): () => void;
  /** One text frame from the daemon. */
  receive(text: string): void;
  /** The socket closed: every waiting call is answered `disconnected`. */
  connectionLost(): void;
  /** Calls waiting for their reply. */
  waiting(): number;
}

/** Not sent at all: nothing happened. */
const disconnected = (): Result<never> => ({ ok: false, error: { code: 'disconnected', message: 'Not sent: Threshold is not reachable right now, so nothing happened. The page keeps trying to reconnect.' } });
/** Sent, but the connection dropped before the answer: it may or may not have happened. */
const cutOff = (): Result<never> => ({ ok: false, error: { code: 'disconnected', message: 'The connection to Threshold dropped before it answered: whether this was done shows once the page reconnects.' } });

/** `send` returns false when the socket is not open (the call is answered `disconnected` at once). */
export function createWireClient(send: (text: string) => boolean): WireClient {
  let nextId = 1;
  const pending = new Map<number, { operation: OperationName; resolve: (r: Result<unknown>) => void }>();
  const listeners = new Set<(event: CoreEvent) => void>();
  return {
    invoke(operation, params) {
      const id = nextId++;
      return new Promise<Result<unknown>>((resolve) => {
        pending.set(id, { operation, resolve });
        const sent = send(JSON.stringify(params === undefined ? { id, op: operation } : { id, op: operation, params }));
        if (!sent) {
          pending.delete(id);
          resolve(disconnected());
        }
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    receive(text) {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      const reply = replyMessageSchema.safeParse(message);
      if (reply.success) {
        const id = reply.data.id;
        const call = id === null ? undefined : pending.get(id);
        if (!call || id === null) return;
        pending.delete(id);
        call.resolve(checkReply(call.operation, reply.data.result as Result<unknown>));
        return;
      }
      const event = parseEvent(message);
      if (event) for (const listener of [...listeners]) listener(event);
    },
    connectionLost() {
      const calls = [...pending.values()];
      pending.clear();
      for (const call of calls) call.resolve(cutOff());
    },
    waiting: () => pending.size,
  };
}
