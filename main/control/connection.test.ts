// The control socket's limits, on real sockets: a client that does not read is not read from, a message
// has a size cap and a deadline, connections are capped, a subscriber that does not read is dropped.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '../../test/support/raw-control-client';
import { testCore } from '../../test/support/core';
import type { ThresholdCore } from '../gate/core';
import { DEFAULT_CONTROL_LIMITS, serveConnection, type ControlLimits } from './connection';
import { startControlServer, type ControlServer } from './server';

const open: { close(): void }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

/** A bare server running serveConnection with a handler that counts requests and answers `replyBytes`. */
async function countingServer(limits: Partial<ControlLimits>, replyBytes: number) {
  const stats = { handled: 0 };
  const pushers: ((text: string) => void)[] = [];
  const server: Server = createServer((socket) =>
    serveConnection(
      socket,
      {
        handle: async (text, subscribe) => {
          stats.handled++;
          if (text.includes('subscribe')) subscribe();
          const id = (JSON.parse(text) as { id: number }).id;
          return JSON.stringify({ jsonrpc: '2.0', id, result: 'x'.repeat(replyBytes) });
        },
        subscribe: (push) => {
          pushers.push(push);
          return () => pushers.splice(pushers.indexOf(push), 1);
        },
      },
      { ...DEFAULT_CONTROL_LIMITS, ...limits },
    ),
  );
  const path = join(mkdtempSync(join(tmpdir(), 'threshold-conn-')), 's.sock');
  await new Promise<void>((r) => server.listen(path, r));
  open.push({ close: () => server.close() });
  return { path, stats, pushers };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function connect(path: string): Promise<RawClient> {
  const c = await rawClient(path);
  open.push(c);
  return c;
}

describe('backpressure: a client that does not read its replies is not read from', () => {
  it('handles only a bounded number of 64 KB requests while the client reads nothing, then answers all in order once it reads', async () => {
    const { path, stats } = await countingServer({ maxQueued: 4 }, 64 * 1024);
    const c = await connect(path);
    c.socket.pause();
    const total = 600;
    for (let i = 1; i <= total; i++) c.write(`{"jsonrpc":"2.0","id":${i},"method":"m"}\n`);
    await settle(500);
    const whileNotReading = stats.handled;
    // Without backpressure every request would be answered into the daemon's memory (600 x 64 KB).
    expect(whileNotReading).toBeLessThan(100);
    c.socket.resume();
    const ids: number[] = [];
    for (let i = 1; i <= total; i++) ids.push((await c.next())['id'] as number);
    expect({ handled: stats.handled, inOrder: ids.every((id, i) => id === i + 1) }).toEqual({ handled: total, inOrder: true });
  });
});

describe('limits that close the connection with a JSON-RPC error', () => {
  it.each([
    {
      name: 'a message longer than the cap, even after a complete one',
      limits: { maxMessage: 1000 },
      send: (c: RawClient) => c.write(`{"jsonrpc":"2.0","id":1,"method":"m"}\n` + 'x'.repeat(1500)),
      expected: { code: -32011, data: 'message_too_large', answered: 1 },
    },
    {
      name: 'a half-sent message past its deadline',
      limits: { partialTimeoutMs: 200 },
      send: (c: RawClient) => c.write('{"jsonrpc":"2.0","id":1,'),
      expected: { code: -32013, data: 'message_incomplete', answered: 0 },
    },
  ])('$name', async ({ limits, send, expected }) => {
    const { path } = await countingServer(limits, 10);
    const c = await connect(path);
    send(c);
    const lines: Record<string, unknown>[] = [];
    for (let i = 0; i <= expected.answered; i++) lines.push(await c.next());
    await c.closed;
    const last = lines[lines.length - 1] as { id: unknown; error: { code: number; data: { code: string } } };
    expect({ id: last.id, code: last.error.code, data: last.error.data.code, answered: lines.length - 1 }).toEqual({ id: null, ...expected });
  });

  it('a subscriber that leaves its events unread is disconnected', async () => {
    const { path, pushers } = await countingServer({ maxUnreadEventBytes: 256 * 1024 }, 10);
    const c = await connect(path);
    c.write('{"jsonrpc":"2.0","id":1,"method":"subscribe"}\n');
    await c.next();
    c.socket.pause();
    const event = JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { payload: 'e'.repeat(16 * 1024) } });
    let pushed = 0;
    while (pushers.length && pushed < 5000) {
      for (const p of [...pushers]) p(event);
      if (++pushed % 20 === 0) await settle(2);
    }
    await settle(20);
    // Dropped well before 5,000 events (80 MB) piled up in the daemon.
    expect(pushed).toBeLessThan(1000);
    expect(pushers).toEqual([]);
  });
});

describe('the connection cap', () => {
  let core: ThresholdCore;
  let server: ControlServer;
  beforeAll(async () => {
    core = await testCore();
    server = await startControlServer(core, mkdtempSync(join(tmpdir(), 'threshold-conn-cap-')), null, undefined, { maxConnections: 3 });
  });
  afterAll(async () => {
    await server.close();
    core.dispose();
  });

  it('answers one connection past the cap with an error and closes it; a freed slot serves again', async () => {
    const first = await Promise.all([1, 2, 3].map(() => connect(server.path)));
    for (const c of first) c.write('{"jsonrpc":"2.0","id":1,"method":"settings.get"}\n');
    for (const c of first) expect(await c.next()).toMatchObject({ id: 1, result: { level: 'supervised' } });
    const extra = await connect(server.path);
    expect(await extra.next()).toMatchObject({ id: null, error: { code: -32014, data: { code: 'too_many_connections' } } });
    await extra.closed;
    first[0]!.close();
    await first[0]!.closed;
    await settle(50);
    const again = await connect(server.path);
    again.write('{"jsonrpc":"2.0","id":2,"method":"settings.get"}\n');
    expect(await again.next()).toMatchObject({ id: 2, result: { level: 'supervised' } });
  });
});
