// History's Restore in a real browser against a real daemon, with three commands run in the jail after
// their checkpoints and an edit made outside Threshold: before anything happens, Restore names this
// call and every later one it undoes, with their files; it runs only on the workspace it showed; and
// the restore itself can be undone from the same place (and is shown as undone).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ControlClient } from '../../main/control/client';
import { axeProblems, fixture, launch, shot, startWeb, until, type Fixture, type WebDaemon } from './support';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let f: Fixture;
let web: WebDaemon;
let browser: Browser;
let page: Page;
const README = '# Demo project\n\nA README for the end-to-end tests.\n';

/** Runs a command through the gate and the jail, approved once by a second control connection. */
async function approvedCommand(command: string): Promise<void> {
  const c = await ControlClient.connect(join(f.dataDir, 'control.sock'));
  const d = await ControlClient.connect(join(f.dataDir, 'control.sock'));
  try {
    const run = c.call('approval.request', { tool: 'run_command', args: { command }, session_id: 'restore', execute: true });
    const p = await until('the command to park', async () => (await d.call<{ id: string; hash: string }[]>('approval.list_pending'))[0]);
    await d.call('approval.decide', { id: p.id, hash: p.hash, outcome: 'approve_once' });
    await run;
  } finally {
    c.close();
    d.close();
  }
}

function workspace(): Record<string, string | null> {
  const read = (name: string) => (existsSync(join(f.workspace, name)) ? readFileSync(join(f.workspace, name), 'utf8') : null);
  return { 'a.txt': read('a.txt'), 'README.md': read('README.md'), 'notes.txt': read('notes.txt'), 'outside.txt': read('outside.txt') };
}

beforeAll(async () => {
  f = fixture(null);
  writeFileSync(join(f.workspace, 'notes.txt'), 'notes kept since before\n');
  [web, browser] = await Promise.all([startWeb(f), launch()]);
  await approvedCommand("printf 'made by the first call\\n' > a.txt");
  await approvedCommand("printf 'appended by a later call\\n' >> README.md");
  await approvedCommand('rm notes.txt');
  // Changed outside Threshold after the last call: a restore undoes it too, so it must say so.
  writeFileSync(join(f.workspace, 'outside.txt'), 'written by the person\n');
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1100 } })).newPage();
  await page.goto(web.url);
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  await page.getByRole('button', { name: 'History', exact: true }).click();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (web?.daemon.child.exitCode === null) await web.daemon.kill('SIGTERM');
});

const detail = () => page.locator('section.call-detail');
const plan = () => detail().locator('.restore-plan');

async function openFirstCall(): Promise<void> {
  await page.getByRole('form', { name: 'Filter calls' }).getByLabel('Search', { exact: true }).fill('made by the first call');
  await page.locator('.history-count').filter({ hasText: /^1 call$/ }).waitFor();
  await page.locator('li.call-row[data-call-id] button').first().click();
  await detail().getByRole('button', { name: 'Restore…' }).waitFor();
}

describe("History's Restore", () => {
  it('names this call and every later change it undoes (two later calls, an outside edit) with their files, before anything happens', async () => {
    const before = workspace();
    await openFirstCall();
    await detail().getByRole('button', { name: 'Restore…' }).click();
    await plan().getByRole('button', { name: 'Restore the workspace' }).waitFor();
    const steps = await plan().locator('li.plan-step > p').allTextContents();
    const files = await plan().locator('.plan-files-all').textContent();
    expect({
      steps: steps.map((s) => s.replace(/, \d\d?:\d\d.*$/, '')),
      files: ['a.txt added since: Restore deletes it', 'README.md changed since: Restore puts it back as it was', 'notes.txt deleted since: Restore brings it back', 'outside.txt added since: Restore deletes it'].filter((w) => !files?.includes(w)),
      laterCalls: (await plan().textContent())?.includes('this call and 2 later calls'),
      untouched: workspace(),
    }).toEqual({
      steps: ["This call: run_command: Run printf 'made by the first call\\n' > a.txt", "A later call: run_command: Run printf 'appended by a later call\\n' >> README.md", 'A later call: run_command: Run rm notes.txt'],
      files: [],
      laterCalls: true,
      untouched: before,
    });
    expect(await axeProblems(page)).toEqual([]);
    await shot(page, 'restore-plan', 'restore-plan');
  });

  it('restores exactly that, and the restore can be undone from the same place: the workspace comes back as it was', async () => {
    const before = workspace();
    await plan().getByRole('button', { name: 'Restore the workspace' }).click();
    await detail().getByText(/^Restored the workspace to before this call: 4 files put back, undoing 3 calls\./).waitFor();
    expect(workspace()).toEqual({ 'a.txt': null, 'README.md': README, 'notes.txt': 'notes kept since before\n', 'outside.txt': null });

    await detail().getByRole('button', { name: 'Undo this restore…' }).click();
    await plan().getByRole('heading', { name: /^Undo the restore of/ }).waitFor();
    expect(await plan().locator('li.plan-step > p').first().textContent()).toMatch(/^The restore, /);
    await plan().getByRole('button', { name: 'Undo the restore' }).click();
    await detail().getByText(/^Undid the restore/).waitFor();
    expect(workspace()).toEqual(before);
    await detail().getByTestId('restore-state').filter({ hasText: /That restore was undone/ }).waitFor();
    expect(await detail().getByRole('button', { name: 'Undo this restore…' }).count()).toEqual(0);
  });

  it('runs only on the workspace it showed: a change made after the list was shown stops it, and nothing is restored', async () => {
    await detail().getByRole('button', { name: 'Restore…' }).click();
    await plan().getByRole('button', { name: 'Restore the workspace' }).waitFor();
    writeFileSync(join(f.workspace, 'late.txt'), 'written after the list was shown\n');
    const now = workspace();
    await plan().getByRole('button', { name: 'Restore the workspace' }).click();
    await plan().getByRole('alert').filter({ hasText: 'The workspace changed since the list of what Restore undoes was shown, so nothing was restored.' }).waitFor();
    expect({ files: workspace(), late: existsSync(join(f.workspace, 'late.txt')) }).toEqual({ files: now, late: true });
    // Looking again lists the new file too.
    await plan().getByRole('button', { name: 'Look again' }).click();
    await plan().locator('.plan-files-all').filter({ hasText: 'late.txt added since: Restore deletes it' }).waitFor();
    await plan().getByRole('button', { name: 'Cancel' }).click();
    rmSync(join(f.workspace, 'late.txt'));
  });
});
