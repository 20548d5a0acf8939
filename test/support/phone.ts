// A real runtime with web mode and the phone page on 127.0.0.2 (a loopback address standing in for the
// LAN one: tests never dial private ranges), and a client that trusts exactly the certificate it made.
import { readFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { checkServerIdentity } from 'node:tls';
import { join } from 'node:path';
import WebSocket from 'ws';
import { DEFAULT_CONFIG } from '../../main/config/load';
import { pathContextFor } from '../../main/config/runtime';
import { REMOTE_OFF, type RemoteConfig } from '../../main/config/remote-settings';
import { startRuntime, type Runtime } from '../../main/runtime/runtime';
import { ROOT } from './cli';

export const PHONE_ADDRESS = '127.0.0.2';

export interface PhoneBench {
  runtime: Runtime;
  workspace: string;
  dataDir: string;
  /** https://127.0.0.2:PORT */
  origin: string;
  host: string;
  cert: string;
  close(): Promise<void>;
}

export async function phoneBench(remote: Partial<RemoteConfig> = {}, opts: { rendererDir?: string; env?: NodeJS.ProcessEnv } = {}): Promise<PhoneBench> {
  const base = join(ROOT, '.test-tmp');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, 'phone-'));
  const home = join(root, 'home');
  const workspace = join(home, 'project');
  const dataDir = join(root, 'data');
  const bundle = opts.rendererDir ?? join(root, 'renderer');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(dataDir, { mode: 0o700 });
  if (!opts.rendererDir) {
    mkdirSync(bundle, { recursive: true });
    writeFileSync(join(bundle, 'index.html'), '<!doctype html><title>Threshold</title>');
  }
  const runtime = await startRuntime({
    dataDir,
    config: { ...DEFAULT_CONFIG, remote: { ...REMOTE_OFF, phone: { address: PHONE_ADDRESS, family: 4, port: 0 }, ...remote } },
    paths: pathContextFor(workspace, { HOME: home }, dataDir),
    version: '0.0.0-test',
    agent: null,
    control: false,
    web: { port: 0, rendererDir: bundle, approvers: true },
    env: opts.env ?? {},
    log: () => undefined,
  });
  const origin = runtime.web!.lanOrigin!;
  return { runtime, workspace, dataDir, origin, host: new URL(origin).host, cert: readFileSync(join(dataDir, 'keys', 'lan-cert.pem'), 'utf8'), close: () => runtime.dispose() };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request to the phone page, trusting only its own certificate; Host and Origin as given. */
export function phoneRequest(b: PhoneBench, path: string, o: { method?: string; host?: string; origin?: string; cookie?: string; body?: string; contentType?: string } = {}): Promise<Answer> {
  const url = new URL(b.origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: Number(url.port),
        path,
        method: o.method ?? 'GET',
        ca: b.cert,
        agent: false,
        // The certificate is checked for the address dialled, whatever Host the request claims.
        checkServerIdentity: (_host, cert) => checkServerIdentity(PHONE_ADDRESS, cert),
        headers: { Host: o.host ?? b.host, ...(o.origin ? { Origin: o.origin } : {}), ...(o.cookie ? { Cookie: o.cookie } : {}), ...(o.body !== undefined ? { 'Content-Type': o.contentType ?? 'application/json', 'Content-Length': String(Buffer.byteLength(o.body)) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

/** Pairs a device with a fresh code; returns its Cookie header value. */
export async function pairDevice(b: PhoneBench, name = 'Test phone'): Promise<{ cookie: string; id: string }> {
  const started = await b.runtime.handlers('desktop')['device.pair'](undefined);
  if (!started.ok) throw new Error(started.error.message);
  const r = await phoneRequest(b, '/pair', { method: 'POST', body: JSON.stringify({ code: started.value.code, name }) });
  if (r.status !== 204) throw new Error(`pairing failed: ${r.status} ${r.body}`);
  const cookie = String((r.headers['set-cookie'] as string[])[0]).split(';')[0]!;
  const id = b.runtime.devices!.list()[0]!.id;
  return { cookie, id };
}

/** A WebSocket to the phone page as a paired device; `call` sends one operation and waits for its answer. */
export async function phoneSocket(b: PhoneBench, cookie: string) {
  const ws = new WebSocket(`wss://${b.host}/ws`, { ca: b.cert, headers: { Cookie: cookie, Origin: b.origin } });
  const events: { name: string; payload: unknown }[] = [];
  const waiting = new Map<number, (r: unknown) => void>();
  let n = 0;
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as { id?: number; result?: unknown; event?: { name: string; payload: unknown } };
    if (m.event) events.push(m.event);
    else if (m.id) waiting.get(m.id)?.(m.result);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
  });
  return {
    ws,
    events,
    closed,
    call: (op: string, params?: unknown) =>
      new Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>((resolve) => {
        const id = ++n;
        waiting.set(id, resolve as (r: unknown) => void);
        ws.send(JSON.stringify({ id, op, params }));
      }),
  };
}
