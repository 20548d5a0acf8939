// Raw control-socket clients for tests: write any bytes, read reply lines one at a time.
import { createConnection, type Socket } from 'node:net';

export interface RawClient {
  socket: Socket;
  write(text: string): void;
  /** The next line the server sent, parsed. */
  next(): Promise<Record<string, unknown>>;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
  close(): void;
}

export function rawClient(path: string): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    socket.setEncoding('utf8');
    let buffer = '';
    const lines: string[] = [];
    const waiting: ((line: string) => void)[] = [];
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const w = waiting.shift();
        if (w) w(line);
        else lines.push(line);
      }
    });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    socket.once('connect', () =>
      resolve({
        socket,
        write: (text) => void socket.write(text),
        next: () => new Promise((r) => (lines.length ? r(JSON.parse(lines.shift()!)) : waiting.push((l) => r(JSON.parse(l))))),
        closed,
        close: () => socket.destroy(),
      }),
    );
    socket.once('error', reject);
  });
}
