// Settings → Model in a real browser when the page asks for another provider than the one the key is
// kept for: the test goes out without the key and the page says so, and after saving the page says where
// the key is kept. The fake provider (the outside boundary) records what it was sent.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeProvider } from '../fake-provider/server';
import { startDaemon, webUiOf, type Daemon } from '../support/daemon';
import { axeProblems, fixture, launch, shot, type Fixture } from './support';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 90_000 });

const OPENAI_KEY = 'sk-openai-e2e-0123456789abcdef';
const ANTHROPIC_KEY = 'sk-ant-e2e-0123456789abcdef';
let fake: FakeProvider;
let f: Fixture;
let daemon: Daemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fake = await FakeProvider.start();
  f = fixture(null);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(f.config, `[provider]\nkind = "openai"\nbase_url = "${fake.url}/v1"\nmodel = "fake-model"\napi_key_env = "OPENAI_API_KEY"\n`);
  [daemon, browser] = await Promise.all([
    startDaemon(f.dataDir, ['--config', f.config, '--workspace', f.workspace], { HOME: f.home, THRESHOLD_CONFIG_DIR: join(f.home, '.config', 'threshold'), OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY }),
    launch(),
  ]);
  const web = await webUiOf(daemon);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
  await page.goto(web.url);
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  if (daemon?.child.exitCode === null) await daemon.kill('SIGTERM');
  await fake?.close();
});

const keysIn = (from: number) => fake.requests.slice(from).filter((r) => JSON.stringify(r.headers).includes(OPENAI_KEY) || JSON.stringify(r.headers).includes(ANTHROPIC_KEY)).length;

describe('a key stays with its endpoint, as the page shows it', () => {
  it('the configured provider gets its key; another kind at the same address is tested without it, and the page says where the key is kept', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Model' }).click();
    const main = page.getByRole('region', { name: 'Model', exact: true });
    await main.getByTestId('model-in-use').filter({ hasText: 'In use: OpenAI fake-model, from the config file.' }).waitFor();

    fake.enqueue({ text: 'ready' });
    let before = fake.requests.length;
    await main.getByRole('button', { name: 'Test connection' }).click();
    await main.getByTestId('model-test-result').filter({ hasText: 'Connected' }).waitFor();
    expect({ keys: keysIn(before), auth: fake.requests.at(-1)?.headers['authorization'], note: await main.getByTestId('model-test-key').count() }).toEqual({ keys: 1, auth: `Bearer ${OPENAI_KEY}`, note: 0 });

    await main.getByLabel('Provider kind').selectOption('anthropic');
    fake.enqueue({ text: 'ready' });
    before = fake.requests.length;
    await main.getByRole('button', { name: 'Test connection' }).click();
    const note = main.getByTestId('model-test-key');
    await note.waitFor();
    expect({ keys: keysIn(before), apiKey: fake.requests.at(-1)?.headers['x-api-key'] ?? '', note: await note.textContent() }).toEqual({
      keys: 0,
      apiKey: '',
      note: 'Sent without the API key. The API key from the environment variable ANTHROPIC_API_KEY is kept for anthropic at https://api.anthropic.com/v1, so it was not sent to anthropic at ' + `${fake.url}/v1. To use it there, confirm in the desktop window, enter the key again there, or set [provider] in the config file.`,
    });
    await shot(page, 'model-key-not-sent');

    await main.getByRole('button', { name: 'Save' }).click();
    await main.getByTestId('model-in-use').filter({ hasText: 'saved on this page' }).waitFor();
    const kept = main.getByTestId('key-not-sent');
    await kept.waitFor();
    expect(await kept.textContent()).toMatch(/^The API key from the environment variable ANTHROPIC_API_KEY is kept for anthropic at https:\/\/api\.anthropic\.com\/v1, so it was not sent to anthropic at /);
    expect(await axeProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 400, height: 1000 });
    await shot(page, 'model-key-kept-400');
    await page.setViewportSize({ width: 1280, height: 1000 });
  });
});
