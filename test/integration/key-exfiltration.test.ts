// Provider keys stay with their endpoint (issue 26). A real runtime (core, agent, web server) whose
// provider is a collector on loopback that records every request; the keychain and two environment
// variables hold keys. Each exfiltration attempt runs through `model.test` and through `model.set`
// followed by the agent's next model step, from the web page's socket and from the window's IPC
// (registerHandlers with an injected ipc, the desktop's confirmation answering "do not send"). No
// collector may receive any key: other kind, other host, same host other port, other path, userinfo,
// plain http:// to a host that is not this machine, IPv6 / decimal / hex / mapped loopback forms, and a
// redirect from the configured endpoint. Then the ways a person does move a key: the desktop's own
// confirmation, and the key entered again in the window.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registerHandlers, type IpcEventLike } from '../../main/app/ipc';
import { DEFAULT_CONFIG } from '../../main/config/load';
import { pathContextFor } from '../../main/config/runtime';
import type { KeyUseRequest } from '../../main/runtime/key-binding';
import { startRuntime, type Runtime } from '../../main/runtime/runtime';
import { ROOT } from '../support/cli';

const KEYCHAIN_KEY = 'sk-keychain-0123456789abcdefXYZ';
const OPENAI_KEY = 'sk-openai-env-0123456789abcdefXYZ';
const ANTHROPIC_KEY = 'sk-ant-env-0123456789abcdefXYZ';
const NEW_KEY = 'sk-entered-again-0123456789abcdef';
const KEYS = [KEYCHAIN_KEY, OPENAI_KEY, ANTHROPIC_KEY, NEW_KEY];

interface Seen {
  path: string;
  raw: string;
}

/** Records every request whole (headers and body) on any path, on IPv4 and IPv6 loopback; answers 401, or a redirect. */
class Collector {
  readonly seen: Seen[] = [];
  redirectTo: string | null = null;
  private constructor(private readonly server: Server) {}
  static async start(): Promise<Collector> {
    const holder: { c?: Collector } = {};
    const server = createServer((req, res) => void holder.c!.handle(req, res));
    const c = (holder.c = new Collector(server));
    await new Promise<void>((r) => server.listen(0, '::', r));
    return c;
  }
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }
  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    this.seen.push({ path: req.url ?? '', raw: `${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${body}` });
    if (this.redirectTo) {
      res.writeHead(307, { location: this.redirectTo + (req.url ?? '').replace(/^\/v1/, '') });
      return void res.end();
    }
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'collector: no key accepted here', type: 'invalid_request_error' } }));
  }
  keysSeen(): string[] {
    return KEYS.filter((k) => this.seen.some((s) => s.raw.includes(k)));
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

let configured: Collector;
let other: Collector;
let runtime: Runtime;
let keychain: string | null = KEYCHAIN_KEY;
let confirmAnswer = false;
const asked: KeyUseRequest[] = [];
const ipc = new Map<string, (event: IpcEventLike, payload?: unknown) => unknown>();
let ws: WebSocket;
let wsId = 0;

const base = () => `http://127.0.0.1:${configured.port}/v1`;

beforeAll(async () => {
  [configured, other] = await Promise.all([Collector.start(), Collector.start()]);
  const root = mkdtempSync(join(ROOT, '.test-tmp', 'keys-'));
  const dataDir = join(root, 'data');
  const bundle = join(root, 'renderer');
  mkdirSync(dataDir, { mode: 0o700 });
  mkdirSync(bundle);
  mkdirSync(join(root, 'ws'));
  writeFileSync(join(bundle, 'index.html'), '<!doctype html>');
  runtime = await startRuntime({
    dataDir,
    config: { ...DEFAULT_CONFIG, provider: { ...DEFAULT_CONFIG.provider, kind: 'openai', baseUrl: base(), model: 'm', apiKeyEnv: 'OPENAI_API_KEY' } },
    paths: pathContextFor(join(root, 'ws'), { HOME: root }, dataDir),
    version: '0.0.0-test',
    agent: { env: { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY } },
    keychain: {
      read: () => keychain,
      write: (key) => {
        keychain = key;
        return { ok: true, value: { stored: true } };
      },
    },
    confirmKeyUse: async (r) => {
      asked.push(r);
      return confirmAnswer;
    },
    control: false,
    web: { port: 0, rendererDir: bundle, approvers: true },
    log: () => undefined,
  });
  registerHandlers({ handle: (channel, listener) => ipc.set(channel, listener) }, { handlers: runtime.handlers('desktop'), trustedFrame: (url) => url.startsWith('app://threshold/') });
  const auth = await fetch(`${runtime.web!.origin}/auth`, { method: 'POST', headers: { Authorization: `Bearer ${readToken(dataDir)}` } });
  const cookie = auth.headers.get('set-cookie')!.split(';')[0]!;
  ws = new WebSocket(`ws://127.0.0.1:${runtime.web!.port}/ws`, { headers: { Cookie: cookie }, origin: runtime.web!.origin });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
});

afterAll(async () => {
  ws?.close();
  await runtime?.dispose();
  await Promise.all([configured?.close(), other?.close()]);
});

afterEach(async () => {
  // Back to the configured provider, the keys where they started, the collectors empty.
  configured.redirectTo = null;
  confirmAnswer = false;
  asked.length = 0;
  keychain = KEYCHAIN_KEY;
  await ipcCall('model.set', { kind: 'openai', base_url: base(), model: 'm' });
  runtime.core.store.settings.set('provider_key_bindings', {}, Date.now());
  configured.seen.length = 0;
  other.seen.length = 0;
});

function readToken(dataDir: string): string {
  return readFileSync(join(dataDir, 'web-token'), 'utf8').trim();
}

type Reply = { ok: boolean; value?: Record<string, unknown>; error?: { code: string; message: string } };

function webCall(op: string, params?: unknown): Promise<Reply> {
  const id = ++wsId;
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const m = JSON.parse(String(data)) as { id?: number; result?: Reply };
      if (m.id !== id) return;
      ws.off('message', onMessage);
      resolve(m.result!);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, op, ...(params === undefined ? {} : { params }) }));
  });
}

const ipcCall = (op: string, params?: unknown) => ipc.get(op)!({ senderFrame: { url: 'app://threshold/index.html' } }, params) as Promise<Reply>;
const surfaces = { web: webCall, ipc: ipcCall } as const;

/** One agent step on the provider in force (after a save), ended whatever the provider said. */
async function agentStep(call: (op: string, p?: unknown) => Promise<Reply>): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    const off = runtime.subscribe((e) => {
      if (e.name === 'turn.ended') {
        off();
        resolve();
      }
    });
  });
  const sent = await call('agent.send', { message: 'Say hello.' });
  expect(sent.ok).toBe(true);
  await ended;
}

const P = () => configured.port;
const P2 = () => other.port;
const attempts: { name: string; kind: 'openai' | 'anthropic' | 'openai-compatible'; url: () => string }[] = [
  { name: 'another kind at the configured address', kind: 'anthropic', url: () => `http://127.0.0.1:${P()}/v1` },
  { name: 'the OpenAI-compatible kind at the configured address', kind: 'openai-compatible', url: () => `http://127.0.0.1:${P()}/v1` },
  { name: 'another host name for the same server (localhost)', kind: 'openai', url: () => `http://localhost:${P()}/v1` },
  { name: 'the same host on another port', kind: 'openai', url: () => `http://127.0.0.1:${P2()}/v1` },
  { name: 'another path prefix on the configured server', kind: 'openai', url: () => `http://127.0.0.1:${P()}/collect/v1` },
  { name: 'a path that climbs out of the configured one', kind: 'openai', url: () => `http://127.0.0.1:${P()}/v1/../collect` },
  { name: 'IPv6 loopback', kind: 'openai', url: () => `http://[::1]:${P()}/v1` },
  { name: 'IPv4-mapped IPv6 loopback', kind: 'openai', url: () => `http://[::ffff:127.0.0.1]:${P()}/v1` },
  { name: 'decimal loopback on another port', kind: 'openai', url: () => `http://2130706433:${P2()}/v1` },
  { name: 'hexadecimal loopback on another port', kind: 'openai', url: () => `http://0x7f000001:${P2()}/v1` },
  { name: 'plain http:// to a host that is not this machine', kind: 'openai', url: () => `http://threshold-exfil.invalid:${P2()}/v1` },
  { name: 'https:// on another host, Anthropic kind (where ANTHROPIC_API_KEY would go)', kind: 'anthropic', url: () => `https://threshold-exfil.invalid:${P2()}/v1` },
];
const refusedOutright: typeof attempts = [
  { name: 'user info naming the configured host before the real one', kind: 'openai', url: () => `http://127.0.0.1:${P()}@127.0.0.1:${P2()}/v1` },
  { name: 'a user name and password on the configured address', kind: 'openai', url: () => `http://user:pass@127.0.0.1:${P()}/v1` },
];

describe('the collectors can see a key (the control case)', () => {
  it('the configured endpoint receives the keychain key on a test of the provider in force', async () => {
    const r = await webCall('model.test');
    expect({ sent: r.value?.['key_sent'], seen: configured.keysSeen() }).toEqual({ sent: true, seen: [KEYCHAIN_KEY] });
  });
});

describe.each(Object.keys(surfaces) as (keyof typeof surfaces)[])('exfiltration from the %s surface', (surface) => {
  const call = surfaces[surface];

  it.each(attempts)('model.test with $name sends no key', async ({ kind, url }) => {
    const r = await call('model.test', { kind, base_url: url(), model: 'm' });
    expect({ ok: r.ok, sent: r.value?.['key_sent'], note: typeof r.value?.['key_note'], configured: configured.keysSeen(), other: other.keysSeen() }).toEqual({ ok: true, sent: false, note: 'string', configured: [], other: [] });
    // The web page is never offered the desktop's confirmation; the window is, and it was declined.
    expect(asked.length).toBe(surface === 'ipc' && !url().startsWith('http://threshold-exfil') ? 1 : 0);
  });

  it.each(attempts)('model.set with $name, then the agent’s next step, sends no key', async ({ kind, url }) => {
    const saved = await call('model.set', { kind, base_url: url(), model: 'm' });
    expect({ ok: saved.ok, applies: saved.value?.['key_applies'] }).toEqual({ ok: true, applies: false });
    await agentStep(call);
    expect({ configured: configured.keysSeen(), other: other.keysSeen() }).toEqual({ configured: [], other: [] });
  });

  it.each(refusedOutright)('model.test and model.set with $name are refused before anything is sent', async ({ kind, url }) => {
    const tested = await call('model.test', { kind, base_url: url(), model: 'm' });
    const saved = await call('model.set', { kind, base_url: url(), model: 'm' });
    expect({ tested: tested.value?.['key_sent'], testError: typeof tested.value?.['error'], saved: saved.error?.code, requests: configured.seen.length + other.seen.length }).toEqual({ tested: false, testError: 'string', saved: 'invalid_params', requests: 0 });
  });

  it('a redirect from the configured endpoint is not followed with the key', async () => {
    configured.redirectTo = `http://127.0.0.1:${P2()}/v1`;
    const r = await call('model.test');
    await agentStep(call);
    expect({ reached: r.value?.['reached'], error: String(r.value?.['error']).includes('redirect'), other: other.seen.length, configuredGotItsOwn: configured.keysSeen() }).toEqual({ reached: false, error: true, other: 0, configuredGotItsOwn: [KEYCHAIN_KEY] });
  });
});

describe('how a person does move a key', () => {
  it('the desktop window’s confirmation sends the key for one test, and the binding stays', async () => {
    confirmAnswer = true;
    const r = await ipcCall('model.test', { kind: 'openai', base_url: `http://127.0.0.1:${P2()}/v1`, model: 'm' });
    expect({ sent: r.value?.['key_sent'], other: other.keysSeen(), asked: asked.map((a) => [a.purpose, a.source, a.from.base_url, a.to.base_url]) }).toEqual({
      sent: true,
      other: [KEYCHAIN_KEY],
      asked: [['test', 'the OS keychain', base(), `http://127.0.0.1:${P2()}/v1`]],
    });
    other.seen.length = 0;
    confirmAnswer = false;
    await webCall('model.test', { kind: 'openai', base_url: `http://127.0.0.1:${P2()}/v1`, model: 'm' });
    expect(other.keysSeen()).toEqual([]);
  });

  it('confirming a save moves the keychain key: the new endpoint gets it, the old one no longer does (it keeps its own variable)', async () => {
    confirmAnswer = true;
    const saved = await ipcCall('model.set', { kind: 'openai', base_url: `http://127.0.0.1:${P2()}/v1`, model: 'm' });
    expect(saved.value?.['key_applies']).toBe(true);
    await agentStep(webCall);
    expect(other.keysSeen()).toEqual([KEYCHAIN_KEY]);
    confirmAnswer = false;
    await webCall('model.test', { kind: 'openai', base_url: base(), model: 'm' });
    // The config file names OPENAI_API_KEY for its own provider: that binding is the file's, not moved.
    expect(configured.keysSeen()).toEqual([OPENAI_KEY]);
  });

  it('a key entered again in the window is bound to the provider it shows', async () => {
    await ipcCall('model.set', { kind: 'anthropic', base_url: `http://127.0.0.1:${P2()}/v1`, model: 'm' });
    const stored = await ipcCall('settings.set_api_key', { key: NEW_KEY });
    expect(stored.ok).toBe(true);
    await agentStep(webCall);
    expect(other.keysSeen()).toEqual([NEW_KEY]);
  });

  it('the web page cannot store a key at all', async () => {
    const r = await webCall('settings.set_api_key', { key: NEW_KEY });
    expect(r.error?.code).toBe('unknown_operation');
  });
});
