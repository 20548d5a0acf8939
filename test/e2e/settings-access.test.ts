// Settings → Agent access in a real browser, by keyboard alone: a real daemon (web mode, gate, store),
// calls submitted over the control socket, Chromium driving the page. Changing the level on the page
// decides the next call; the policy preview replays the history; a managed policy shows and holds.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ControlClient } from '../../main/control/client';
import { startDaemon, webUiOf, type Daemon } from '../support/daemon';
import { axeProblems, fixture, launch, shot, startWeb, type Fixture, type WebDaemon } from './support';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let f: Fixture;
let web: WebDaemon;
let browser: Browser;
/** A second daemon under a managed policy (started alongside, so its start-up costs no extra time). */
let managedDaemon: Daemon;
let managedFile: string;

async function startManaged(): Promise<Daemon> {
  const g = fixture(null);
  const etc = join(g.root, 'etc');
  mkdirSync(etc, { mode: 0o755 });
  managedFile = join(etc, 'managed.toml');
  writeFileSync(managedFile, '[autonomy]\nmax_level = "supervised"\n[rules.effects]\nnetwork = "deny"\n[security.auto_approval]\nenabled = false\n', { mode: 0o644 });
  return startDaemon(g.dataDir, ['--config', g.config, '--workspace', g.workspace], { HOME: g.home, THRESHOLD_CONFIG_DIR: join(g.home, '.config', 'threshold'), THRESHOLD_MANAGED_POLICY: managedFile });
}

beforeAll(async () => {
  f = fixture(null);
  [web, browser, managedDaemon] = await Promise.all([startWeb(f), launch(), startManaged()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (web?.daemon.child.exitCode === null) await web.daemon.kill('SIGTERM');
  if (managedDaemon?.child.exitCode === null) await managedDaemon.kill('SIGTERM');
});

type Verdict = { decision: string; decided_by: string; run: boolean };

/** A call in an unattended turn: an ask is refused at once, so nothing waits, and it is in the history. */
async function submit(dataDir: string, command: string): Promise<Verdict> {
  const c = await ControlClient.connect(join(dataDir, 'control.sock'));
  try {
    return await c.call<Verdict>('approval.request', { tool: 'run_command', args: { command }, unattended: true });
  } finally {
    c.close();
  }
}

/** Presses Tab until `target` has the focus: the page is reached the way a keyboard user reaches it. */
async function tabTo(page: Page, target: Locator, max = 120): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

async function openAgentAccess(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  await tabTo(page, page.getByRole('button', { name: 'Settings', exact: true }));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Agent access' }).waitFor();
}

describe('Settings → Agent access', () => {
  it('by keyboard alone: choose auto-edit, preview it on the history, save; the next call is decided by it; axe finds nothing serious', async () => {
    expect([await submit(f.dataDir, 'ls'), await submit(f.dataDir, 'touch notes.txt')].map((v) => [v.decision, v.decided_by])).toEqual([
      ['allow', 'level:supervised'],
      ['ask', 'level:supervised'],
    ]);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1700 } })).newPage();
    await openAgentAccess(page, web.url);
    const supervised = page.getByRole('radio', { name: /^Supervised/ });
    expect(await supervised.isChecked()).toBe(true);
    // A radio group is one Tab stop; the arrows choose within it.
    await tabTo(page, supervised);
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: /^Auto-edit/ }).isChecked()).toBe(true);

    await tabTo(page, page.getByRole('button', { name: 'Preview on recent calls' }));
    await page.keyboard.press('Enter');
    const summary = page.getByRole('status').filter({ hasText: 'Of the last' });
    await summary.waitFor();
    const rows = page.getByRole('table', { name: /Recent calls/ }).locator('tbody tr');
    const table = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect({ summary: await summary.textContent(), table }).toEqual({
      summary: 'Of the last 2 calls, with these changes 2 would run unasked, 0 would ask and 0 would be refused; 1 is decided differently.',
      table: [
        ['run_command touch notes.txt', 'asks', 'runs: would now run unasked'],
        ['run_command ls', 'runs', 'runs (no change)'],
      ],
    });
    // Previewing changed nothing.
    expect((await submit(f.dataDir, 'touch preview.txt')).decided_by).toEqual('level:supervised');

    expect(await axeProblems(page)).toEqual([]);
    // The whole page in one picture (the README shows it): tall enough that nothing scrolls.
    await page.setViewportSize({ width: 1400, height: 2300 });
    await page.locator('.settings-screen').evaluate((el) => el.scrollTo(0, 0));
    await shot(page, 'settings-agent-access', 'settings-agent-access');

    await tabTo(page, page.getByRole('button', { name: 'Save changes' }));
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByText('In force: Auto-edit, from this page.').waitFor();
    expect(await submit(f.dataDir, 'touch after-save.txt')).toMatchObject({ decision: 'allow', decided_by: 'level:auto-edit', run: true });
  });

  it('a rule per tool chosen on the page refuses the next call; the tabs move with the arrow keys', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    await openAgentAccess(page, web.url);
    const rule = page.getByRole('combobox', { name: 'Rule for run_command' });
    await tabTo(page, rule);
    // A focused select answers to type-ahead: "d" picks deny.
    await page.keyboard.press('d');
    expect(await rule.inputValue()).toEqual('deny');
    await tabTo(page, page.getByRole('button', { name: 'Save changes' }));
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await submit(f.dataDir, 'ls')).toMatchObject({ decision: 'deny', decided_by: 'rule:tool:run_command=deny' });

    await tabTo(page, page.getByRole('tab', { name: 'Agent access' }));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.getByRole('heading', { name: 'Grants' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Grants' }).getAttribute('aria-selected')).toEqual('true');
  });

  it('under a managed policy: levels above its maximum cannot be chosen, its rules show their source, the reviewer switch is off and locked', async () => {
    const ui = await webUiOf(managedDaemon);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    await openAgentAccess(page, ui.url);
    const network = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Network access/ }) });
    expect({
      full: await page.getByRole('radio', { name: /^Full/ }).isDisabled(),
      autoEdit: await page.getByRole('radio', { name: /^Auto-edit/ }).isDisabled(),
      supervised: await page.getByRole('radio', { name: /^Supervised/ }).isDisabled(),
      network: (await network.getByRole('cell').allTextContents()).slice(1),
      reviewer: await page.getByRole('switch', { name: 'Let the reviewer answer prompts' }).isDisabled(),
      note: await page.getByText('An administrator’s managed policy applies').count(),
    }).toEqual({ full: true, autoEdit: true, supervised: false, network: ['deny', `managed policy (${managedFile})`], reviewer: true, note: 1 });
    expect(await axeProblems(page)).toEqual([]);
  });
});
