// Shared plumbing of the chat services' fakes: a loopback HTTP server that can be made slow, down or
// hostile at the wire (huge, malformed or deeply nested replies), and a helper to wait for a condition.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How the next replies misbehave; 'normal' answers as the real service does. */
export type Misbehaviour = 'normal' | 'down' | 'hang' | 'huge' | 'malformed' | 'deep' | 'wrong_shape';

export interface FakeHttp {
  server: Server;
  base: string;
  close(): Promise<void>;
}

export async function startFakeHttp(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void | Promise<void>, opts: { down: () => boolean }): Promise<FakeHttp> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (opts.down()) return void req.socket.destroy();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void Promise.resolve(handle(req, Buffer.concat(chunks).toString('utf8'), res)).catch(() => res.destroy()));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A hostile body for `kind`, or null for a normal answer. */
export function hostileBody(kind: Misbehaviour): string | null {
  switch (kind) {
    case 'huge':
      return `{"ok":true,"result":[${'{"update_id":1},'.repeat(400_000)}{"update_id":2}]}`;
    case 'malformed':
      return '{"ok":true,"result":[{"update_id":';
    case 'deep':
      return `{"ok":true,"result":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    default:
      return null;
  }
}

export function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
}

export async function waitFor<T>(fn: () => T | undefined | null | false, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
