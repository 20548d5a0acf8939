// The web bridge's transport (docs/ui.md, webproto): one WebSocket at /ws, requests
// {id, op, params} answered by {id, result}, pushes {event: {name, payload}}. When the socket closes it
// reconnects with backoff; a request made while it is down fails at once with a value (never hangs).
import type { CoreEvent, Result } from '../../../common/operations';
import { checkReply, parseEvent } from '../../../common/web-protocol';

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting';

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
  /** A request not answered in this time fails (ms). */
  requestTimeoutMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** Loopback reconnects are cheap: retry quickly, and never wait more than 2 s once the daemon is back. */
export const DEFAULT_BACKOFF_MS = [200, 400, 800, 1600, 2000] as const;
const OPEN = 1;

export interface Transport {
  invoke(op: string, params?: unknown): Promise<Result<unknown>>;
  subscribe(listener: (e: CoreEvent) => void): () => void;
  /** Called with every status change, and at once with the current one. */
  onStatus(listener: (s: ConnectionStatus) => void): () => void;
  close(): void;
}

function failure(code: string, message: string): Result<never> {
  return { ok: false, error: { code, message } };
}

/** A reply's result must be a Result value; anything else is reported as a bad reply. */
export function parseResult(raw: unknown): Result<unknown> {
  if (!raw || typeof raw !== 'object') return failure('bad_reply', 'Threshold sent a reply this page cannot read.');
  const r = raw as { ok?: unknown; value?: unknown; error?: { code?: unknown; message?: unknown } };
  if (r.ok === true) return { ok: true, value: r.value };
  if (r.ok === false && r.error && typeof r.error.code === 'string' && typeof r.error.message === 'string') return { ok: false, error: { code: r.error.code, message: r.error.message } };
  return failure('bad_reply', 'Threshold sent a reply this page cannot read.');
}

export function createSocketTransport(o: TransportOptions): Transport {
  const createSocket = o.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const backoff = o.backoffMs ?? DEFAULT_BACKOFF_MS;
  const setTimer = o.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = o.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const timeoutMs = o.requestTimeoutMs ?? 30_000;
  const listeners = new Set<(e: CoreEvent) => void>();
  const statusListeners = new Set<(s: ConnectionStatus) => void>();
  const waiting = new Map<number, { op: string; resolve: (r: Result<unknown>) => void; timer: unknown }>();
  let status: ConnectionStatus = 'connecting';
  let socket: SocketLike | null = null;
  let nextId = 1;
  let attempt = 0;
  let closed = false;
  let retry: unknown = null;

  const setStatus = (s: ConnectionStatus) => {
    if (s === status) return;
    status = s;
    for (const l of statusListeners) l(s);
  };

  const settle = (id: number, r: Result<unknown>) => {
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    clearTimer(w.timer);
    // A successful reply must have the shape the operations table gives its result.
    w.resolve(checkReply(w.op, r));
  };

  const onMessage = (data: unknown) => {
    let msg: { id?: unknown; result?: unknown; event?: unknown };
    try {
      msg = JSON.parse(String(data)) as typeof msg;
    } catch {
      return;
    }
    if (typeof msg.id === 'number') return settle(msg.id, parseResult(msg.result));
    if (msg.event === undefined) return;
    // An event whose payload does not match its schema is dropped, never half-trusted.
    const e = parseEvent(msg);
    if (e) for (const l of listeners) l(e);
  };

  const connect = () => {
    retry = null;
    if (closed) return;
    const s = createSocket(o.url);
    socket = s;
    s.onopen = () => {
      attempt = 0;
      setStatus('open');
    };
    s.onmessage = (ev) => onMessage(ev.data);
    s.onerror = () => undefined; // onclose follows and handles it
    s.onclose = () => {
      if (socket !== s) return;
      socket = null;
      for (const id of [...waiting.keys()]) settle(id, failure('disconnected', 'The connection to Threshold was lost; try again once it is back.'));
      if (closed) return;
      setStatus('reconnecting');
      const delay = backoff[Math.min(attempt, backoff.length - 1)]!;
      attempt++;
      retry = setTimer(connect, delay);
    };
  };
  connect();

  return {
    invoke(op, params) {
      const s = socket;
      if (!s || s.readyState !== OPEN) return Promise.resolve(failure('disconnected', 'Threshold is not connected; try again once it is back.'));
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimer(() => settle(id, failure('timeout', `Threshold did not answer ${op} in time.`)), timeoutMs);
        waiting.set(id, { op, resolve, timer });
        s.send(JSON.stringify(params === undefined ? { id, op } : { id, op, params }));
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
    close() {
      closed = true;
      if (retry !== null) clearTimer(retry);
      socket?.close();
    },
  };
}
