// The web server's limits per client, on real sockets: every refused upgrade and every request Node
// itself refuses carries the security headers; idle and slow connections that never signed in are
// closed, a few per address at most are kept, and a flood of them neither locks a new page out nor
// touches a signed-in one.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testCore } from '../../test/support/core';
import type { ThresholdCore } from '../runtime/core';
import { createHandlers } from '../runtime/handlers';
import { securityHeaders } from './security';
import { startWebServer, type WebLimits, type WebServer } from './server';
import { loadWebToken } from './token';

let core: ThresholdCore;
let dir: string;
let token: string;
const servers: WebServer[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  core = await testCore({ approver: false });
  dir = mkdtempSync(join(tmpdir(), 'threshold-web-limits-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
  token = loadWebToken(dir);
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  for (const w of servers) await w.dispose();
  core.dispose();
});

async function server(limits: Partial<WebLimits> = {}): Promise<WebServer> {
  const web = await startWebServer({
    port: 0,
    rendererDir: join(dir, 'renderer'),
    token,
    handlers: createHandlers({ version: '1.0.0', core, surface: 'web' }),
    subscribe: (listener) => core.events.onAny((name, payload) => listener({ name, payload } as never)),
    limits,
  });
  servers.push(web);
  return web;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
}

/** Opens a TCP connection (from `localAddress` when given) and keeps it for the file's teardown. */
function tcp(port: number, localAddress?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = netConnect({ host: '127.0.0.1', port, ...(localAddress ? { localAddress } : {}) }, () => resolve(s));
    s.on('error', reject);
    sockets.push(s);
  });
}

function closedWithin(s: Socket, ms: number): Promise<boolean> {
  if (s.destroyed || s.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    s.once('close', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/** Sends bytes exactly as given and reads the answer's status line and headers. */
async function raw(port: number, text: string): Promise<RawAnswer> {
  const s = await tcp(port);
  s.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    let got = '';
    s.setEncoding('latin1');
    s.on('data', (c: string) => {
      got += c;
      const end = got.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine, ...lines] = got.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers });
      s.destroy();
    });
    s.on('close', () => reject(new Error(`closed without an answer; got ${JSON.stringify(got)}`)));
    s.write(text);
  });
}

const upgrade = (port: number, o: { path?: string; host?: string; origin?: string | null; cookie?: string | null }) =>
  [
    `GET ${o.path ?? '/ws'} HTTP/1.1`,
    `Host: ${o.host ?? `127.0.0.1:${port}`}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...(o.origin === null ? [] : [`Origin: ${o.origin ?? `http://127.0.0.1:${port}`}`]),
    ...(o.cookie ? [`Cookie: ${o.cookie}`] : []),
    '',
    '',
  ].join('\r\n');

const cookieOf = (port: number) => `threshold_web_${port}=${token}`;

/** Signs in over HTTP and opens the page's WebSocket. */
function openPage(web: WebServer): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, { headers: { Cookie: cookieOf(web.port) }, origin: web.origin });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_q, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function call(ws: WebSocket, op: string): Promise<unknown> {
  const id = Math.floor(Math.random() * 1e9) + 1;
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const m = JSON.parse(String(data)) as { id?: number; result?: unknown };
      if (m.id !== id) return;
      ws.off('message', onMessage);
      resolve(m.result);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, op }));
  });
}

async function signIn(web: WebServer): Promise<number> {
  const r = await fetch(`${web.origin}/auth`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  return r.status;
}

describe('every refused upgrade carries the security headers', () => {
  let web: WebServer;
  beforeAll(async () => {
    web = await server({ maxPages: 1 });
  });

  it.each([
    { name: 'no cookie', o: { cookie: null }, status: 401 },
    { name: 'a wrong cookie', o: { cookie: 'WRONG' }, status: 401 },
    { name: 'the cookie given twice', o: { cookie: 'TWICE' }, status: 401 },
    { name: 'the token in the query', o: { path: '/ws?token=TOKEN', cookie: null }, status: 404 },
    { name: 'the cookie and a query', o: { path: '/ws?x=1' }, status: 404 },
    { name: 'another path', o: { path: '/socket' }, status: 404 },
    { name: 'a foreign Host', o: { host: 'evil.example' }, status: 403 },
    { name: 'a foreign Origin', o: { origin: 'https://evil.example' }, status: 403 },
    { name: 'a target that is not a path', o: { path: 'http://evil.example/ws' }, status: 400 },
  ])('$name: $status with every header', async ({ o, status }) => {
    const port = web.port;
    const cookie = o.cookie === undefined ? cookieOf(port) : o.cookie === 'WRONG' ? `threshold_web_${port}=${'y'.repeat(43)}` : o.cookie === 'TWICE' ? `${cookieOf(port)}; ${cookieOf(port)}` : o.cookie;
    const r = await raw(port, upgrade(port, { ...o, path: o.path?.replace('TOKEN', token), cookie }));
    expect(r.status).toBe(status);
    expect(r.headers).toMatchObject(Object.fromEntries(Object.entries(securityHeaders(port)).map(([k, v]) => [k.toLowerCase(), v])));
  });

  it('503 when the pages allowed are open, with every header', async () => {
    const page = await openPage(web);
    const r = await raw(web.port, upgrade(web.port, { cookie: cookieOf(web.port) }));
    page.close();
    expect(r.status).toBe(503);
    expect(r.headers).toMatchObject(Object.fromEntries(Object.entries(securityHeaders(web.port)).map(([k, v]) => [k.toLowerCase(), v])));
  });

  it.each([
    { name: 'a request line that is not HTTP', text: 'HELLO\r\n\r\n', status: 400 },
    { name: 'headers over the size Node accepts', text: `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, status: 431 },
  ])("Node's own refusal of $name: $status with every header", async ({ text, status }) => {
    const r = await raw(web.port, text);
    expect(r.status).toBe(status);
    expect(r.headers).toMatchObject(Object.fromEntries(Object.entries(securityHeaders(web.port)).map(([k, v]) => [k.toLowerCase(), v])));
  });
});

describe('connections that never sign in', () => {
  it('a silent connection and a slowloris one are closed after the idle time; a signed-in page stays', async () => {
    const web = await server({ idleMs: 300 });
    const page = await openPage(web);
    const silent = await tcp(web.port);
    const slow = await tcp(web.port);
    slow.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const dribble = setInterval(() => slow.writable && slow.write('X-A: b\r\n'), 50);
    const [silentClosed, slowClosed] = await Promise.all([closedWithin(silent, 3000), closedWithin(slow, 3000)]);
    clearInterval(dribble);
    expect({ silentClosed, slowClosed, page: page.readyState === WebSocket.OPEN }).toEqual({ silentClosed: true, slowClosed: true, page: true });
    expect(await call(page, 'approval.list_pending')).toEqual({ ok: true, value: [] });
    page.close();
  });

  it('300 idle connections keep at most the per-address cap open, and a new page signs in and works meanwhile', async () => {
    const web = await server({ perAddress: 8, total: 256, idleMs: 60_000, sweepMs: 50 });
    const page = await openPage(web);
    const flood = await Promise.all(Array.from({ length: 300 }, () => tcp(web.port)));
    await new Promise((r) => setTimeout(r, 400));
    const open = flood.filter((s) => !s.destroyed && !s.readableEnded).length;
    expect(open).toBeLessThanOrEqual(8);
    // A new page: the shell, sign-in, the socket, a call — while the flood's last sockets are still held.
    const shell = await fetch(`${web.origin}/`);
    expect({ shell: shell.status, auth: await signIn(web) }).toEqual({ shell: 200, auth: 204 });
    const second = await openPage(web);
    expect(await call(second, 'approval.list_pending')).toEqual({ ok: true, value: [] });
    // The page that was signed in before the flood was never touched.
    expect(await call(page, 'approval.list_pending')).toEqual({ ok: true, value: [] });
    page.close();
    second.close();
  });

  it('keeps each address to its own cap: a flood from 127.0.0.2 does not close 127.0.0.1’s waiting connections', async () => {
    const web = await server({ perAddress: 4, total: 256, idleMs: 60_000, sweepMs: 50 });
    const mine = await Promise.all(Array.from({ length: 3 }, () => tcp(web.port)));
    const theirs = await Promise.all(Array.from({ length: 40 }, () => tcp(web.port, '127.0.0.2')));
    await new Promise((r) => setTimeout(r, 400));
    const alive = (list: Socket[]) => list.filter((s) => !s.destroyed && !s.readableEnded).length;
    expect({ mine: alive(mine), theirs: alive(theirs) }).toEqual({ mine: 3, theirs: 4 });
  });

  it('a flood spread over many loopback addresses is held by the total cap, and a new page still signs in', async () => {
    const web = await server({ perAddress: 4, total: 24, idleMs: 60_000, sweepMs: 50 });
    const flood: Socket[] = [];
    for (let a = 2; a <= 41; a++) flood.push(...(await Promise.all(Array.from({ length: 5 }, () => tcp(web.port, `127.0.0.${a}`)))));
    await new Promise((r) => setTimeout(r, 400));
    expect(flood.filter((s) => !s.destroyed && !s.readableEnded).length).toBeLessThanOrEqual(24);
    expect(await signIn(web)).toBe(204);
    const page = await openPage(web);
    expect(await call(page, 'approval.list_pending')).toEqual({ ok: true, value: [] });
    page.close();
  });

  it('a signed-in keep-alive connection is never closed to make room', async () => {
    const web = await server({ perAddress: 2, total: 256, idleMs: 60_000, sweepMs: 50 });
    const kept = await tcp(web.port);
    kept.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nCookie: ${cookieOf(web.port)}\r\n\r\n`);
    await new Promise<void>((resolve) => kept.once('data', () => resolve()));
    await Promise.all(Array.from({ length: 50 }, () => tcp(web.port)));
    await new Promise((r) => setTimeout(r, 400));
    expect(kept.destroyed || kept.readableEnded).toBe(false);
  });
});
