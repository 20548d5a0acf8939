// Settings → Model, attention and grant suggestions in a real browser: a real daemon (web mode, real
// gate, store and jail), the fake provider as the model, Chromium with the notifications permission
// granted. The page's Notification constructor is wrapped (the OS is the outside boundary) so the test
// reads what a notification would say.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeProvider } from '../fake-provider/server';
import { axeProblems, closeChatRig, openChatRig, resetChatRig, card, messageBox, say, shot, until, type Fixture, type WebDaemon } from './support';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let fake: FakeProvider;
let f: Fixture;
let web: WebDaemon;
let browser: Browser;
let page: Page;

/** Records every notification the page makes (and still makes the real one). */
const SPY_NOTIFICATIONS = () => {
  const Real = window.Notification;
  const made: { title: string; body: string; tag: string; n: Notification }[] = [];
  class Recorded extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      made.push({ title, body: options?.body ?? '', tag: options?.tag ?? '', n: this });
    }
  }
  Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
  Object.defineProperty(Recorded, 'requestPermission', { value: (...a: []) => Real.requestPermission(...a) });
  (window as unknown as { Notification: typeof Notification }).Notification = Recorded as typeof Notification;
  (window as unknown as { notices: typeof made }).notices = made;
  (window as unknown as { realHasFocus: () => boolean }).realHasFocus = Document.prototype.hasFocus;
};

beforeAll(async () => {
  ({ fake, f, web, browser, page } = await openChatRig({ context: { viewport: { width: 1280, height: 1200 }, permissions: ['notifications'] }, initScript: SPY_NOTIFICATIONS }));
}, 60_000);

afterAll(() => closeChatRig({ fake, web, browser }));

afterEach(async () => {
  await page.evaluate(() => void (Document.prototype.hasFocus = (window as unknown as { realHasFocus: () => boolean }).realHasFocus)).catch(() => undefined);
  await resetChatRig({ fake, f });
});

async function goChat(): Promise<void> {
  await page.getByRole('button', { name: /^Chat/ }).click();
}

async function notices(): Promise<{ title: string; body: string; tag: string }[]> {
  return page.evaluate(() => (window as unknown as { notices: { title: string; body: string; tag: string }[] }).notices.map(({ title, body, tag }) => ({ title, body, tag })));
}

/** Makes the page believe nobody looks at it (another app in front), as the browser would report. */
async function lookAway(): Promise<void> {
  await page.evaluate(() => {
    Document.prototype.hasFocus = () => false;
  });
}

describe('Settings → Model in the browser', () => {
  it('shows the provider from the config file, tests the connection for real, reports the provider\'s error, and never asks the browser for a key', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Model' }).click();
    const main = page.getByRole('region', { name: 'Model', exact: true });
    await main.getByTestId('model-in-use').filter({ hasText: `In use: OpenAI-compatible server at ${fake.url}/v1 (fake-model), from the config file.` }).waitFor();
    expect({ kind: await main.getByLabel('Provider kind').inputValue(), url: await main.getByLabel('Base URL').inputValue(), model: await main.getByLabel('Model', { exact: true }).inputValue(), keyInputs: await page.locator('input[type=password]').count() }).toEqual({ kind: 'openai-compatible', url: `${fake.url}/v1`, model: 'fake-model', keyInputs: 0 });

    fake.clear();
    fake.enqueue({ text: 'ready' });
    const before = fake.requests.length;
    await main.getByRole('button', { name: 'Test connection' }).click();
    const result = main.getByTestId('model-test-result');
    await result.waitFor();
    expect(await result.textContent()).toMatch(new RegExp(`^Connected in \\d+ ms\\. OpenAI-compatible server at ${fake.url.replace(/\./g, '\\.')}/v1 \\(fake-model\\) answered: “ready”$`));
    expect({ requests: fake.requests.length - before, path: fake.requests.at(-1)?.path }).toEqual({ requests: 1, path: '/v1/chat/completions' });
    await shot(page, 'settings-model', 'settings-model');
    expect(await axeProblems(page)).toEqual([]);

    fake.enqueue({ http: { status: 401, body: { error: { message: 'Incorrect API key provided.' } } } });
    await main.getByRole('button', { name: 'Test connection' }).click();
    await result.filter({ hasText: 'The test failed' }).waitFor();
    expect(await result.textContent()).toMatch(new RegExp(`^The test failed after \\d+ ms: HTTP 401 from ${fake.url.replace(/\./g, '\\.')}/v1: Incorrect API key provided\\.$`));

    // Saved as Anthropic (the fake speaks its wire format too): the page names the variable to set.
    await main.getByLabel('Provider kind').selectOption('anthropic');
    await main.getByRole('button', { name: 'Save' }).click();
    await main.getByTestId('model-in-use').filter({ hasText: 'In use: Anthropic fake-model, saved on this page' }).waitFor();
    expect({ advice: await main.getByTestId('key-advice').textContent(), source: await main.getByTestId('key-source').textContent(), header: await page.getByTestId('model-label').textContent() }).toEqual({
      advice: 'This page never takes an API key. Set the environment variable ANTHROPIC_API_KEY for threshold serve (for example in the shell that starts it) and restart it.',
      source: 'No key is set: neither the OS keychain nor the environment variable ANTHROPIC_API_KEY holds one.',
      header: 'Model: Anthropic fake-model',
    });
    expect(await main.getByTestId('model-test-result').count()).toEqual(0);
    expect(await axeProblems(page)).toEqual([]);

    // Back to the server the other tests script.
    await main.getByLabel('Provider kind').selectOption('openai-compatible');
    await main.getByRole('button', { name: 'Save' }).click();
    await main.getByTestId('model-in-use').filter({ hasText: `In use: OpenAI-compatible server at ${fake.url}/v1 (fake-model), saved on this page` }).waitFor();
  });
});

describe('attention in the browser', () => {
  it('a card that waits while nobody looks: the title and favicon count it, a notification names tool, class and session only, the live region says it without moving focus, and clicking the notification shows the card', async () => {
    const command = 'touch attention-e2e.txt';
    fake.clear();
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command } }] }, { text: 'Touched.' });
    await goChat();
    await page.getByRole('button', { name: 'New chat' }).click();
    await lookAway();
    await say(page, 'touch the attention file');
    const c = card(page, 'run_command');
    await c.waitFor();
    await until('the notification', async () => (await notices()).length > 0);
    const state = await page.evaluate(() => ({ title: document.title, favicon: document.querySelector<HTMLLinkElement>('link#favicon')?.href ?? '', focus: document.activeElement?.id, said: (document.querySelector('[data-testid=announcer]')?.textContent ?? '').trim() }));
    const sessionId = (await notices())[0]!.body.split('session ')[1]!;
    expect({ ...state, favicon: state.favicon.startsWith('data:image/svg+xml,') && decodeURIComponent(state.favicon).includes('>1</text>'), notices: await notices() }).toEqual({
      title: '(1) Threshold: 1 approval waits',
      favicon: true,
      focus: 'message-box',
      said: `Approval needed: run_command, class Write, session ${sessionId}. 1 approval waits, above the message box.`,
      notices: [{ title: 'Threshold: approval needed', body: `run_command · class Write · session ${sessionId}`, tag: expect.stringMatching(/^approval-/) }],
    });
    expect(sessionId).toMatch(/^s_\w+$/);
    expect(JSON.stringify(await notices())).not.toContain('attention-e2e');

    // Elsewhere in the app, a click on the notification comes back to the card and focuses it.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Grants' }).click();
    await page.evaluate(() => (window as unknown as { notices: { n: Notification }[] }).notices[0]!.n.dispatchEvent(new Event('click')));
    await until('the card to take focus', () => page.evaluate(() => document.activeElement?.getAttribute('data-approval-id') ?? null));
    expect(await c.isVisible()).toEqual(true);
    expect(await axeProblems(page)).toEqual([]);

    await c.getByRole('button', { name: 'Approve once', exact: true }).click();
    await until('the title to clear', async () => (await page.title()) === 'Threshold');
    expect(await page.getByTestId('announcer').textContent()).toMatch(/^run_command approved once by /);
  });

  it('a card that arrives while the page is looked at raises no notification, and is still announced', async () => {
    fake.clear();
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch watched.txt' } }] }, { text: 'Done.' });
    await goChat();
    await messageBox(page).focus();
    const before = (await notices()).length;
    await page.evaluate(() => {
      Document.prototype.hasFocus = () => true;
    });
    await say(page, 'touch the watched file');
    await card(page, 'run_command').waitFor();
    await page.getByTestId('announcer').filter({ hasText: 'Approval needed: run_command' }).waitFor();
    expect({ notices: (await notices()).length - before, focus: await page.evaluate(() => document.activeElement?.id) }).toEqual({ notices: 0, focus: 'message-box' });
  });
});

describe('grant suggestions in the browser', () => {
  it('after three identical approvals the card suggests a grant; Settings → Grants lists it with its coverage and Always allow makes it', async () => {
    const command = 'touch suggest-e2e.txt';
    const call = { name: 'run_command', args: { command } };
    await goChat();
    await page.getByRole('button', { name: 'New chat' }).click();
    for (let i = 1; i <= 3; i++) {
      fake.clear();
      fake.enqueue({ toolCalls: [call] }, { text: `Touched ${i}.` });
      await say(page, `touch it (${i})`);
      const c = card(page, 'run_command');
      // Before the third approval the card asks nothing more.
      expect(await c.getByRole('group', { name: 'Suggestion' }).count()).toEqual(0);
      await c.getByRole('button', { name: 'Approve once', exact: true }).click();
      await page.getByRole('log', { name: 'Conversation' }).getByText(`Touched ${i}.`).waitFor();
    }
    fake.clear();
    fake.enqueue({ toolCalls: [call] }, { text: 'Touched 4.' });
    await say(page, 'touch it (4)');
    const suggestion = card(page, 'run_command').getByRole('group', { name: 'Suggestion' });
    await suggestion.waitFor();
    expect(await suggestion.locator('p').textContent()).toEqual('You approved this call 3 times before in this workspace. Always allow exactly touch suggest-e2e.txt?');
    await shot(card(page, 'run_command'), 'approval-card-suggestion');
    expect(await axeProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Grants' }).click();
    const item = page.getByTestId('suggestion').filter({ hasText: command });
    await item.waitFor();
    expect(await item.locator('p').first().textContent()).toEqual('You approved touch suggest-e2e.txt 3 times in this workspace. Always allow exactly touch suggest-e2e.txt?');
    // The coverage preview is the gate's own: the call is covered, a substitution never is.
    await item.locator('li.sample[data-verdict="covered"] code').getByText(command, { exact: true }).waitFor();
    expect(await item.locator('li.sample[data-verdict="never"] code').getByText(`${command} $(cat ~/.ssh/id_ed25519)`, { exact: true }).count()).toEqual(1);
    await shot(page, 'settings-grants-suggestion', 'settings-grants-suggestion');
    expect(await axeProblems(page)).toEqual([]);

    await item.getByRole('button', { name: `Always allow exactly ${command}` }).click();
    await page.getByRole('status').filter({ hasText: `Granted: exactly ${command} runs without asking until you revoke it.` }).waitFor();
    const row = page.getByRole('row').filter({ hasText: command });
    expect({ scope: await row.getByRole('cell').nth(2).textContent(), note: await row.locator('.grant-note').textContent(), left: await page.getByTestId('suggestion').count() }).toEqual({ scope: 'Until revoked', note: 'Suggested: approved 3 times', left: 0 });

    // The next identical call runs unasked.
    await goChat();
    await card(page, 'run_command').getByRole('button', { name: 'Approve once', exact: true }).click();
    await page.getByRole('log', { name: 'Conversation' }).getByText('Touched 4.').waitFor();
    fake.clear();
    fake.enqueue({ toolCalls: [call] }, { text: 'Touched 5, unasked.' });
    await say(page, 'touch it (5)');
    await page.getByRole('log', { name: 'Conversation' }).getByText('Touched 5, unasked.').waitFor();
    expect(await card(page, 'run_command').count()).toEqual(0);
  });
});
