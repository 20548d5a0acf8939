// History in a real browser: a real daemon over a data directory holding 100,000 calls seeded through
// the real store, plus calls made through the gate while the test runs (one with a checkpoint to
// restore). Chromium scrolls the windowed list, filters it, opens a call, restores its checkpoint,
// verifies the audit chain and exports JSONL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ControlClient } from '../../main/control/client';
import { ROOT } from '../support/cli';
import { SEED_KINDS, SEED_SESSIONS, seededDataDir, seededId } from '../support/seed-history';
import { axeProblems, fixture, launch, shot, startWeb, until, type Fixture, type WebDaemon } from './support';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 600_000 });

const SEEDED = 100_000;
let f: Fixture;
let web: WebDaemon;
let browser: Browser;
let page: Page;
const made: Record<string, string> = {};

/** The seeded calls of one kind (by the seeder's index modulo), newest first. */
const seededOfKind = (pick: (k: (typeof SEED_KINDS)[number]) => boolean) => Array.from({ length: SEEDED }, (_, i) => i).filter((i) => pick(SEED_KINDS[i % SEED_KINDS.length]!));

beforeAll(async () => {
  f = fixture(null);
  seededDataDir(f.dataDir, SEEDED, join(ROOT, '.test-tmp'));
  [web, browser] = await Promise.all([startWeb(f), launch()]);
  const c = await ControlClient.connect(join(f.dataDir, 'control.sock'));
  try {
    // Allowed by the level, no prompt: missing from `ctl history`, present here.
    made['read'] = (await c.call<{ call_id: string }>('approval.request', { tool: 'run_command', args: { command: 'cat README.md' }, session_id: 'live', execute: true })).call_id;
    // Asks; approved through the control API; runs in the jail after a checkpoint.
    const run = c.call<{ call_id: string; execution: { checkpoint_id: string } }>('approval.request', { tool: 'run_command', args: { command: "printf 'rewritten by the agent\\n' > README.md" }, session_id: 'live', execute: true });
    // A second connection decides: the first one answers in order, after its request is done.
    const d = await ControlClient.connect(join(f.dataDir, 'control.sock'));
    try {
      const p = await until('the write to park', async () => (await d.call<{ id: string; hash: string }[]>('approval.list_pending'))[0]);
      await d.call('approval.decide', { id: p.id, hash: p.hash, outcome: 'approve_once' });
    } finally {
      d.close();
    }
    made['write'] = (await run).call_id;
  } finally {
    c.close();
  }
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
  await page.goto(web.url);
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  await page.getByRole('button', { name: 'History', exact: true }).click();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (web?.daemon.child.exitCode === null) await web.daemon.kill('SIGTERM');
});

const list = () => page.getByTestId('call-list');
const count = () => page.locator('.history-count');
const rowsInDom = () => page.locator('li.call-row').count();

async function setFilter(label: string, value: string): Promise<void> {
  const field = page.getByRole('form', { name: 'Filter calls' }).getByLabel(label, { exact: true });
  if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
  else await field.fill(value);
}

async function clearFilters(): Promise<void> {
  for (const l of ['Outcome', 'Class', 'Decided by']) await setFilter(l, '');
  for (const l of ['Tool', 'Session', 'Search']) await setFilter(l, '');
  // Back to every call before the next case filters again.
  await count().filter({ hasText: `${(SEEDED + 2).toLocaleString('en-US')} calls` }).waitFor();
}

describe('History', () => {
  it('lists every call, newest first: the calls just made through the gate above the 100,000 seeded, the read the level allowed included', async () => {
    const total = SEEDED + 2;
    await count().filter({ hasText: `${total.toLocaleString('en-US')} calls` }).waitFor();
    const first = page.locator('li.call-row[data-call-id]').first();
    await first.waitFor();
    const ids = await page.locator('li.call-row[data-call-id]').evaluateAll((els) => els.slice(0, 3).map((e) => (e as HTMLElement).dataset.callId));
    const readRow = page.locator(`li.call-row[data-call-id="${made['read']}"]`);
    expect({ ids, by: await readRow.locator('.c-by').textContent(), outcome: await readRow.locator('.c-outcome').textContent() }).toEqual({
      ids: [made['write'], made['read'], seededId(SEEDED - 1)],
      by: 'The level (supervised)',
      outcome: 'Succeeded',
    });
  });

  it('keeps only the rows in view in the DOM, and scrolls to the middle and to the oldest call', async () => {
    await list().evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    const middle = seededId(SEEDED - Math.round((SEEDED + 2) / 2) + 1);
    await until('the middle rows to load', async () => (await page.locator('li.call-row[data-call-id]').count()) > 0 && (await page.locator('li.call-row.loading').count()) === 0);
    const middleIds = await page.locator('li.call-row[data-call-id]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.callId));
    await list().evaluate((el) => (el.scrollTop = el.scrollHeight));
    const oldest = page.locator(`li.call-row[data-call-id="${seededId(0)}"]`);
    await oldest.waitFor();
    expect({ middleInView: middleIds.includes(middle), domRows: (await rowsInDom()) < 80, oldestPosition: await oldest.getAttribute('aria-posinset') }).toEqual({ middleInView: true, domRows: true, oldestPosition: String(SEEDED + 2) });
    await list().evaluate((el) => (el.scrollTop = 0));
  });

  it.each([
    { name: 'decided by a grant', label: 'Decided by', value: 'grant', expected: seededOfKind((k) => k.by.kind === 'grant').length },
    { name: 'refused', label: 'Outcome', value: 'refused', expected: seededOfKind((k) => k.decision === 'deny').length },
    { name: 'of the destructive class', label: 'Class', value: 'destructive', expected: seededOfKind((k) => k.class === 'destructive').length },
    { name: 'of one tool', label: 'Tool', value: 'web_fetch', expected: seededOfKind((k) => k.tool === 'web_fetch').length },
    { name: 'decided by a person', label: 'Decided by', value: 'person', expected: 1 },
    { name: 'holding a text', label: 'Search', value: 'module-99990', expected: 1 },
  ])('filters the calls $name', async ({ label, value, expected }) => {
    await setFilter(label, value);
    await count().filter({ hasText: new RegExp(`^${expected.toLocaleString('en-US')} calls?$`) }).waitFor();
    await clearFilters();
  });

  it('filters by session, and several filters combine', async () => {
    await setFilter('Session', SEED_SESSIONS[1]!);
    await setFilter('Decided by', 'level');
    const expected = Array.from({ length: SEEDED }, (_, i) => i).filter((i) => i % 2 === 1 && SEED_KINDS[i % SEED_KINDS.length]!.by.kind === 'level').length;
    await count().filter({ hasText: `${expected.toLocaleString('en-US')} calls` }).waitFor();
    await clearFilters();
  });

  it('opens a call in full, shows what it changed from its checkpoint, and Restore puts the workspace back', async () => {
    await setFilter('Search', 'rewritten');
    await count().filter({ hasText: /^1 call$/ }).waitFor();
    await page.locator(`li.call-row[data-call-id="${made['write']}"] button`).click();
    const detail = page.getByRole('region', { name: 'run_command: Succeeded' });
    await detail.waitFor();
    await detail.getByRole('button', { name: 'Show what it changed' }).click();
    const diff = detail.getByLabel('Diff of the workspace');
    await diff.waitFor();
    expect({ by: await detail.locator('dd').nth(1).textContent(), added: await diff.locator('.diff-add').allTextContents(), before: readFileSync(join(f.workspace, 'README.md'), 'utf8') }).toEqual({
      by: 'A person (control)',
      added: ['+rewritten by the agent'],
      before: 'rewritten by the agent\n',
    });
    expect(await axeProblems(page)).toEqual([]);
    // The screenshot in the docs: every call in the list, this one open beside it.
    await setFilter('Search', '');
    await count().filter({ hasText: `${(SEEDED + 2).toLocaleString('en-US')} calls` }).waitFor();
    await page.locator('li.call-row[data-call-id]').first().waitFor();
    await shot(page, 'history', 'history');
    await detail.getByRole('button', { name: 'Restore…' }).click();
    await detail.getByRole('button', { name: 'Restore the workspace' }).click();
    await detail.getByText(/^Restored the workspace to before this call/).waitFor();
    expect(readFileSync(join(f.workspace, 'README.md'), 'utf8')).toEqual('# Demo project\n\nA README for the end-to-end tests.\n');
    await detail.getByRole('button', { name: "Close the call's details" }).click();
    await clearFilters();
  });

  it('verifies the audit chain on "Verify now"', async () => {
    await page.getByRole('button', { name: 'Verify now' }).click();
    const state = page.getByTestId('verify-state');
    await state.filter({ hasText: /^Audit chain verified: / }).waitFor({ timeout: 55_000 });
    expect(await state.textContent()).toMatch(/^Audit chain verified: [\d,]+ entries, nothing changed, removed or inserted/);
  });

  it('exports the filtered calls as JSONL, one call a line', async () => {
    await setFilter('Session', 'live');
    await count().filter({ hasText: /^2 calls$/ }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL' }).click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { id: string; decided_by: string });
    expect({ name: /^threshold-history-\d{4}-\d{2}-\d{2}\.jsonl$/.test(download.suggestedFilename()), rows: lines.map((l) => [l.id, l.decided_by]) }).toEqual({ name: true, rows: [[made['write'], 'control'], [made['read'], 'level:supervised']] });
    await page.getByText('Exported 2 calls as JSONL.').waitFor();
    await clearFilters();
  });
});
