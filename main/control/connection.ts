// One control-socket connection: newline-framed JSON-RPC with limits, so that no client can make the
// daemon hold more than a bounded amount of memory for it. A client that does not read its replies is
// no longer read from (backpressure); a message may be at most `maxMessage` long and must arrive whole
// within `partialTimeoutMs` of its first byte; a subscriber that leaves its events unread is dropped.
import type { Socket } from 'node:net';
import { RpcError } from './rpc';

export interface ControlLimits {
  /** The longest message (one line), in characters. */
  maxMessage: number;
  /** Requests received but not answered yet; past this the connection is not read until one is answered. */
  maxQueued: number;
  /** Unread event bytes a subscriber may leave in its queue before it is disconnected. */
  maxUnreadEventBytes: number;
  /** Connections served at once; one more is answered with an error and closed. */
  maxConnections: number;
  /** A message must arrive whole within this time of its first byte. */
  partialTimeoutMs: number;
}

export const DEFAULT_CONTROL_LIMITS: ControlLimits = {
  maxMessage: 1024 * 1024,
  maxQueued: 16,
  maxUnreadEventBytes: 4 * 1024 * 1024,
  maxConnections: 32,
  partialTimeoutMs: 10_000,
};

export interface ConnectionHandlers {
  /**
   * Answers one message; null for notifications. Never rejects. `signal` aborts when the connection
   * closes: work done for this client alone (a hook waiting on a card, a command it runs) stops with it.
   */
  handle(text: string, subscribe: () => void, signal: AbortSignal): Promise<string | null>;
  /** Starts sending events to `push`; returns the unsubscribe. */
  subscribe(push: (text: string) => void): () => void;
}

/** One JSON-RPC error line for the framing's own refusals (id null: no request was read). */
export function framingError(code: string, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: new RpcError(code, message).toObject() }) + '\n';
}

export function serveConnection(socket: Socket, h: ConnectionHandlers, limits: ControlLimits): void {
  socket.setEncoding('utf8');
  let buffer = '';
  let pieces: string[] = [];
  let piecesLength = 0;
  let queued = 0;
  let writeBlocked = false;
  let unsubscribe: (() => void) | null = null;
  let partialTimer: NodeJS.Timeout | null = null;
  let chain = Promise.resolve();
  let closing = false;
  const gone = new AbortController();

  // Requests already taken are answered first, then the refusal, then the connection ends.
  const refuse = (code: string, message: string) => {
    if (socket.destroyed || closing) return;
    closing = true;
    buffer = '';
    pieces = [];
    socket.pause();
    void chain.then(() => {
      socket.end(framingError(code, message));
      // A client that does not read the refusal does not keep the connection either.
      setTimeout(() => socket.destroy(), 1000).unref();
    });
  };
  const tooLarge = () => `A message may be at most ${limits.maxMessage} bytes; this one is longer, so the connection is closed.`;
  const reply = (text: string) => {
    if (socket.destroyed) return;
    if (!socket.write(text + '\n')) writeBlocked = true;
  };
  const pushEvent = (text: string) => {
    if (socket.destroyed) return;
    if (socket.writableLength > limits.maxUnreadEventBytes) {
      socket.destroy();
      return;
    }
    socket.write(text + '\n');
  };
  const subscribe = () => {
    unsubscribe ??= h.subscribe(pushEvent);
  };

  // Takes complete lines while the client reads its replies and few requests wait; otherwise stops
  // reading, so the kernel's buffer fills and the client's writes block instead of the daemon growing.
  const pump = () => {
    while (!closing && !socket.destroyed && !writeBlocked && queued < limits.maxQueued) {
      const nl = buffer.indexOf('\n');
      if (nl === -1) break;
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      queued++;
      // Requests on one connection are answered in order.
      chain = chain
        .then(async () => {
          const out = await h.handle(line, subscribe, gone.signal);
          if (out !== null) reply(out);
        })
        .catch(() => undefined)
        .finally(() => {
          queued--;
          pump();
        });
    }
    if (buffer.length > limits.maxMessage && buffer.indexOf('\n') === -1) {
      refuse('message_too_large', tooLarge());
      return;
    }
    if (closing) return;
    watchPartial();
    if (writeBlocked || queued >= limits.maxQueued) socket.pause();
    else socket.resume();
  };

  const watchPartial = () => {
    const partial = buffer.length + piecesLength > 0 && buffer.indexOf('\n') === -1;
    if (!partial) {
      if (partialTimer) clearTimeout(partialTimer);
      partialTimer = null;
    } else if (!partialTimer) {
      partialTimer = setTimeout(() => {
        refuse('message_incomplete', `A message must arrive whole within ${limits.partialTimeoutMs} ms of its first byte; the connection is closed.`);
      }, limits.partialTimeoutMs);
      partialTimer.unref();
    }
  };

  socket.on('data', (chunk: string) => {
    if (closing) return;
    // Pieces of a message still without its newline are kept as they came and joined once the newline
    // arrives: appending and searching one growing string copied it on every chunk.
    if (chunk.indexOf('\n') === -1 && buffer.indexOf('\n') === -1) {
      pieces.push(chunk);
      piecesLength += chunk.length;
      if (buffer.length + piecesLength > limits.maxMessage) refuse('message_too_large', tooLarge());
      else watchPartial();
      return;
    }
    buffer += pieces.join('') + chunk;
    pieces = [];
    piecesLength = 0;
    pump();
  });
  socket.on('drain', () => {
    writeBlocked = false;
    pump();
  });
  socket.on('close', () => {
    gone.abort();
    if (partialTimer) clearTimeout(partialTimer);
    unsubscribe?.();
    buffer = '';
    pieces = [];
  });
  socket.on('error', () => socket.destroy());
}
