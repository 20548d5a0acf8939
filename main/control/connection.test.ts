// The control socket's limits, on real sockets: a client that does not read is not read from, a message
// has a size cap and a deadline, connections are capped, a subscriber that does not read is dropped.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '../../test/support/raw-control-client';
import { testCore } from '../../test/support/core';
import type { ThresholdCore } from '../runtime/core';
import { DEFAULT_CONTROL_LIMITS, serveConnection, type ControlLimits } from './connection';
import type { ControlServer } from './server';
import { serveControl } from '../../test/support/control';

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

describe('the message cap counts bytes as they arrive, newline or not', () => {
  it.each([
    { name: 'a line one byte over the cap, its newline in the same write', line: (max: number) => `"${'x'.repeat(max - 1)}"`, parsed: false },
    { name: 'a line exactly at the cap', line: (max: number) => `"${'x'.repeat(max - 2)}"`, parsed: true },
    { name: 'a line under the cap in characters but over it in bytes (é is two)', line: (max: number) => `"${'é'.repeat(max / 2)}"`, parsed: false },
  ])('$name: parsed $parsed', async ({ line, parsed }) => {
    const max = 4096;
    const { path, stats } = await countingServer({ maxMessage: max }, 10);
    const c = await connect(path);
    c.write(line(max) + '\n');
    const answer = await c.next();
    expect({ handled: stats.handled, code: (answer['error'] as { data?: { code?: string } } | undefined)?.data?.code ?? null }).toEqual(parsed ? { handled: 1, code: null } : { handled: 0, code: 'message_too_large' });
  });

  it('a line over the cap sent in many small pieces is refused before its newline arrives', async () => {
    const { path, stats } = await countingServer({ maxMessage: 4096 }, 10);
    const c = await connect(path);
    for (let i = 0; i < 50; i++) c.write('x'.repeat(100));
    expect(await c.next()).toMatchObject({ id: null, error: { data: { code: 'message_too_large' } } });
    await c.closed;
    expect(stats.handled).toBe(0);
  });
});

describe('the first message has a deadline', () => {
  it.each([
    { name: 'a connection that sends nothing', send: '' },
    { name: 'a connection that sends half a message', send: '{"jsonrpc":"2.0",' },
    { name: 'a connection that sends only newlines', send: '\n\n\n' },
  ])('$name is closed with idle_timeout or message_incomplete', async ({ send }) => {
    const { path } = await countingServer({ firstMessageTimeoutMs: 200, partialTimeoutMs: 5000 }, 10);
    const c = await connect(path);
    if (send) c.write(send);
    expect(await c.next()).toMatchObject({ id: null, error: { data: { code: 'idle_timeout' } } });
    await c.closed;
  });

  it('a connection that sent one message has no deadline after it', async () => {
    const { path } = await countingServer({ firstMessageTimeoutMs: 100 }, 10);
    const c = await connect(path);
    c.write('{"jsonrpc":"2.0","id":1,"method":"m"}\n');
    await c.next();
    await settle(400);
    c.write('{"jsonrpc":"2.0","id":2,"method":"m"}\n');
    expect(await c.next()).toMatchObject({ id: 2 });
  });
});

describe('places on the control socket: opening, waiting and quick connections are kept apart', () => {
  let core: ThresholdCore;
  let server: ControlServer;
  const limits = { maxOpening: 3, maxWaiting: 2, maxQuick: 2 };
  beforeAll(async () => {
    core = await testCore();
    server = await serveControl(core, mkdtempSync(join(tmpdir(), 'threshold-conn-cap-')), limits);
  });
  afterAll(async () => {
    await server.close();
    core.dispose();
  });
  const waitingRequest = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'approval.request', params: { tool: 'run_command', args: { command: `touch wait-${id}.txt` }, session_id: `s${id}` } }) + '\n';
  const pending = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"approval.list_pending"}\n`;

  it('connections that send nothing never keep a new one out: the oldest of them goes', async () => {
    const silent = await Promise.all(Array.from({ length: 10 }, () => connect(server.path)));
    const c = await connect(server.path);
    c.write(pending(1));
    expect(await c.next()).toMatchObject({ id: 1, result: [] });
    const refusals = await Promise.all(silent.slice(0, 7).map((s) => s.next()));
    expect(new Set(refusals.map((r) => (r['error'] as { data: { code: string } }).data.code))).toEqual(new Set(['too_many_connections']));
  });

  it('requests waiting for their decisions fill the waiting places; one more is refused, and listing and deciding still work', async () => {
    const waiters = await Promise.all([1, 2].map(() => connect(server.path)));
    waiters.forEach((w, i) => w.write(waitingRequest(i + 1)));
    for (let i = 0; i < 50 && core.gate.listPending().length < 2; i++) await settle(20);
    const third = await connect(server.path);
    third.write(waitingRequest(3));
    expect(await third.next()).toMatchObject({ id: 3, error: { code: -32016, data: { code: 'too_many_waiting' } } });
    // The refused request started nothing; its connection still does quick work.
    third.write(pending(4));
    const listed = (await third.next())['result'] as { id: string; hash: string }[];
    expect(listed.length).toBe(2);
    third.close();
    const approver = await connect(server.path);
    approver.write(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'approval.decide', params: { id: listed[0]!.id, hash: listed[0]!.hash, outcome: 'deny' } }) + '\n');
    expect(await approver.next()).toMatchObject({ id: 5, result: { outcome: 'deny' } });
    approver.write(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'approval.decide', params: { id: listed[1]!.id, hash: listed[1]!.hash, outcome: 'deny' } }) + '\n');
    expect(await approver.next()).toMatchObject({ id: 6, result: { outcome: 'deny' } });
    const answers = await Promise.all(waiters.map((w) => w.next()));
    expect(answers.map((a) => (a['result'] as { outcome: string }).outcome)).toEqual(['deny', 'deny']);
  });

  it('an idle quick connection makes room for a new one, and is told why it was closed', async () => {
    const idle = await Promise.all([1, 2].map(() => connect(server.path)));
    for (const c of idle) {
      c.write(pending(1));
      await c.next();
    }
    const fresh = await connect(server.path);
    fresh.write(pending(2));
    expect(await fresh.next()).toMatchObject({ id: 2, result: [] });
    expect(await idle[0]!.next()).toMatchObject({ id: null, error: { data: { code: 'too_many_connections' } } });
  });
});

describe('order: a control connection answers in order; the desktop window’s answers each request when it is done', () => {
  /** A server whose "slow" requests wait until released; `inOrder` as the connection would have it. */
  async function gatedServer(inOrder: boolean, limits: Partial<ControlLimits> = {}) {
    const stats = { running: 0, most: 0 };
    const waiting: (() => void)[] = [];
    const server: Server = createServer((socket) =>
      serveConnection(
        socket,
        {
          handle: async (text) => {
            const { id, method } = JSON.parse(text) as { id: number; method: string };
            stats.running++;
            stats.most = Math.max(stats.most, stats.running);
            if (method === 'slow') await new Promise<void>((r) => waiting.push(r));
            stats.running--;
            return JSON.stringify({ jsonrpc: '2.0', id, result: method });
          },
          subscribe: () => () => undefined,
          inOrder: () => inOrder,
        },
        { ...DEFAULT_CONTROL_LIMITS, ...limits },
      ),
    );
    const path = join(mkdtempSync(join(tmpdir(), 'threshold-order-')), 's.sock');
    await new Promise<void>((r) => server.listen(path, r));
    open.push({ close: () => server.close() });
    return { path, stats, release: () => waiting.splice(0).forEach((r) => r()), waiting };
  }
  const request = (id: number, method: string) => `{"jsonrpc":"2.0","id":${id},"method":"${method}"}\n`;

  it.each([
    { name: 'a control connection: the quick request waits behind the slow one', inOrder: true, first: 1 },
    { name: 'the desktop window’s connection: the quick request is answered while the slow one waits', inOrder: false, first: 2 },
  ])('$name', async ({ inOrder, first }) => {
    const s = await gatedServer(inOrder);
    const c = await connect(s.path);
    c.write(request(1, 'slow') + request(2, 'quick'));
    await settle(150);
    s.release();
    const ids = [(await c.next())['id'], (await c.next())['id']];
    expect(ids[0]).toBe(first);
  });

  it('the desktop window’s connection runs at most maxQueued requests at once; the rest wait unread, then run', async () => {
    const s = await gatedServer(false, { maxQueued: 4 });
    const c = await connect(s.path);
    for (let i = 1; i <= 10; i++) c.write(request(i, 'slow'));
    await settle(200);
    const atOnce = s.stats.most;
    let done = false;
    const replies = (async () => {
      const ids: unknown[] = [];
      for (let i = 0; i < 10; i++) ids.push((await c.next())['id']);
      done = true;
      return ids;
    })();
    while (!done) {
      s.release();
      await settle(20);
    }
    const answered = await replies;
    expect({ atOnce, answered: [...answered].sort((x, y) => Number(x) - Number(y)) }).toEqual({ atOnce: 4, answered: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
  });
});
