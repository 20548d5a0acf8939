// End-to-end support: a real `threshold serve` with its web UI, the fake provider as the model, and one
// headless Chromium (Debian's) per test file. Fixtures live under the checkout, not /tmp, because the
// jail masks /tmp and a consent card needs a folder outside the workspace the jail can see.
import { ControlClient } from '../../main/control/client';
import AxeBuilder from '@axe-core/playwright';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { FakeProvider } from '../fake-provider/server';
import { ROOT } from '../support/cli';
import { startDaemon, webUiOf, type Daemon } from '../support/daemon';

export const RESULTS = join(ROOT, 'test-results');

export interface Fixture {
  root: string;
  home: string;
  workspace: string;
  outside: string;
  dataDir: string;
  config: string;
}

export function fixture(provider: FakeProvider | null): Fixture {
  const base = ROOT.startsWith('/tmp/') || ROOT.startsWith('/var/tmp/') ? join(homedir(), '.cache', 'threshold-tests') : join(ROOT, '.test-tmp');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, 'e2e-'));
  const home = join(root, 'home');
  const workspace = join(home, 'project');
  const outside = join(home, 'outside');
  const dataDir = join(home, '.local', 'share', 'threshold');
  for (const d of [workspace, outside]) mkdirSync(d, { recursive: true });
  // The data directory must be the user's own and closed to others (the daemon refuses a 0755 one).
  mkdirSync(dirname(dataDir), { recursive: true });
  mkdirSync(dataDir, { mode: 0o700 });
  writeFileSync(join(workspace, 'README.md'), '# Demo project\n\nA README for the end-to-end tests.\n');
  const config = join(root, 'threshold.toml');
  writeFileSync(config, provider ? `[provider]\nkind = "openai-compatible"\nbase_url = "${provider.url}/v1"\nmodel = "fake-model"\n` : '');
  return { root, home, workspace, outside, dataDir, config };
}

export interface WebDaemon {
  daemon: Daemon;
  /** The printed URL, with the token in the fragment. */
  url: string;
  origin: string;
  port: number;
  token: string;
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export async function startWeb(f: Fixture, opts: { demo?: boolean; port?: number } = {}): Promise<WebDaemon> {
  const args = opts.demo ? ['--demo'] : ['--config', f.config, '--workspace', f.workspace];
  const daemon = await startDaemon(f.dataDir, [...args, ...(opts.port ? ['--web-port', String(opts.port)] : [])], { HOME: f.home, THRESHOLD_CONFIG_DIR: join(f.home, '.config', 'threshold') });
  return { daemon, ...(await webUiOf(daemon)) };
}

export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
}

/**
 * A screenshot in test-results/. With `docsImage`, the picture is also one the README and docs/ show:
 * `npm run screenshots` (THRESHOLD_DOCS_SCREENSHOTS=1) refreshes docs/images from it; a plain test run
 * never writes into the tree.
 */
export async function shot(target: Page | Locator, name: string, docsImage?: string): Promise<string> {
  mkdirSync(RESULTS, { recursive: true });
  const path = join(RESULTS, `${name}.png`);
  await target.screenshot({ path, animations: 'disabled' });
  if (docsImage && process.env.THRESHOLD_DOCS_SCREENSHOTS === '1') copyFileSync(path, join(ROOT, 'docs', 'images', `${docsImage}.png`));
  return path;
}

/** Serious and critical accessibility violations (axe), as "rule: target" lines. */
export async function axeProblems(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** The card for a tool (only one of each is shown at a time: the oldest). */
export function card(page: Page, tool: string): Locator {
  return page.getByRole('region', { name: `Approval request: ${tool}` });
}

export function messageBox(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message' });
}

export async function say(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

/** The text of every tool result the model was sent in its last request. */
export function lastToolResults(fake: FakeProvider): string[] {
  const body = fake.requests[fake.requests.length - 1]?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  return (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

/** Between tests: refuses every approval still waiting and dismisses every open question, over the control API. */
export async function clearWaiting(dataDir: string): Promise<void> {
  const c = await ControlClient.connect(join(dataDir, 'control.sock'));
  try {
    for (const p of await c.call<{ id: string; hash: string }[]>('approval.list_pending')) await c.call('approval.decide', { id: p.id, hash: p.hash, outcome: 'deny' }).catch(() => undefined);
    for (const q of await c.call<{ id: string }[]>('question.list')) await c.call('question.dismiss', { id: q.id }).catch(() => undefined);
  } finally {
    c.close();
  }
}

/** A real daemon in web mode with the fake provider as its model, and a Chromium page signed in to it. */
export interface ChatRig {
  fake: FakeProvider;
  f: Fixture;
  web: WebDaemon;
  browser: Browser;
  page: Page;
}

export interface ChatRigOptions {
  /** Runs before the daemon starts: answers for the fake provider, additions to the config file. */
  prepare?: (fake: FakeProvider, f: Fixture) => void;
  context?: BrowserContextOptions;
  /** Runs in the page before its own scripts (e.g. to record what it hands the OS). */
  initScript?: () => void;
}

export async function openChatRig(opts: ChatRigOptions = {}): Promise<ChatRig> {
  const fake = await FakeProvider.start();
  const f = fixture(fake);
  opts.prepare?.(fake, f);
  const [web, browser] = await Promise.all([startWeb(f), launch()]);
  const context = await browser.newContext(opts.context ?? { viewport: { width: 1280, height: 1400 } });
  if (opts.initScript) await context.addInitScript(opts.initScript);
  const page = await context.newPage();
  await page.goto(web.url);
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  return { fake, f, web, browser, page };
}

/** Closes what openChatRig opened, whatever part of it a failed start left. */
export async function closeChatRig(r: Partial<ChatRig>): Promise<void> {
  await r.browser?.close();
  if (r.web?.daemon.child.exitCode === null) await r.web.daemon.kill('SIGTERM');
  await r.fake?.close();
}

/** Between tests: a failed test must not leave a card that blocks the next one (cards queue in call order). */
export async function resetChatRig(r: Pick<ChatRig, 'fake' | 'f'>): Promise<void> {
  r.fake.clear();
  await clearWaiting(r.f.dataDir);
}
