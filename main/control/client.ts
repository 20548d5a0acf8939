// A JSON-RPC client for the control socket (used by `threshold ctl` and the desktop shell, which also
// listens for the core's event notifications and for the connection's end). A refusal the daemon sends
// before it closes (an error with id null: too_many_connections, idle_timeout, message_too_large, …) is
// what every waiting call fails with, so the caller reports the daemon's own sentence, not a dropped connection.
import { createConnection, type Socket } from 'node:net';
import type { RpcErrorObject } from './rpc';

export class ControlUnavailable extends Error {}

export class RemoteError extends Error {
  constructor(readonly error: RpcErrorObject) {
    super(error.message);
  }

  /** The daemon's string code (too_many_waiting, not_found, …). */
  get code(): string | undefined {
    return this.error.data?.code;
  }
}

/** The daemon refused the connection itself (not one request) and closed it. */
export class ControlRefused extends RemoteError {}

export class ControlClient {
  private nextId = 1;
  private buffer = '';
  private refusal: RpcErrorObject | null = null;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly notificationListeners = new Set<(method: string, params: unknown) => void>();
  private readonly closeListeners = new Set<() => void>();
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.receive(line);
      }
    });
    // A write after the daemon closed (EPIPE) must not throw: the close below answers every caller.
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      if (this.buffer) this.receive(this.buffer);
      this.buffer = '';
      this.closed = true;
      const error = () => (this.refusal ? new ControlRefused(this.refusal) : new ControlUnavailable('The Threshold daemon closed the connection.'));
      for (const w of this.waiting.values()) w.reject(error());
      this.waiting.clear();
      for (const listener of [...this.closeListeners]) listener();
    });
  }

  static connect(path: string): Promise<ControlClient> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(path);
      socket.once('connect', () => resolve(new ControlClient(socket)));
      socket.once('error', (err: NodeJS.ErrnoException) => {
        // A listen queue that is full is a daemon that is running and busy, not one that is gone.
        if (err.code === 'EAGAIN') reject(new ControlRefused({ code: -32014, message: 'The control socket is not taking connections right now (its queue is full); try again in a moment.', data: { code: 'too_many_connections' } }));
        else reject(new ControlUnavailable(err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? `no control socket answers at ${path}` : err.message));
      });
    });
  }

  /** Messages without an id from the daemon (`event` notifications after events.subscribe). */
  onNotification(listener: (method: string, params: unknown) => void): () => void {
    this.notificationListeners.add(listener);
    return () => void this.notificationListeners.delete(listener);
  }

  /** Runs once the connection is gone (at once when it already is). */
  onClose(listener: () => void): () => void {
    if (this.closed) {
      listener();
      return () => undefined;
    }
    this.closeListeners.add(listener);
    return () => void this.closeListeners.delete(listener);
  }

  call<T = unknown>(method: string, params?: unknown): Promise<T> {
    const id = this.nextId++;
    if (this.closed) return Promise.reject(new ControlUnavailable('The connection to the Threshold daemon is closed.'));
    return new Promise<T>((resolve, reject) => {
      if (this.socket.destroyed) {
        reject(this.refusal ? new ControlRefused(this.refusal) : new ControlUnavailable('The Threshold daemon closed the connection.'));
        return;
      }
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.socket.write(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }) + '\n');
    });
  }

  private receive(line: string): void {
    let msg: { id?: number | null; method?: unknown; params?: unknown; result?: unknown; error?: RpcErrorObject };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      return;
    }
    if (msg === null || typeof msg !== 'object') return;
    if (msg.id === null && msg.error) {
      // The connection's own refusal; the daemon closes next, and every waiting call fails with it.
      this.refusal = msg.error;
      return;
    }
    if (msg.id === undefined && typeof msg.method === 'string') {
      for (const listener of [...this.notificationListeners]) listener(msg.method, msg.params);
      return;
    }
    if (typeof msg.id !== 'number') return;
    const w = this.waiting.get(msg.id);
    if (!w) return;
    this.waiting.delete(msg.id);
    if (msg.error) w.reject(new RemoteError(msg.error));
    else w.resolve(msg.result);
  }

  close(): void {
    this.socket.end();
  }

  /** Drops the connection at once (a shell that stops waiting for a core that does not answer). */
  destroy(): void {
    this.socket.destroy();
  }
}
