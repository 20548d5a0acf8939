// "Approve all for this session" in a real browser against a real daemon: it asks once more, in words
// that name what stays gated, and no key turns it on (Enter, Ctrl+Enter); once on, it is a banner in its
// session's chat with End and a session grant in Settings → Grants with Revoke; ending it in one window
// ends it in every window, is audited, and the next call of the session asks again.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ControlClient } from '../../main/control/client';
import type { FakeProvider } from '../fake-provider/server';
import { spawnCli } from '../support/cli';
import { axeProblems, card, closeChatRig, openChatRig, say, shot, until, type Fixture, type WebDaemon } from './support';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let fake: FakeProvider;
let f: Fixture;
let web: WebDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => void ({ fake, f, web, browser, page } = await openChatRig()), 60_000);
afterAll(() => closeChatRig({ fake, web, browser }));

const dialog = () => page.getByRole('alertdialog', { name: /^Approve everything in session/ });
const banner = (p: Page = page) => p.getByRole('region', { name: 'Approve all is on' });

async function endedAudit(): Promise<{ ended_by: string }[]> {
  const c = await ControlClient.connect(join(f.dataDir, 'control.sock'));
  try {
    return (await c.call<{ data: { ended_by: string } }[]>('audit.list', { kind: 'approve_all.ended' })).map((e) => e.data);
  } finally {
    c.close();
  }
}

async function ctl(...args: string[]): Promise<string> {
  return (await spawnCli(['ctl', '--data-dir', f.dataDir, ...args], { env: { HOME: f.home } })).stdout.trim();
}

describe('approve all, visible and deliberate', () => {
  it('asks once more, naming what stays gated; Enter, Ctrl+Enter and Escape never turn it on, and nothing runs meanwhile', async () => {
    fake.clear();
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
      { toolCalls: [{ name: 'run_command', args: { command: 'touch b.txt' } }] },
      { text: 'Both written.' },
    );
    await page.getByRole('button', { name: 'New chat' }).click();
    await say(page, 'Write a.txt, then touch b.txt');
    const write = card(page, 'write_file');
    await write.waitFor();
    await page.waitForTimeout(500);
    await write.getByRole('button', { name: 'Approve all for this session' }).click();
    await dialog().waitFor();
    const words = (await dialog().textContent()) ?? '';
    expect({
      stillAsks: ['destructive commands', 'reading secrets and credentials', "changes to Threshold's own settings", "the agent's questions to you", 'outside the sandbox'].filter((w) => !words.includes(w)),
      refused: words.includes('Still refused:'),
      howToEnd: words.includes('End on the banner in this chat, Revoke in Settings → Grants'),
      focus: await page.evaluate(() => document.activeElement?.textContent),
    }).toEqual({ stillAsks: [], refused: true, howToEnd: true, focus: 'Keep asking' });
    expect(await axeProblems(page)).toEqual([]);
    await shot(page, 'approve-all-confirm', 'approve-all-confirm');

    await page.waitForTimeout(700);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toEqual('Approve all in this session');
    await page.keyboard.press('Enter');
    await dialog().getByRole('alert').filter({ hasText: 'Enter does not turn approve all on' }).waitFor();
    await page.keyboard.press('Control+Enter');
    await page.waitForTimeout(300);
    expect({ dialog: await dialog().count(), card: await write.count(), file: existsSync(join(f.workspace, 'a.txt')), listed: await ctl('approve-all') }).toEqual({ dialog: 1, card: 1, file: false, listed: 'No session is in approve-all mode.' });
    await page.keyboard.press('Escape');
    expect({ dialog: await dialog().count(), card: await write.count(), banner: await banner().count() }).toEqual({ dialog: 0, card: 1, banner: 0 });
  });

  it('confirmed with a click: this call and the next run unasked, and the chat shows a banner with End', async () => {
    const write = card(page, 'write_file');
    await write.getByRole('button', { name: 'Approve all for this session' }).click();
    await page.waitForTimeout(700);
    await dialog().getByRole('button', { name: 'Approve all in this session' }).click();
    await page.getByRole('log', { name: 'Conversation' }).getByText('Both written.').waitFor();
    await banner().getByText(/\(1 call so far\)/).waitFor();
    expect({ a: existsSync(join(f.workspace, 'a.txt')), b: existsSync(join(f.workspace, 'b.txt')), end: await banner().getByRole('button', { name: 'End approve all' }).count() }).toEqual({ a: true, b: true, end: 1 });
    await shot(page, 'approve-all-banner', 'approve-all-banner');
  });

  it('Settings → Grants lists it as a session grant; Revoke there ends it in every window (audited), and the next call asks again', async () => {
    const other = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await other.goto(web.url);
    await banner(other).waitFor();

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Grants' }).click();
    const revoke = page.getByRole('button', { name: /^Revoke approve all in session/ });
    await revoke.waitFor();
    expect(await page.locator('tr.approve-all td').first().textContent()).toEqual('Every tool');
    await shot(page, 'approve-all-grants');
    await revoke.click();
    await revoke.waitFor({ state: 'detached' });
    await banner(other).waitFor({ state: 'detached' });
    expect({ audit: await endedAudit(), listed: await ctl('approve-all') }).toEqual({ audit: [{ ended_by: 'web', since: expect.any(Number), approved_meanwhile: 1 }], listed: 'No session is in approve-all mode.' });
    await other.close();

    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch c.txt' } }] }, { text: 'c done.' });
    await page.getByRole('button', { name: /^Chat/ }).click();
    await say(page, 'Touch c.txt too');
    const run = card(page, 'run_command');
    await run.waitFor();
    expect(existsSync(join(f.workspace, 'c.txt'))).toBe(false);
  });

  it("End on the banner ends it too, and ctl lists it while it is on", async () => {
    const run = card(page, 'run_command');
    await page.waitForTimeout(500);
    await run.getByRole('button', { name: 'Approve all for this session' }).click();
    await page.waitForTimeout(700);
    await dialog().getByRole('button', { name: 'Approve all in this session' }).click();
    await banner().waitFor();
    await until('ctl to list it', async () => (await ctl('approve-all')).includes('run_command'));
    await banner().getByRole('button', { name: 'End approve all' }).click();
    await banner().waitFor({ state: 'detached' });
    expect({ audit: (await endedAudit()).length, listed: await ctl('approve-all') }).toEqual({ audit: 2, listed: 'No session is in approve-all mode.' });
  });
});

describe('approve for session, the other session grant', () => {
  it('is listed in Settings → Grants for its exact call; Revoke there makes the identical call ask again (audited)', async () => {
    const touch = { name: 'run_command', args: { command: 'touch same.txt' } };
    fake.enqueue({ toolCalls: [touch] }, { text: 'Touched.' }, { toolCalls: [touch] }, { text: 'Touched again, unasked.' }, { toolCalls: [touch] }, { text: 'Asked again.' });
    await page.getByRole('button', { name: /^Chat/ }).click();
    await page.getByRole('button', { name: 'New chat' }).click();
    await say(page, 'Touch same.txt');
    await card(page, 'run_command').waitFor();
    // Decided over the control API: what is tested here is what the decision leaves behind.
    const c = await ControlClient.connect(join(f.dataDir, 'control.sock'));
    try {
      const [p] = await c.call<{ id: string; hash: string }[]>('approval.list_pending');
      await c.call('approval.decide', { id: p!.id, hash: p!.hash, outcome: 'approve_session' });
    } finally {
      c.close();
    }
    const conversation = page.getByRole('log', { name: 'Conversation' });
    await conversation.getByText('Touched.').waitFor();
    await say(page, 'Again');
    await conversation.getByText('Touched again, unasked.').waitFor();

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Grants' }).click();
    const revoke = page.getByRole('button', { name: 'Revoke approval for session of Run touch same.txt' });
    await revoke.waitFor();
    expect(await page.locator('tr.session-approval td').nth(6).textContent()).toEqual('1');
    await revoke.click();
    await revoke.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: /^Chat/ }).click();
    await say(page, 'Once more');
    await card(page, 'run_command').waitFor();
    const audit = await ControlClient.connect(join(f.dataDir, 'control.sock'));
    try {
      expect((await audit.call<{ data: unknown }[]>('audit.list', { kind: 'approval.session_revoked' })).map((e) => e.data)).toEqual([{ revoked_by: 'web', tool: 'run_command' }]);
    } finally {
      audit.close();
    }
  });
});
