// A bad day, end to end: the daemon is killed (-9) while a card waits, and started again the ordinary
// way (no --web-port). The page left open must not pretend (no decision, no running countdown), must say
// what to open when it cannot reach the daemon, and must find it again on the same address by itself.
// After the restart the chat, History and the card name the same state for the same call, a refused
// call reads refused, and the message Threshold sends the model is shown as Threshold's. A page whose
// token is no longer valid says exactly that, and keeps what was typed.
import { createServer, type Server } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnCli } from '../support/cli';
import { card, fixture, launch, shot, startWeb, until, type Fixture, type WebDaemon } from './support';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let f: Fixture;
let web: WebDaemon;
let browser: Browser;
let page: Page;
const blockers: Server[] = [];

beforeAll(async () => {
  f = fixture(null);
  [web, browser] = await Promise.all([startWeb(f, { demo: true }), launch()]);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
  await page.goto(web.url);
  await card(page, 'write_file').waitFor({ timeout: 30_000 });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  for (const b of blockers) b.close();
  if (web?.daemon.child.exitCode === null) await web.daemon.kill('SIGTERM');
});

const row = (tool: string) => page.locator(`li.tool-call[data-tool="${tool}"]`);
const rowState = (tool: string, n = 0) => row(tool).nth(n).locator('.tool-state').textContent();
const connection = () => page.locator('header [role="status"]');
/** The History row of the latest call of a tool, as History reads it. */
async function historyState(tool: string): Promise<string | null> {
  await page.getByRole('button', { name: 'History', exact: true }).click();
  await page.getByRole('button', { name: 'Refresh' }).click();
  const r = page.locator('li.call-row[data-call-id]').filter({ has: page.locator('.c-tool', { hasText: new RegExp(`^${tool}$`) }) }).first();
  await r.waitFor();
  const text = await r.locator('.c-outcome').textContent();
  await page.getByRole('button', { name: /^Chat/ }).click();
  return text;
}

async function ctl(...args: string[]): Promise<string> {
  return (await spawnCli(['ctl', '--data-dir', f.dataDir, ...args], { env: { HOME: f.home } })).stdout;
}

describe('a page that outlives its daemon tells the truth and finds it again', () => {
  it('killed mid-approval: the open card cannot be decided and shows no countdown, and the page says what to open', async () => {
    await page.getByRole('textbox', { name: 'Message' }).fill('a message typed before the crash');
    await web.daemon.kill('SIGKILL');
    await connection().filter({ hasText: 'Connection lost: reconnecting…' }).waitFor();
    const write = card(page, 'write_file');
    await write.getByText(/^Cannot be decided right now: Threshold is not reachable/).waitFor();
    expect({
      deny: await write.getByRole('button', { name: 'Deny' }).isDisabled(),
      skip: await write.getByRole('button', { name: 'Skip' }).isDisabled(),
      approve: await write.getByRole('button', { name: 'Approve once', exact: true }).isDisabled(),
      time: await write.locator('.time-left').textContent(),
    }).toEqual({ deny: true, skip: true, approve: true, time: 'Time left unknown while disconnected' });
    // Keys do not decide it either (the slice refuses before sending anything).
    await write.focus();
    await page.keyboard.press('n');
    expect(await card(page, 'write_file').count()).toEqual(1);
    // After a while: not "reconnecting" forever, but what to open.
    await connection().filter({ hasText: 'Not connected' }).waitFor({ timeout: 20_000 });
    await page.getByRole('alert').filter({ hasText: 'threshold ctl web' }).waitFor();
    await shot(page, 'restart-lost', 'restart-lost');
  });

  it('started again without --web-port: same address, the page reconnects by itself, and the call waits in the chat, History and the card alike', async () => {
    const before = web.port;
    web = await startWeb(f, { demo: true });
    expect(web.port).toEqual(before);
    await connection().filter({ hasText: 'Connected' }).waitFor({ timeout: 30_000 });
    const write = card(page, 'write_file');
    await write.getByText('This approval is from an earlier run').waitFor();
    // The row was "classifying" when the daemon died; now it says what the card says.
    await until('the row to read the stored state', async () => (await rowState('write_file')) === 'waiting for you');
    expect({ history: await historyState('write_file'), draft: await page.getByRole('textbox', { name: 'Message' }).inputValue() }).toEqual({ history: 'Waiting for you', draft: 'a message typed before the crash' });
  });

  it("after a reload the same: the row above the card does not say failed, and Threshold's message to the model is Threshold's, not the user's", async () => {
    await page.reload();
    const write = card(page, 'write_file');
    await write.waitFor();
    expect(await rowState('write_file')).toEqual('waiting for you');
    await page.waitForTimeout(500);
    await write.getByRole('button', { name: 'Approve once', exact: true }).click();
    const conversation = page.getByRole('log', { name: 'Conversation' });
    const product = conversation.locator('li.message').filter({ hasText: 'While Threshold was restarting' });
    await product.waitFor({ timeout: 20_000 });
    expect({ who: await product.locator('.who').textContent(), you: await conversation.locator('li.message.user').filter({ hasText: 'While Threshold was restarting' }).count() }).toEqual({ who: 'Threshold → agent', you: 0 });
    // The approved orphan never ran itself (its follow-up did): the first row says so, the second ran.
    await until('the follow-up write to run', async () => (await row('write_file').count()) === 2 && (await rowState('write_file', 1)) === 'done');
    expect(await rowState('write_file', 0)).toEqual('not run');
  });

  it('a call the person skips reads refused in the chat and History, before and after a reload (never failed)', async () => {
    const run = card(page, 'run_command');
    await run.waitFor({ timeout: 20_000 });
    await page.waitForTimeout(500);
    await run.getByRole('button', { name: 'Skip' }).click();
    await until('the skipped row to settle', async () => (await rowState('run_command', 1)) === 'refused');
    await page.reload();
    await row('run_command').nth(1).waitFor();
    expect({ chat: await rowState('run_command', 1), history: await historyState('run_command') }).toEqual({ chat: 'refused', history: 'Refused' });
  });

  it('when its port is taken, a restart picks another, says so, and keeps the web UI line as it is', async () => {
    const taken = web.port;
    await web.daemon.kill('SIGTERM');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(taken, '127.0.0.1', r));
    blockers.push(blocker);
    web = await startWeb(f, { demo: true });
    const log = web.daemon.log();
    expect({
      moved: web.port !== taken,
      said: log.includes(`web: port ${taken}, where this data directory's web UI was, is taken by another program; it moved to port ${web.port}.`),
      line: new RegExp(`^threshold: web UI: http://127\\.0\\.0\\.1:${web.port}/#token=[A-Za-z0-9_-]{43}$`, 'm').test(log),
      ctl: (await ctl('web')).trim(),
    }).toEqual({ moved: true, said: true, line: true, ctl: web.url });
    // The new port is the data directory's from now on.
    await web.daemon.kill('SIGTERM');
    web = await startWeb(f, { demo: true });
    expect(web.daemon.log()).not.toContain('is taken by another program');
    expect(web.port).not.toEqual(taken);
  });

  it('a page whose token is no longer valid says exactly that and how to get the address, keeps what was typed, and signs in with the new address', async () => {
    await page.goto(web.url);
    await connection().filter({ hasText: 'Connected' }).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('typed before the token changed');
    // A new token: the page's cookie no longer opens anything.
    await web.daemon.kill('SIGTERM');
    rmSync(join(f.dataDir, 'web-token'));
    web = await startWeb(f, { demo: true });
    const notice = page.getByRole('alertdialog', { name: 'This page is not signed in to Threshold' });
    await notice.waitFor({ timeout: 30_000 });
    expect({
      how: (await notice.textContent())?.includes('threshold ctl web'),
      line: (await notice.textContent())?.includes(`threshold: web UI: http://127.0.0.1:${web.port}/#token=…`),
      inert: await page.locator('.app').evaluate((el) => (el as HTMLElement).inert),
      draft: await page.getByRole('textbox', { name: 'Message' }).inputValue(),
    }).toEqual({ how: true, line: true, inert: true, draft: 'typed before the token changed' });
    await shot(page, 'not-signed-in', 'not-signed-in');
    // The address ctl prints, opened in this tab: signed in, and the draft is still there.
    await page.goto((await ctl('web')).trim());
    await connection().filter({ hasText: 'Connected' }).waitFor();
    expect({ notice: await notice.count(), draft: await page.getByRole('textbox', { name: 'Message' }).inputValue() }).toEqual({ notice: 0, draft: 'typed before the token changed' });
  });

  it('a page opened without any token shows the notice, not a usable-looking app, and sends nothing', async () => {
    const p = await (await browser.newContext()).newPage();
    await p.goto(`${web.origin}/`);
    await p.getByRole('alertdialog', { name: 'This page is not signed in to Threshold' }).waitFor();
    expect(await p.locator('.app').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
    await p.close();
  });
});
