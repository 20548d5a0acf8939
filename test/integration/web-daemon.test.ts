// `threshold serve --demo` in web mode, as a real process: the printed address signs a page in, the
// demo's card is decided over the WebSocket and `ctl history` shows it was decided from the web; the
// daemon restarted on the same --web-port accepts the page's cookie and still lists what is pending.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { spawnCli } from '../support/cli';
import { startDaemon, webUiOf, type Daemon, type WebUi } from '../support/daemon';

const running: Daemon[] = [];
afterAll(async () => {
  for (const d of running) if (d.child.exitCode === null) await d.kill('SIGTERM');
});

async function signIn(web: WebUi): Promise<string> {
  const r = await fetch(`${web.origin}/auth`, { method: 'POST', headers: { Authorization: `Bearer ${web.token}` } });
  expect(r.status).toBe(204);
  return r.headers.get('set-cookie')!.split(';')[0]!;
}

/** One socket: call(op, params) → result; events collected. */
async function socket(web: WebUi, cookie: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, { headers: { Cookie: cookie }, origin: web.origin });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_q, res) => reject(new Error(`refused: ${res.statusCode}`)));
  });
  let id = 0;
  const waiting = new Map<number, (r: unknown) => void>();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (typeof m.id === 'number') waiting.get(m.id)?.(m.result);
  });
  return {
    call: (op: string, params?: unknown) =>
      new Promise<{ ok: boolean; value?: unknown; error?: unknown }>((resolve) => {
        const n = ++id;
        waiting.set(n, resolve as (r: unknown) => void);
        ws.send(JSON.stringify({ id: n, op, ...(params === undefined ? {} : { params }) }));
      }),
    close: () => ws.close(),
  };
}

async function pendingOver(s: Awaited<ReturnType<typeof socket>>): Promise<{ id: string; hash: string; tool: string }> {
  for (let i = 0; i < 400; i++) {
    const r = (await s.call('approval.list_pending')) as { value: { id: string; hash: string; tool: string }[] };
    if (r.value.length) return r.value[0]!;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('no pending approval');
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('serve --demo in web mode', () => {
  it('decides the demo card from the web; ctl history says so; a restart on the same port keeps the cookie and the card', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'threshold-webd-')), 'data');
    const port = await freePort();
    const first = await startDaemon(dataDir, ['--demo', '--web-port', String(port)]);
    running.push(first);
    const web = await webUiOf(first);
    expect(web.port).toBe(port);
    const cookie = await signIn(web);
    const s = await socket(web, cookie);
    const card = await pendingOver(s);
    s.close();

    // Restarted with the card still pending: the same cookie signs the page in again.
    await first.kill('SIGTERM');
    const second = await startDaemon(dataDir, ['--demo', '--web-port', String(port)]);
    running.push(second);
    expect((await webUiOf(second)).token).toBe(web.token);
    const again = await socket(web, cookie);
    const still = await pendingOver(again);
    expect(still.id).toBe(card.id);
    expect(await again.call('approval.decide', { id: still.id, hash: still.hash, outcome: 'approve_once' })).toMatchObject({ ok: true, value: { decided_by: 'web' } });
    again.close();

    const history = JSON.parse((await spawnCli(['ctl', '--data-dir', dataDir, '--json', 'history'])).stdout) as { id: string; decided_by: string }[];
    expect(history.find((d) => d.id === card.id)).toMatchObject({ decided_by: 'web' });
  }, 120_000);

  it('starts no web server with --no-web', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'threshold-webd-')), 'data');
    const d = await startDaemon(dataDir, ['--no-agent', '--no-web']);
    running.push(d);
    await d.kill('SIGTERM');
    expect(d.log()).not.toContain('web UI');
  }, 60_000);
});
