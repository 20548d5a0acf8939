// Web mode's doors (token, Host, Origin) seen from outside, and a page that lives through a daemon
// restart: it reconnects and the card that was pending is still there, and deciding it in the browser
// is recorded as decided from the web.
import { request } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { spawnCli } from '../support/cli';
import { card, fixture, freePort, launch, startWeb, until, type Fixture, type WebDaemon } from './support';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let f: Fixture;
let web: WebDaemon;
let browser: Browser;
let port: number;

beforeAll(async () => {
  f = fixture(null);
  port = await freePort();
  [web, browser] = await Promise.all([startWeb(f, { demo: true, port }), launch()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (web?.daemon.child.exitCode === null) await web.daemon.kill('SIGTERM');
});

function http(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; setCookie: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [] });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens /ws with the given headers: 'open', or the HTTP status the upgrade was refused with. */
function upgrade(path: string, headers: Record<string, string>): Promise<string | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve('error'));
  });
}

async function cookie(): Promise<string> {
  const r = await http('/auth', { Authorization: `Bearer ${web.token}`, Origin: web.origin }, 'POST');
  expect(r.status).toEqual(204);
  return r.setCookie[0]!.split(';')[0]!;
}

describe('web mode refuses what does not carry the token, and foreign hosts', () => {
  it.each([
    ['no cookie and no token', () => '/ws', () => ({ Origin: web.origin })],
    ['the token in the query string (not accepted)', () => `/ws?token=${web.token}`, () => ({ Origin: web.origin })],
    ['a made-up cookie', () => '/ws', () => ({ Origin: web.origin, Cookie: 'threshold_web=forged' })],
  ])('the WebSocket is refused with %s', async (_name, path, headers) => {
    expect(await upgrade(path(), headers())).toEqual(expect.any(Number));
  });

  it('the WebSocket opens with the cookie the token was exchanged for (the control case)', async () => {
    expect(await upgrade('/ws', { Origin: web.origin, Cookie: await cookie() })).toEqual('open');
  });

  it.each([
    ['a foreign Host header (DNS rebinding)', () => ({ Host: `evil.example:${port}` })],
    ['a loopback Host on another port', () => ({ Host: `127.0.0.1:${port + 1}` })],
  ])('an HTTP request with %s is refused', async (_name, headers) => {
    expect((await http('/', headers())).status).toBeGreaterThanOrEqual(400);
  });

  it.each([
    ['a foreign Host', async () => ({ Host: `evil.example:${port}`, Origin: web.origin, Cookie: await cookie() })],
    ['a foreign Origin', async () => ({ Origin: 'http://evil.example', Cookie: await cookie() })],
  ])('the WebSocket is refused with %s even with a valid cookie', async (_name, headers) => {
    expect(await upgrade('/ws', await headers())).toEqual(expect.any(Number));
  });

  it('a wrong token is not exchanged for a cookie', async () => {
    expect(await http('/auth', { Authorization: 'Bearer not-the-token', Origin: web.origin }, 'POST')).toEqual({ status: expect.any(Number), setCookie: [] });
    expect((await http('/auth', { Authorization: 'Bearer not-the-token', Origin: web.origin }, 'POST')).status).toBeGreaterThanOrEqual(400);
  });

  it('a page opened without the token says how to get in and shows no data', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(web.origin + '/');
    await page.getByRole('status').filter({ hasText: 'Not signed in' }).waitFor();
    expect(await page.getByRole('region', { name: /^Approval request/ }).count()).toEqual(0);
    await ctx.close();
  });
});

describe('a page that lives through a daemon restart', () => {
  it('reconnects, the pending card is still there, and approving it is recorded as decided from the web', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(web.url);
    expect(page.url()).toEqual(`${web.origin}/`); // the token left the address bar
    const write = card(page, 'write_file');
    await write.waitFor({ timeout: 20_000 });
    await page.getByTestId('model-label').filter({ hasText: /^Model: Demo: scripted model$/ }).waitFor();

    await web.daemon.kill('SIGTERM');
    await page.getByRole('status').filter({ hasText: 'reconnecting' }).waitFor();
    web = await startWeb(f, { demo: true, port });
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 20_000 });
    await write.waitFor();
    await write.getByText('This approval is from an earlier run').waitFor();
    await write.getByRole('button', { name: 'Approve once', exact: true }).click();
    await until('the card to go', async () => (await write.count()) === 0);

    const history = await until('the decision in ctl history', async () => {
      const r = await spawnCli(['ctl', '--data-dir', f.dataDir, '--json', 'history'], { env: { HOME: f.home } });
      const list = JSON.parse(r.stdout || '[]') as { tool: string; outcome: string; decided_by: string }[];
      return list.find((d) => d.tool === 'write_file') ?? null;
    });
    expect({ outcome: history.outcome, decided_by: history.decided_by }).toEqual({ outcome: 'approve_once', decided_by: 'web' });
    await page.close();
  });
});
