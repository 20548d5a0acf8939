// Web mode over real HTTP and WebSocket on loopback: every way in without the token, the wrong host or
// origin, or outside the bundle is refused; decisions over the socket are recorded as the web surface;
// bad messages get error values and neither the connection nor the daemon goes down.
import { mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApi } from '../../common/api';
import { createWireClient } from '../../common/web-client';
import { nextPending, shellCall, testCore } from '../../test/support/core';
import type { ThresholdCore } from '../runtime/core';
import { createHandlers } from '../runtime/handlers';
import { contentSecurityPolicy } from './security';
import { startWebServer, type WebServer } from './server';
import { loadWebToken, webTokenPath } from './token';

let core: ThresholdCore;
let web: WebServer;
let token: string;
let dir: string;
let cookie: string;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request: the path goes on the wire exactly as written, headers exactly as given. */
function http(path: string, o: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, path, method: o.method ?? 'GET', headers: { Host: `127.0.0.1:${web.port}`, ...o.headers }, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket; resolves with it once open, or with the HTTP status that refused the upgrade. */
function connect(o: { cookie?: string | null; host?: string; origin?: string | null; path?: string } = {}): Promise<{ ws: WebSocket } | { refused: number }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { Host: o.host ?? `127.0.0.1:${web.port}` };
    const c = o.cookie === undefined ? cookie : o.cookie;
    if (c) headers['Cookie'] = c;
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}${o.path ?? '/ws'}`, { headers, ...(o.origin === null ? {} : { origin: o.origin ?? web.origin }) });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode! });
      res.resume();
    });
    ws.once('error', () => undefined);
  });
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
}

async function open(): Promise<Client> {
  const r = await connect();
  if (!('ws' in r)) throw new Error(`refused with ${r.refused}`);
  return new Client(r.ws);
}

class Client {
  private nextId = 1;
  readonly messages: Record<string, unknown>[] = [];
  private readonly waiters: ((m: Record<string, unknown>) => boolean)[] = [];
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, unknown>;
      this.messages.push(m);
      for (const w of [...this.waiters]) if (w(m)) this.waiters.splice(this.waiters.indexOf(w), 1);
    });
  }
  next(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push((m) => (match(m) ? (resolve(m), true) : false)));
  }
  sendRaw(text: string | Buffer, binary = false): void {
    this.ws.send(text, { binary });
  }
  async call(op: string, params?: unknown): Promise<unknown> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, op, ...(params === undefined ? {} : { params }) }));
    return ((await this.next((m) => m['id'] === id)) as { result: unknown }).result;
  }
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

beforeAll(async () => {
  core = await testCore({ approver: false });
  dir = mkdtempSync(join(tmpdir(), 'threshold-web-'));
  const bundle = join(dir, 'renderer');
  mkdirSync(join(bundle, 'assets'), { recursive: true });
  writeFileSync(join(bundle, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(bundle, 'assets', 'app.js'), 'console.log("hi")');
  writeFileSync(join(dir, 'secret.txt'), 'outside the bundle');
  symlinkSync(join(dir, 'secret.txt'), join(bundle, 'assets', 'link.txt'));
  token = loadWebToken(dir);
  web = await startWebServer({
    port: 0,
    rendererDir: bundle,
    token,
    handlers: createHandlers({ version: '1.0.0', core, surface: 'web' }),
    subscribe: (listener) => core.events.onAny((name, payload) => listener({ name, payload } as never)),
    addApprover: () => core.approvers.add('web'),
  });
  const auth = await http('/auth', { method: 'POST', headers: { Authorization: `Bearer ${token}`, Origin: web.origin } });
  cookie = String((auth.headers['set-cookie'] as string[])[0]).split(';')[0]!;
});
afterAll(async () => {
  await web.dispose();
  core.dispose();
});

describe('web mode: signing in', () => {
  it('prints an address with the token in the fragment only', () => {
    expect(web.url).toEqual(`http://127.0.0.1:${web.port}/#token=${token}`);
  });

  it('exchanges the token for an HttpOnly, SameSite=Strict cookie named for its port', async () => {
    const r = await http('/auth', { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    expect({ status: r.status, cookie: r.headers['set-cookie'] }).toEqual({ status: 204, cookie: [`threshold_web_${web.port}=${token}; HttpOnly; SameSite=Strict; Path=/`] });
  });

  it.each([
    { name: 'no token', headers: {} as Record<string, string>, status: 401 },
    { name: 'a wrong token', headers: { Authorization: `Bearer ${'x'.repeat(43)}` }, status: 401 },
    { name: 'the token as Basic auth', headers: { Authorization: 'Basic dG9rZW4=' }, status: 401 },
    { name: 'the right token from a foreign origin', headers: { Authorization: 'Bearer TOKEN', Origin: 'https://evil.example' }, status: 403 },
    { name: 'the right token with a foreign Host (DNS rebinding)', headers: { Authorization: 'Bearer TOKEN', Host: 'evil.example:PORT' }, status: 403 },
  ])('refuses /auth with $name', async ({ headers, status }) => {
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('TOKEN', token).replace('PORT', String(web.port))]));
    const r = await http('/auth', { method: 'POST', headers: h });
    expect({ status: r.status, cookie: r.headers['set-cookie'] }).toEqual({ status, cookie: undefined });
  });

  it('refuses /auth by GET (the token never goes into a URL)', async () => {
    expect((await http('/auth')).status).toBe(405);
  });
});

describe('web mode: the WebSocket', () => {
  it.each([
    { name: 'no cookie', o: { cookie: null }, refused: 401 },
    { name: 'a wrong cookie', o: { cookie: 'COOKIE_NAME=' + 'y'.repeat(43) }, refused: 401 },
    { name: 'the cookie given twice', o: { cookie: 'COOKIE; COOKIE' }, refused: 401 },
    { name: 'the token in the query instead of the cookie', o: { cookie: null, path: '/ws?token=TOKEN' }, refused: 404 },
    { name: 'the cookie and a query', o: { path: '/ws?token=TOKEN' }, refused: 404 },
    { name: 'a foreign Host (DNS rebinding)', o: { host: 'evil.example:PORT' }, refused: 403 },
    { name: 'our host name on another port', o: { host: '127.0.0.1:1' }, refused: 403 },
    { name: 'a foreign Origin', o: { origin: 'https://evil.example' }, refused: 403 },
    { name: 'an Origin on another port', o: { origin: 'http://127.0.0.1:1' }, refused: 403 },
    { name: 'another path', o: { path: '/socket' }, refused: 404 },
  ])('refuses an upgrade with $name ($refused)', async ({ o, refused }) => {
    const fill = (s?: string | null) => (typeof s === 'string' ? s.replace('COOKIE_NAME', `threshold_web_${web.port}`).replace(/COOKIE(?!_)/g, cookie).replace('TOKEN', token).replace('PORT', String(web.port)) : s);
    const r = await connect({ ...o, cookie: o.cookie === undefined ? undefined : fill(o.cookie), host: fill(o.host) ?? undefined, path: fill(o.path) ?? undefined });
    expect(r).toEqual({ refused });
  });

  it('accepts the cookie from our origin, with localhost as the host name too', async () => {
    const r = await connect({ host: `localhost:${web.port}`, origin: `http://localhost:${web.port}` });
    expect('ws' in r).toBe(true);
    if ('ws' in r) await new Client(r.ws).close();
    await until(() => core.approvers.kinds().length === 0);
  });

  it('counts an open page as an approver surface while it is open', async () => {
    expect(core.approvers.kinds()).toEqual([]);
    const c = await open();
    expect(core.approvers.kinds()).toEqual(['web']);
    await c.close();
    await until(() => core.approvers.kinds().length === 0);
    expect(core.approvers.kinds()).toEqual([]);
  });

  it('pushes the card, and a decision over the socket is recorded as decided from the web', async () => {
    const c = await open();
    const review = core.calls.review(shellCall('touch web.txt'));
    const p = await nextPending(core);
    const pushed = await c.next((m) => (m['event'] as { name?: string } | undefined)?.name === 'approval.requested');
    expect(pushed).toEqual({ event: { name: 'approval.requested', payload: p } });
    expect(await c.call('approval.decide', { id: p.id, hash: p.hash, outcome: 'approve_once' })).toMatchObject({ ok: true, value: { id: p.id, outcome: 'approve_once', decided_by: 'web' } });
    expect((await review).run).toBe(true);
    expect(core.store.approvals.listDecisions({ limit: 1 }).map((d) => [d.id, d.decided_by])).toEqual([[p.id, 'web']]);
    await c.close();
  });

  it.each([
    { name: 'text that is not JSON', send: '{"id":1,', reply: { id: null, result: { ok: false, error: { code: 'invalid_message', message: expect.stringContaining('Not valid JSON') } } } },
    { name: 'a message without an id', send: '{"op":"settings.get"}', reply: { id: null, result: { ok: false, error: { code: 'invalid_message', message: expect.stringContaining('id') } } } },
    { name: 'a message with an extra field', send: '{"id":5,"op":"settings.get","token":"x"}', reply: { id: 5, result: { ok: false, error: { code: 'invalid_message', message: expect.stringContaining('Unrecognized key') } } } },
    { name: 'an unknown operation', send: '{"id":6,"op":"approval.approve_everything"}', reply: { id: 6, result: { ok: false, error: { code: 'unknown_operation', message: expect.any(String) } } } },
    { name: 'an operation only the control API offers', send: '{"id":7,"op":"approval.request","params":{"tool":"run_command","args":{"command":"id"}}}', reply: { id: 7, result: { ok: false, error: { code: 'unknown_operation', message: expect.any(String) } } } },
    { name: "the desktop window's key store (a key is never taken from a browser)", send: '{"id":9,"op":"settings.set_api_key","params":{"key":"sk-typed-in-a-browser"}}', reply: { id: 9, result: { ok: false, error: { code: 'unknown_operation', message: expect.stringContaining('for a browser page') } } } },
    { name: 'params of the wrong shape', send: '{"id":8,"op":"settings.set_level","params":{"level":"yolo"}}', reply: { id: 8, result: { ok: false, error: { code: 'invalid_params', message: expect.stringContaining('level') } } } },
    { name: 'JSON null', send: 'null', reply: { id: null, result: { ok: false, error: { code: 'invalid_message', message: expect.any(String) } } } },
  ])('answers $name with an error value and keeps the connection', async ({ send, reply }) => {
    const c = await open();
    const before = c.messages.length;
    c.sendRaw(send);
    await c.next((m) => c.messages.indexOf(m) >= before && 'result' in m);
    expect(c.messages.slice(before).filter((m) => 'result' in m)[0]).toEqual(reply);
    expect(await c.call('settings.set_level', { level: 'supervised' })).toEqual({ ok: true, value: { level: 'supervised' } });
    await c.close();
  });

  it("gives the page's AppApi (createApi over the web client) over a real socket, events typed", async () => {
    const r = await connect();
    if (!('ws' in r)) throw new Error('refused');
    const ws = r.ws;
    const client = createWireClient((text) => (ws.readyState === ws.OPEN ? (ws.send(text), true) : false));
    ws.on('message', (data) => client.receive(String(data)));
    ws.on('close', () => client.connectionLost());
    const api = createApi(client.invoke, client.subscribe);
    const events: string[] = [];
    api.onEvent((e) => {
      if (e.name === 'approval.requested') events.push(`${e.name} ${e.payload.tool}`);
    });
    const review = core.calls.review(shellCall('touch client.txt'));
    const p = await nextPending(core);
    expect(await api.listPending()).toEqual({ ok: true, value: [p] });
    expect(await api.decide({ id: p.id, hash: p.hash, outcome: 'skip' })).toMatchObject({ ok: true, value: { outcome: 'skip', decided_by: 'web' } });
    await review;
    expect(events).toEqual(['approval.requested run_command']);
    ws.close();
    await until(() => ws.readyState === ws.CLOSED);
    expect(await api.getSettings()).toMatchObject({ ok: false, error: { code: 'disconnected' } });
  });

  it('answers a binary frame with an error value', async () => {
    const c = await open();
    c.sendRaw(Buffer.from('{"id":1,"op":"settings.get"}'), true);
    expect(await c.next((m) => 'result' in m)).toEqual({ id: null, result: { ok: false, error: { code: 'invalid_message', message: 'Messages are JSON text, not binary.' } } });
    await c.close();
  });

  it('answers a message over 1 MiB with message_too_large and keeps the connection', async () => {
    const c = await open();
    c.sendRaw(JSON.stringify({ id: 1, op: 'agent.send', params: { message: 'x'.repeat(1024 * 1024 + 10) } }));
    expect(await c.next((m) => 'result' in m)).toEqual({ id: null, result: { ok: false, error: { code: 'message_too_large', message: 'A message may be at most 1048576 bytes.' } } });
    expect(await c.call('approval.list_pending')).toEqual({ ok: true, value: [] });
    await c.close();
  });

  it('closes a connection that sends more than 4 MiB at once, and the server goes on', async () => {
    const c = await open();
    const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)));
    c.sendRaw('x'.repeat(4 * 1024 * 1024 + 1));
    expect(await closed).toBe(1009);
    const again = await open();
    expect(await again.call('approval.list_pending')).toEqual({ ok: true, value: [] });
    await again.close();
  });
});

describe('web mode: files', () => {
  it('serves the shell with a strict CSP and nosniff, without the cookie', async () => {
    const r = await http('/');
    expect({ status: r.status, csp: r.headers['content-security-policy'], nosniff: r.headers['x-content-type-options'], type: r.headers['content-type'] }).toEqual({
      status: 200,
      csp: contentSecurityPolicy(web.port),
      nosniff: 'nosniff',
      type: 'text/html; charset=utf-8',
    });
    expect(contentSecurityPolicy(web.port)).toEqual(`default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' ws://127.0.0.1:${web.port} ws://localhost:${web.port}; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
  });

  it.each([
    { name: 'a script of the bundle', path: '/assets/app.js', status: 200 },
    { name: 'a parent directory', path: '/../secret.txt', status: 404 },
    { name: 'an encoded parent directory', path: '/%2e%2e/secret.txt', status: 404 },
    { name: 'an encoded slash and parent', path: '/assets%2f..%2f..%2fsecret.txt', status: 404 },
    { name: 'a parent inside the bundle path', path: '/assets/../../secret.txt', status: 404 },
    { name: 'a backslash parent', path: '/..%5csecret.txt', status: 404 },
    { name: 'a NUL byte', path: '/index.html%00.js', status: 404 },
    { name: 'a malformed escape', path: '/%E0%A4%A', status: 404 },
    { name: 'a symlink out of the bundle', path: '/assets/link.txt', status: 404 },
    { name: 'a directory (never listed)', path: '/assets', status: 404 },
    { name: 'a directory with a slash', path: '/assets/', status: 404 },
    { name: 'an absolute-form target to another host', path: 'http://evil.example/index.html', status: 400 },
  ])('answers $name with $status', async ({ path, status }) => {
    const r = await http(path);
    expect(r.status).toBe(status);
    if (status !== 200) expect(r.body).not.toContain('outside the bundle');
  });

  it.each([
    { name: 'a foreign Host', headers: { Host: 'evil.example' } as Record<string, string> },
    { name: 'no port in Host', headers: { Host: '127.0.0.1' } as Record<string, string> },
    { name: 'a foreign Origin', headers: { Origin: 'https://evil.example' } as Record<string, string> },
  ])('refuses even the shell with $name', async ({ headers }) => {
    expect((await http('/', { headers })).status).toBe(403);
  });

  it('refuses to write', async () => {
    expect((await http('/index.html', { method: 'PUT' })).status).toBe(405);
  });
});

describe('the web token', () => {
  it('persists in the data directory, mode 0600, so a restarted daemon accepts the same cookie', () => {
    expect({ again: loadWebToken(dir), mode: statSync(webTokenPath(dir)).mode & 0o777 }).toEqual({ again: token, mode: 0o600 });
  });

  it('is replaced when others could read the file', () => {
    const d = mkdtempSync(join(tmpdir(), 'threshold-token-'));
    const first = loadWebToken(d);
    chmodSync(webTokenPath(d), 0o644);
    const second = loadWebToken(d);
    expect({ changed: second !== first, mode: statSync(webTokenPath(d)).mode & 0o777, shape: /^[A-Za-z0-9_-]{43}$/.test(second) }).toEqual({ changed: true, mode: 0o600, shape: true });
  });

  it('is replaced when the file does not hold a token', () => {
    const d = mkdtempSync(join(tmpdir(), 'threshold-token-'));
    writeFileSync(webTokenPath(d), 'short\n', { mode: 0o600 });
    expect(loadWebToken(d)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
