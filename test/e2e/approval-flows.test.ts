// The approval surface in a real browser: a real daemon (web mode, real gate, store and jail), the
// model scripted through the fake provider, Chromium driving the page as a person would.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ControlClient } from '../../main/control/client';
import type { FakeProvider } from '../fake-provider/server';
import { axeProblems, closeChatRig, openChatRig, resetChatRig, card, lastToolResults, messageBox, say, shot, until, type Fixture, type WebDaemon } from './support';

let fake: FakeProvider;
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let f: Fixture;
let web: WebDaemon;
let browser: Browser;
let page: Page;

// The default viewport is tall enough that a card with its grant editor fits on screen (the screenshots go in the README).
beforeAll(async () => void ({ fake, f, web, browser, page } = await openChatRig()), 60_000);

afterAll(() => closeChatRig({ fake, web, browser }));

afterEach(() => resetChatRig({ fake, f }));

async function newChat(): Promise<void> {
  await page.getByRole('button', { name: /^Chat/ }).click();
  await page.getByRole('button', { name: 'New chat' }).click();
}

/** The inline row of a tool call (the last one of that tool). */
function toolRow(tool: string) {
  return page.locator(`li.tool-call[data-tool="${tool}"]`).last();
}

async function waitForText(text: string, timeout = 15_000): Promise<void> {
  await page.getByRole('log', { name: 'Conversation' }).getByText(text, { exact: false }).first().waitFor({ timeout });
}

async function cardsWaiting(): Promise<number> {
  return page.getByRole('region', { name: /^Approval request: / }).count();
}

describe('chat and approval cards in the browser', () => {
  it('a user asks; the read runs unprompted and shows inline; the write shows a card; Approve once runs it and the result shows', async () => {
    fake.clear();
    fake.enqueue(
      { text: 'Reading the README first.', toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'hello from the browser\n' } }] },
      { text: 'I wrote notes.txt for you.' },
    );
    // The model is named as the provider reports it, so a test or demo model is never mistaken for another.
    await page.getByTestId('model-label').filter({ hasText: `Model: OpenAI-compatible server at ${fake.url}/v1 (fake-model)` }).waitFor();
    await newChat();
    await say(page, 'Read the README, then write notes.txt');
    const write = card(page, 'write_file');
    await write.waitFor();
    // The read ran before anything asked: its row is done, and the only card is the write's.
    expect({ read: await toolRow('read_file').locator('.tool-state').textContent(), write: await toolRow('write_file').locator('.tool-state').textContent(), cards: await cardsWaiting() }).toEqual({ read: 'done', write: 'waiting for you', cards: 1 });
    expect(await write.getByText('+hello from the browser').count()).toEqual(1);
    expect(await write.locator('.class-badge').textContent()).toEqual('Write');
    await shot(write, 'approval-card-write');
    await shot(page, 'chat-with-card');
    expect(await axeProblems(page)).toEqual([]);

    await write.getByRole('button', { name: 'Approve once', exact: true }).click();
    await waitForText('I wrote notes.txt for you.');
    expect({
      file: readFileSync(join(f.workspace, 'notes.txt'), 'utf8'),
      state: await toolRow('write_file').locator('.tool-state').textContent(),
      cards: await cardsWaiting(),
      focus: await page.evaluate(() => document.activeElement?.id),
    }).toEqual({ file: 'hello from the browser\n', state: 'done', cards: 0, focus: 'message-box' });
  });

  it('Always allow with the editor makes a grant; Grants shows its provenance; the next identical call runs unasked; Revoke makes it ask again; Deny with a note reaches the model', async () => {
    const touch = { name: 'run_command', args: { command: 'touch grant-e2e.txt' } };
    fake.clear();
    fake.enqueue({ toolCalls: [touch] }, { text: 'Touched once.' }, { toolCalls: [touch] }, { text: 'Touched again, unasked.' });
    await newChat();
    await say(page, 'touch the file');
    const c = card(page, 'run_command');
    await c.getByRole('button', { name: 'Always allow…' }).click();
    const editor = c.getByRole('group', { name: 'Always allow: the grant' });
    expect(await editor.getByRole('radio', { name: 'Exactly this command' }).isChecked()).toEqual(true);
    await editor.getByRole('radio', { name: 'Until revoked' }).check();
    await editor.getByRole('textbox', { name: 'Note (optional)' }).fill('made in the e2e test');
    // The preview is the gate's own judgement: the call is covered, a joined command is not, a substitution never is.
    await editor.locator('li.sample[data-source="call"][data-verdict="covered"]').waitFor();
    expect({
      joined: await editor.locator('li.sample[data-verdict="asks"] code').getByText("touch grant-e2e.txt; python3 -c 'import os'", { exact: true }).count(),
      substitution: await editor.locator('li.sample[data-verdict="never"] code').getByText('touch grant-e2e.txt $(cat ~/.ssh/id_ed25519)', { exact: true }).count(),
    }).toEqual({ joined: 1, substitution: 1 });
    await shot(c, 'approval-card-grant-editor', 'approval-card');
    expect(await axeProblems(page)).toEqual([]);
    await editor.getByRole('button', { name: 'Allow exactly touch grant-e2e.txt (until revoked)' }).click();
    await waitForText('Touched once.');

    await say(page, 'and again');
    await waitForText('Touched again, unasked.');
    expect(await cardsWaiting()).toEqual(0);

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Grants' }).click();
    const row = page.getByRole('row').filter({ hasText: 'touch grant-e2e.txt' });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect({ tool: cells[0], pattern: cells[1], scope: cells[2], expiry: cells[3], provenance: /^Approval in session s_\w+, call call_\w+, / .test(cells[4]!), uses: cells[6], saved: cells[7] }).toEqual({
      tool: 'run_command',
      pattern: 'touch grant-e2e.txtmade in the e2e test',
      scope: 'Until revoked',
      expiry: 'Never',
      provenance: true,
      uses: '1',
      saved: '1',
    });
    await shot(page, 'settings-grants', 'settings-grants');
    expect(await axeProblems(page)).toEqual([]);

    // Edit: the same editor, here to narrow the scope to an hour.
    await row.getByRole('button', { name: 'Edit grant touch grant-e2e.txt' }).click();
    await page.getByRole('radio', { name: '1 hour' }).check();
    await page.getByRole('button', { name: 'Save grant' }).click();
    await until('the edited scope', async () => (await row.getByRole('cell').nth(2).textContent()) === 'Time-limited');
    expect(await row.getByRole('cell').nth(3).textContent()).toMatch(/^Expires /);

    await row.getByRole('button', { name: 'Revoke grant touch grant-e2e.txt' }).click();
    await page.getByRole('button', { name: /^Revoked \(1\)/ }).click();
    await page.getByRole('row').filter({ hasText: 'touch grant-e2e.txt' }).getByText(/^Revoked /).waitFor();

    fake.clear();
    fake.enqueue({ toolCalls: [touch] }, { text: 'Understood, I will not touch it.' });
    await page.getByRole('button', { name: /^Chat/ }).click();
    await say(page, 'one more time');
    const again = card(page, 'run_command');
    await again.waitFor();
    await again.getByRole('textbox', { name: /^Note for the agent/ }).fill('Not now: list the folder instead.');
    await again.getByRole('button', { name: 'Deny', exact: true }).click();
    await until('the card to go', async () => (await cardsWaiting()) === 0);
    // Deny ends the turn; the model reads the note with the next request.
    await say(page, 'ok');
    await waitForText('Understood, I will not touch it.');
    expect(lastToolResults(fake).some((t) => t.includes('Not now: list the folder instead.'))).toEqual(true);
  });

  it('Skip refuses the one call and the turn goes on', async () => {
    fake.clear();
    fake.enqueue({ toolCalls: [{ name: 'write_file', args: { path: 'skipped.txt', content: 'x' } }] }, { text: 'Skipped that file; carrying on.' });
    await newChat();
    await say(page, 'write skipped.txt');
    await card(page, 'write_file').getByRole('button', { name: 'Skip', exact: true }).click();
    await waitForText('Skipped that file; carrying on.');
    expect({ written: existsSync(join(f.workspace, 'skipped.txt')), told: lastToolResults(fake).some((t) => /skip/i.test(t)) }).toEqual({ written: false, told: true });
  });

  it('Stop during a running command ends the turn and kills its process', async () => {
    fake.clear();
    // Not `sleep`: other suites on a shared machine may kill sleeping processes by name.
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: `python3 -c 'import time; time.sleep(37.5)'` } }] }, { text: 'This step is never reached.' });
    await newChat();
    await say(page, 'wait a while');
    const row = toolRow('run_command');
    await until('the command to run or ask', async () => (await row.locator('.tool-state').textContent().catch(() => null)) === 'running' || (await card(page, 'run_command').count()) > 0).catch(async (e: Error) => {
      await row.locator('.tool-call-head').click();
      throw new Error(`${e.message}; the row reads ${await row.locator('.tool-output').textContent()}`);
    });
    if (await card(page, 'run_command').count()) await card(page, 'run_command').getByRole('button', { name: 'Approve once', exact: true }).click();
    await until('the command to run', async () => (await row.locator('.tool-state').textContent()) === 'running').catch(async (e: Error) => {
      await row.locator('.tool-call-head').click();
      throw new Error(`${e.message}; the row reads ${await row.textContent()}`);
    });
    await until('the process to start', () => sleepers() > 0);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await until('the Stop button to go', async () => (await page.getByRole('button', { name: 'Stop', exact: true }).count()) === 0);
    await row.locator('.tool-call-head').click();
    expect({ state: await row.locator('.tool-state').textContent(), output: await row.locator('.tool-output').textContent(), sleepers: await until('the process to die', () => (sleepers() === 0 ? 'gone' : null)) }).toEqual({ state: 'interrupted', output: '[stopped by the user]', sleepers: 'gone' });
  });

  it('a question from the agent is its own card; the answer reaches the model', async () => {
    fake.clear();
    fake.enqueue({ toolCalls: [{ name: 'ask_user', args: { question: 'Which colour should the chart be?' } }] }, { text: 'Blue it is.' });
    await newChat();
    await say(page, 'make a chart');
    const q = page.getByRole('region', { name: 'Question from the agent' });
    await q.getByText('Which colour should the chart be?').waitFor();
    await shot(q, 'question-card');
    await q.getByRole('textbox', { name: 'Your answer' }).fill('blue');
    await q.getByRole('button', { name: 'Answer' }).click();
    await waitForText('Blue it is.');
    expect(lastToolResults(fake).some((t) => t.includes('The user answered: blue'))).toEqual(true);
  });

  it('a write the jail blocked raises a sandbox consent card, which looks different and can keep it denied', async () => {
    fake.clear();
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch ../outside/blocked.txt' } }] }, { text: 'The sandbox blocked that write.' });
    await newChat();
    await say(page, 'touch a file outside');
    await card(page, 'run_command').getByRole('button', { name: 'Approve once', exact: true }).click();
    const offer = page.getByRole('region', { name: /^Sandbox blocked / });
    await offer.waitFor();
    expect(await offer.getByRole('heading').textContent()).toEqual(`Sandbox blocked writing: ${f.outside}`);
    await shot(offer, 'sandbox-consent-card');
    await offer.getByRole('button', { name: 'Keep denied' }).click();
    await until('the offer to go', async () => (await offer.count()) === 0);
    expect(existsSync(join(f.outside, 'blocked.txt'))).toEqual(false);
  });

  it('a read of a hidden home file the jail kept out of sight raises a card that says it was hidden, not that a write was blocked', async () => {
    mkdirSync(join(f.home, '.toolcli'), { recursive: true });
    writeFileSync(join(f.home, '.toolcli', 'session.json'), '{"user": "me"}\n');
    fake.clear();
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'cat ~/.toolcli/session.json' } }] }, { text: 'It was hidden.' });
    await newChat();
    await say(page, 'show the tool session');
    await card(page, 'run_command').getByRole('button', { name: 'Approve once', exact: true }).click();
    const offer = page.getByRole('region', { name: /^Sandbox hid / });
    await offer.waitFor();
    const buttons = await offer.getByRole('button').allTextContents();
    expect({ heading: await offer.getByRole('heading').textContent(), buttons }).toEqual({
      heading: `Sandbox hid a file that may hold credentials: ${join(f.home, '.toolcli', 'session.json')}`,
      buttons: ['Show it for this session', 'Always show this path', 'Keep hidden'],
    });
    expect(await axeProblems(page)).toEqual([]);
    await shot(offer, 'sandbox-hidden-card');
    await offer.getByRole('button', { name: 'Keep hidden' }).click();
    await until('the offer to go', async () => (await offer.count()) === 0);
  });

  it('a command holding an API key shows redacted; Reveal shows the original with hidden characters still visible, only to the page, and a decision drops it', async () => {
    const key = 'sk-ant-api03-' + 'Qw7_e2eFAKEkey'.repeat(6) + '-AA';
    // A zero-width space after the URL: revealed text must still show it as an escape.
    const command = `curl -H "Authorization: Bearer ${key}" https://api.example.com/v1/models\u200b`;
    fake.clear();
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command } }] }, { text: 'Not calling that API, then.' });
    await newChat();
    await say(page, 'list the models');
    const c = card(page, 'run_command');
    await c.waitFor();
    const shown = c.locator('pre.command');
    const reveal = c.getByRole('button', { name: 'Reveal' });
    expect({ redacted: (await shown.textContent())!.includes('[REDACTED:'), keyOnPage: (await page.content()).includes(key), pressed: await reveal.getAttribute('aria-pressed') }).toEqual({ redacted: true, keyOnPage: false, pressed: 'false' });

    await reveal.click();
    await until('the original command', async () => (await shown.textContent())!.includes(key));
    expect({ text: await shown.textContent(), escapes: await shown.locator('.escape').allTextContents(), pressed: await reveal.getAttribute('aria-pressed') }).toEqual({
      text: command.replace('\u200b', '<ZWSP>'),
      escapes: ['<ZWSP>'],
      pressed: 'true',
    });
    expect(await axeProblems(page)).toEqual([]);
    await reveal.click();
    await until('the redacted command again', async () => (await shown.textContent())!.includes('[REDACTED:'));
    expect({ keyOnPage: (await page.content()).includes(key), pressed: await reveal.getAttribute('aria-pressed') }).toEqual({ keyOnPage: false, pressed: 'false' });

    // The control socket has no reveal; the audit says the page looked, never what it saw.
    const ctl = await ControlClient.connect(join(f.dataDir, 'control.sock'));
    try {
      const refused = await ctl.call('approval.reveal', { id: await c.getAttribute('data-approval-id') }).then(() => 'answered', (e: Error) => e.message);
      const audit = await ctl.call<{ data: unknown }[]>('audit.list', { kind: 'approval.revealed' });
      expect({ refused: refused.includes('approval.reveal'), looks: audit.map((e) => e.data), leaked: JSON.stringify(await ctl.call('audit.list', { limit: 500 })).includes(key) }).toEqual({ refused: true, looks: [{ surface: 'web' }], leaked: false });
    } finally {
      ctl.close();
    }

    await reveal.click();
    await until('the original command', async () => (await shown.textContent())!.includes(key));
    await c.getByRole('button', { name: 'Deny', exact: true }).click();
    await until('the card to go', async () => (await cardsWaiting()) === 0);
    expect((await page.content()).includes(key)).toEqual(false);
  });

  it('keys typed into the message box while a card arrives decide nothing; then "yes" typed after it approves it once and the chat says so', async () => {
    fake.clear();
    fake.enqueue({ toolCalls: [{ name: 'write_file', args: { path: 'typed.txt', content: 'typed\n' } }] }, { text: 'Wrote typed.txt.' });
    await newChat();
    await say(page, 'write typed.txt');
    const box = messageBox(page);
    // Keep typing as someone would who has not noticed the card: letters, the card's keys, the chord.
    for (let i = 0; i < 40; i++) {
      await box.press(['y', 'n', 's', 'Control+Enter', 'a'][i % 5]!);
      await page.waitForTimeout(40);
    }
    const c = card(page, 'write_file');
    await c.waitFor();
    expect({ pending: await c.count(), written: existsSync(join(f.workspace, 'typed.txt')), focusStayed: await page.evaluate(() => document.activeElement?.id) }).toEqual({ pending: 1, written: false, focusStayed: 'message-box' });

    await box.fill('');
    await box.pressSequentially('yes');
    await box.press('Enter');
    await waitForText('Wrote typed.txt.');
    await page.getByText('You answered "yes": write_file (Write typed.txt) was approved once.').waitFor();
    expect(readFileSync(join(f.workspace, 'typed.txt'), 'utf8')).toEqual('typed\n');
  });
});

/** How many of the Stop test's processes are alive. */
function sleepers(): number {
  let n = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('time.sleep(37.5)')) n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}
