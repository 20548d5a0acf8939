// Settings → Devices with chat bridges, in Chromium: each bridge's chat, state and token source (never
// the token), "Send a test card" reaching the fake Bot API and the fake homeserver, and a failing service
// shown in its own words through the escaping rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureRendererBundle } from '../../main/web/bundle';
import { TEST_MESSAGE } from '../../main/remote/service';
import { FakeMatrix } from '../fake-remote/matrix';
import { FakeTelegram } from '../fake-remote/telegram';
import { phoneBench, type PhoneBench } from '../support/phone';
import { launch, shot, until } from './support';

let b: PhoneBench;
let tg: FakeTelegram;
let mx: FakeMatrix;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  tg = await FakeTelegram.start();
  mx = await FakeMatrix.start();
  const rendererDir = await ensureRendererBundle({ log: () => undefined });
  b = await phoneBench(
    { pollSeconds: 1, telegram: { apiBase: tg.base, botTokenEnv: 'TG_TOKEN', chatId: 4242 }, matrix: { homeserver: mx.base, accessTokenEnv: 'MX_TOKEN', roomId: '!room:example.org', userId: '@me:example.org' } },
    { rendererDir, env: { TG_TOKEN: tg.token, MX_TOKEN: mx.token } },
  );
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
  await page.goto(b.runtime.web!.url);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Devices' }).click();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await b?.close();
  await tg?.close();
  await mx?.close();
});

describe('Settings → Devices: the chat bridges', () => {
  it.each([
    { bridge: 'telegram', name: 'Telegram', audience: '4242', env: 'TG_TOKEN', arrived: () => tg.messages.find((m) => m.text === TEST_MESSAGE && m.keyboard.length === 0) },
    { bridge: 'matrix', name: 'Matrix', audience: '!room:example.org', env: 'MX_TOKEN', arrived: () => mx.cards().find((e) => e.content['body'] === TEST_MESSAGE) },
  ])('$name: its chat and token source are shown, and "Send a test card" arrives with nothing to decide', async (c) => {
    const row = page.getByTestId(`bridge-${c.bridge}`);
    await row.getByText(`The token comes from the environment variable ${c.env}.`.replace('The token', 'Its token')).waitFor();
    await row.getByRole('button', { name: `Send a test card to ${c.name}` }).click();
    await row.getByText(`Sent. Look for it in ${c.name}.`).waitFor();
    const text = (await row.textContent()) ?? '';
    expect({ arrived: !!c.arrived(), audience: text.includes(c.audience), token: text.includes(tg.token) || text.includes(mx.token) }).toEqual({ arrived: true, audience: true, token: false });
  }, 60_000);

  it('a service that fails is shown as failing, in its own words, escaped; the test card says it did not arrive', async () => {
    tg.down = true;
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Devices' }).click();
    const row = page.getByTestId('bridge-telegram');
    await until('the failing state', async () => {
      await page.getByRole('tab', { name: 'Grants' }).click();
      await page.getByRole('tab', { name: 'Devices' }).click();
      return /Cannot reach the service/.test((await row.textContent()) ?? '');
    }, 30_000);
    await row.getByRole('button', { name: 'Send a test card to Telegram' }).click();
    await row.getByText(/The test message did not arrive/).waitFor();
    await shot(page, 'devices-bridges');
    tg.down = false;
  }, 60_000);

  it('sets a new Telegram chat on the page: it applies at once, and the test card goes there; the browser cannot move the Matrix homeserver', async () => {
    await page.getByLabel('Telegram chat id (the only chat whose presses count)').fill('5555');
    await page.getByRole('button', { name: 'Save the Telegram chat' }).click();
    await page.getByText('Saved: cards go to this chat from now on.').waitFor();
    const row = page.getByTestId('bridge-telegram');
    await row.getByText('5555').waitFor();
    await row.getByRole('button', { name: 'Send a test card to Telegram' }).click();
    await row.getByText('Sent. Look for it in Telegram.').waitFor();
    await page.getByLabel('Matrix homeserver').fill('https://matrix.evil.example');
    await page.getByRole('button', { name: 'Save the Matrix room' }).click();
    await page.getByText(/goes only to the endpoint it was configured for/).waitFor();
    await shot(page, 'devices-bridges-configure');
    expect(tg.messages.filter((m) => m.text === TEST_MESSAGE).map((m) => m.chat_id)).toContain(5555);
  }, 60_000);
});
