// One control-socket connection: newline-framed JSON-RPC with limits, so that no client can make the
// daemon hold more than a bounded amount of memory for it. A client that does not read its replies is
// no longer read from (backpressure); a message may be at most `maxMessage` bytes, counted as they
// arrive whether or not a newline came, and must arrive whole within `partialTimeoutMs` of its first
// byte; the first message must arrive within `firstMessageTimeoutMs` of connecting; a subscriber that
// leaves its events unread is dropped.
import type { Socket } from 'node:net';
import { DEFAULT_CONTROL_BUDGETS, type ControlBudgets } from './admission';
import { RpcError } from './rpc';

export interface ControlLimits extends ControlBudgets {
  /** The longest message (one line), in bytes. */
  maxMessage: number;
  /** Requests received but not answered yet; past this the connection is not read until one is answered. */
  maxQueued: number;
  /** Unread event bytes a subscriber may leave in its queue before it is disconnected. */
  maxUnreadEventBytes: number;
  /** A message must arrive whole within this time of its first byte. */
  partialTimeoutMs: number;
  /** A connection must send its first complete message within this time of connecting. */
  firstMessageTimeoutMs: number;
}

export const DEFAULT_CONTROL_LIMITS: ControlLimits = {
  ...DEFAULT_CONTROL_BUDGETS,
  maxMessage: 1024 * 1024,
  maxQueued: 16,
  maxUnreadEventBytes: 4 * 1024 * 1024,
  partialTimeoutMs: 10_000,
  firstMessageTimeoutMs: 10_000,
};

export interface ConnectionHandlers {
  /** Answers one message; null for notifications. Never rejects. */
  handle(text: string, subscribe: () => void): Promise<string | null>;
  /** Starts sending events to `push`; returns the unsubscribe. */
  subscribe(push: (text: string) => void): () => void;
  /** The first complete message arrived; false refuses the connection (`too_many_connections`). */
  identify?(): boolean;
}

export interface ConnectionControl {
  /** Answers what was taken, then this refusal, then closes. */
  refuse(code: string, message: string): void;
}

/** One JSON-RPC error line for the framing's own refusals (id null: no request was read). */
export function framingError(code: string, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: new RpcError(code, message).toObject() }) + '\n';
}

const NEWLINE = 0x0a;

export function serveConnection(socket: Socket, h: ConnectionHandlers, limits: ControlLimits): ConnectionControl {
  /** Bytes of the message being received (no newline yet), as they came. */
  let pieces: Buffer[] = [];
  let partialBytes = 0;
  /** Complete messages not taken yet. */
  const lines: string[] = [];
  let queued = 0;
  let writeBlocked = false;
  let unsubscribe: (() => void) | null = null;
  let partialTimer: NodeJS.Timeout | null = null;
  let identified = false;
  let chain = Promise.resolve();
  let closing = false;

  // Requests already taken are answered first, then the refusal, then the connection ends.
  const refuse = (code: string, message: string) => {
    if (socket.destroyed || closing) return;
    closing = true;
    pieces = [];
    lines.length = 0;
    clearTimers();
    socket.pause();
    void chain.then(() => {
      socket.end(framingError(code, message));
      // A client that does not read the refusal does not keep the connection either.
      setTimeout(() => socket.destroy(), 1000).unref();
    });
  };
  const firstTimer = setTimeout(() => refuse('idle_timeout', `No complete message arrived within ${limits.firstMessageTimeoutMs} ms of connecting; the connection is closed.`), limits.firstMessageTimeoutMs);
  firstTimer.unref();
  const clearTimers = () => {
    clearTimeout(firstTimer);
    if (partialTimer) clearTimeout(partialTimer);
    partialTimer = null;
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

  // Takes complete messages while the client reads its replies and few requests wait; otherwise stops
  // reading, so the kernel's buffer fills and the client's writes block instead of the daemon growing.
  const pump = () => {
    while (!closing && !socket.destroyed && !writeBlocked && queued < limits.maxQueued && lines.length > 0) {
      const line = lines.shift()!;
      if (!identified) {
        identified = true;
        clearTimeout(firstTimer);
        if (h.identify && !h.identify()) {
          refuse('too_many_connections', `The control socket is busy: at most ${limits.maxQuick} connections run quick operations at once and none of them is idle. Try again in a moment.`);
          return;
        }
      }
      queued++;
      // Requests on one connection are answered in order.
      chain = chain
        .then(async () => {
          const out = await h.handle(line, subscribe);
          if (out !== null) reply(out);
        })
        .catch(() => undefined)
        .finally(() => {
          queued--;
          pump();
        });
    }
    if (closing) return;
    if (writeBlocked || queued >= limits.maxQueued || lines.length > 0) socket.pause();
    else socket.resume();
  };

  const watchPartial = () => {
    if (partialBytes === 0) {
      if (partialTimer) clearTimeout(partialTimer);
      partialTimer = null;
    } else if (!partialTimer) {
      partialTimer = setTimeout(() => {
        refuse('message_incomplete', `A message must arrive whole within ${limits.partialTimeoutMs} ms of its first byte; the connection is closed.`);
      }, limits.partialTimeoutMs);
      partialTimer.unref();
    }
  };

  socket.on('data', (chunk: Buffer) => {
    if (closing) return;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      // Counted on the bytes received, newline or not: a message one byte over the cap is never parsed.
      if (partialBytes + (end - start) > limits.maxMessage) {
        pump();
        refuse('message_too_large', tooLarge());
        return;
      }
      if (nl === -1) {
        if (end > start) {
          pieces.push(chunk.subarray(start));
          partialBytes += end - start;
        }
        break;
      }
      const bytes = pieces.length ? Buffer.concat([...pieces, chunk.subarray(start, nl)]) : chunk.subarray(start, nl);
      pieces = [];
      partialBytes = 0;
      start = nl + 1;
      const line = bytes.toString('utf8').trim();
      if (line) lines.push(line);
    }
    watchPartial();
    pump();
  });
  socket.on('drain', () => {
    writeBlocked = false;
    pump();
  });
  socket.on('close', () => {
    clearTimers();
    unsubscribe?.();
    pieces = [];
    lines.length = 0;
  });
  socket.on('error', () => socket.destroy());
  return { refuse };
}
