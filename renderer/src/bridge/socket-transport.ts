// The web bridge's socket: one WebSocket at /ws carrying the web protocol (the framing, reply matching
// and schema checks are common/web-client.ts). When the socket closes it reconnects with backoff; a call
// made while it is down is answered `disconnected` at once (never hangs). A browser does not say why a
// WebSocket was refused, so after each failed attempt the transport asks the daemon (`probe`): a daemon
// that answers but refuses the cookie means this page is not signed in (`unauthorized`, not a network
// problem); one that does not answer for `lostAfterMs` is `lost` (the page then says what to open).
import type { CoreEvent, OperationName, Result } from '../../../common/operations';
import { createWireClient } from '../../../common/web-client';

/**
 * connecting: the first attempt; open; reconnecting: the daemon does not answer (yet); lost: it has not
 * answered for a while; unauthorized: it answers, but this page's token or cookie is not valid.
 */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'lost' | 'unauthorized';

/** What the daemon says of this page's cookie: signed in, signed out, or no answer at all. */
export type ProbeResult = 'signed_in' | 'signed_out' | 'unreachable';

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface TransportOptions {
  url: string;
  createSocket?: (url: string) => SocketLike;
  /** Delays between reconnection attempts (ms); the last one repeats. */
  backoffMs?: readonly number[];
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Asked after each failed attempt; absent: every failure is `reconnecting`. */
  probe?: () => Promise<ProbeResult>;
  /** How long the daemon may not answer before the page is `lost`. */
  lostAfterMs?: number;
  now?: () => number;
}

/** After this long without an answer the page stops saying "reconnecting" and says what to open instead (it keeps trying). */
export const DEFAULT_LOST_AFTER_MS = 8000;

/** Loopback reconnects are cheap: retry quickly, and never wait more than 2 s once the daemon is back. */
export const DEFAULT_BACKOFF_MS = [200, 400, 800, 1600, 2000] as const;
const OPEN = 1;

export interface Transport {
  invoke(op: OperationName, params?: unknown): Promise<Result<unknown>>;
  subscribe(listener: (e: CoreEvent) => void): () => void;
  /** Called with every status change, and at once with the current one. */
  onStatus(listener: (s: ConnectionStatus) => void): () => void;
  /** Tries again now instead of after the backoff (a token was just exchanged); nothing while open. */
  retryNow(): void;
  close(): void;
}

export function createSocketTransport(o: TransportOptions): Transport {
  const createSocket = o.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const backoff = o.backoffMs ?? DEFAULT_BACKOFF_MS;
  const setTimer = o.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = o.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const statusListeners = new Set<(s: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'connecting';
  let socket: SocketLike | null = null;
  let attempt = 0;
  let closed = false;
  let retry: unknown = null;
  const now = o.now ?? Date.now;
  /** When the daemon last stopped answering (null while it answers). */
  let downSince: number | null = null;

  const wire = createWireClient((text) => {
    if (!socket || socket.readyState !== OPEN) return false;
    socket.send(text);
    return true;
  });

  const setStatus = (s: ConnectionStatus) => {
    if (s === status) return;
    status = s;
    for (const l of statusListeners) l(s);
  };

  const connect = () => {
    retry = null;
    if (closed) return;
    const s = createSocket(o.url);
    socket = s;
    s.onopen = () => {
      attempt = 0;
      downSince = null;
      setStatus('open');
    };
    s.onmessage = (ev) => wire.receive(String(ev.data));
    s.onerror = () => undefined; // onclose follows and handles it
    s.onclose = () => {
      if (socket !== s) return;
      socket = null;
      wire.connectionLost();
      if (closed) return;
      const schedule = () => {
        if (closed) return;
        const delay = backoff[Math.min(attempt, backoff.length - 1)]!;
        attempt++;
        retry = setTimer(connect, delay);
      };
      if (!o.probe) {
        setStatus('reconnecting');
        return schedule();
      }
      downSince ??= now();
      void o.probe().then(
        (verdict) => {
          if (closed || socket !== null) return;
          if (verdict === 'signed_out') setStatus('unauthorized');
          else if (verdict === 'unreachable' && now() - downSince! >= (o.lostAfterMs ?? DEFAULT_LOST_AFTER_MS)) setStatus('lost');
          else if (status !== 'lost' && status !== 'unauthorized') setStatus('reconnecting');
          else if (verdict === 'signed_in') setStatus('reconnecting');
          schedule();
        },
        () => schedule(),
      );
    };
  };
  connect();

  return {
    invoke: (op, params) => wire.invoke(op, params),
    subscribe: (listener) => wire.subscribe(listener),
    onStatus(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
    retryNow() {
      if (closed || retry === null) return;
      clearTimer(retry);
      attempt = 0;
      connect();
    },
    close() {
      closed = true;
      if (retry !== null) clearTimer(retry);
      socket?.close();
    },
  };
}
