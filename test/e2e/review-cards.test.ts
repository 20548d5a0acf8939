// The reviewer's cards in a real browser: a real daemon with auto-approval on (the agent and the reviewer
// both on the fake provider, on different protocols), Chromium reading the page as a person would.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ControlClient } from '../../main/control/client';
import type { FakeProvider} from '../fake-provider/server';
import { isStructuredRequest, type Step } from '../fake-provider/server';
import { axeProblems, closeChatRig, openChatRig, resetChatRig, card, say, shot, until, type Fixture, type WebDaemon } from './support';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const APPROVE = { in_scope: true, reversible: true, injection_suspected: false, reason: 'Writes the note the user asked for, inside the workspace.' };
const WITHHOLD = { in_scope: true, reversible: false, injection_suspected: false, reason: 'It would overwrite an existing file.' };

let fake: FakeProvider;
let f: Fixture;
let web: WebDaemon;
let browser: Browser;
let page: Page;
/** What the reviewer answers next (its requests are the structured ones, on the Anthropic protocol). */
let reviewerAnswer: Step = { object: APPROVE };

beforeAll(async () => {
  const prepare = (provider: FakeProvider, fx: Fixture): void => {
    provider.responder = (req) => (isStructuredRequest(req) ? reviewerAnswer : undefined);
    appendFileSync(
      fx.config,
      [
        '[rules.tools]',
        'write_file = "review"',
        '[security.auto_approval]',
        'enabled = true',
        '[reviewers.approval]',
        'kind = "anthropic"',
        `base_url = "${provider.url}/v1"`,
        'model = "fake-reviewer"',
        '',
      ].join('\n'),
    );
  };
  ({ fake, f, web, browser, page } = await openChatRig({ prepare }));
}, 60_000);

afterAll(() => closeChatRig({ fake, web, browser }));

afterEach(() => resetChatRig({ fake, f }));

async function newChat(): Promise<void> {
  await page.getByRole('button', { name: 'New chat' }).click();
}

const reviewCard = (title: string) => page.getByRole('article', { name: title });

describe('the reviewer\'s cards', () => {
  it('an auto-approval shows as a card in the chat and in the queue, naming the model, its reason, latency and token cost; the write ran once', async () => {
    reviewerAnswer = { object: APPROVE };
    fake.enqueue({ toolCalls: [{ name: 'write_file', args: { path: 'reviewed.txt', content: 'approved by the reviewer\n' } }] }, { text: 'Wrote reviewed.txt.' });
    await newChat();
    await say(page, 'Write reviewed.txt');
    const cards = reviewCard('Auto-approved by the reviewer: write_file');
    await until('two auto-approval cards (chat and queue)', async () => (await cards.count()) === 2);
    const queued = page.locator('.dock').getByRole('article', { name: 'Auto-approved by the reviewer: write_file' });
    await until('the file', () => existsSync(join(f.workspace, 'reviewed.txt')));
    expect({
      file: readFileSync(join(f.workspace, 'reviewed.txt'), 'utf8'),
      model: await queued.locator('.review-model').textContent(),
      reason: await queued.locator('.review-reason').textContent(),
      cost: await queued.getByText('10 input, 5 output tokens').count(),
      latency: /^\d+ ms$/.test((await queued.locator('dd').filter({ hasText: / ms$/ }).first().textContent()) ?? ''),
      approvalCards: await page.getByRole('region', { name: /^Approval request: / }).count(),
    }).toEqual({ file: 'approved by the reviewer\n', model: 'approval (model fake-reviewer)', reason: APPROVE.reason, cost: 1, latency: true, approvalCards: 0 });
    await shot(queued, 'review-card-approved');
    expect(await axeProblems(page)).toEqual([]);
    // Put away from the queue, kept in the chat.
    await queued.getByRole('button', { name: 'Dismiss' }).click();
    expect(await cards.count()).toBe(1);
    // History tells it apart from a human approval.
    const c = await ControlClient.connect(join(f.dataDir, 'control.sock'));
    try {
      const decisions = await c.call<{ tool: string; decided_by: string }[]>('approval.list_decisions', { limit: 5 });
      expect(decisions.find((d) => d.tool === 'write_file')?.decided_by).toBe('reviewer:approval(model fake-reviewer)');
    } finally {
      c.close();
    }
  });

  it('an escalation arrives ahead of the approval card with the reviewer\'s sentence; the person then decides', async () => {
    reviewerAnswer = { object: WITHHOLD };
    fake.enqueue({ toolCalls: [{ name: 'write_file', args: { path: 'escalated.txt', content: 'asked of a person\n' } }] }, { text: 'Wrote escalated.txt.' });
    await newChat();
    await say(page, 'Write escalated.txt');
    const approval = card(page, 'write_file');
    await approval.waitFor();
    const escalation = page.locator('.dock').getByRole('article', { name: 'Escalated by the reviewer: write_file' });
    // Ahead of the prompt: the escalation comes first in the queue.
    const order = await page.locator('.dock .queue > *').evaluateAll((els) => els.map((e) => e.getAttribute('aria-labelledby') ? 'review' : e.getAttribute('role') ?? e.className));
    expect({ reason: await escalation.locator('.review-reason').textContent(), first: order[0], alerts: await escalation.getByRole('alert').count() }).toEqual({ reason: WITHHOLD.reason, first: 'review', alerts: 0 });
    await shot(page.locator('.dock'), 'review-card-escalated');
    expect(await axeProblems(page)).toEqual([]);
    await approval.getByRole('button', { name: 'Approve once', exact: true }).click();
    await until('the file', () => existsSync(join(f.workspace, 'escalated.txt')));
  });

  it('a reviewer outage shows as an error on the escalation card, not as silence', async () => {
    reviewerAnswer = { http: { status: 529 } };
    fake.enqueue({ toolCalls: [{ name: 'write_file', args: { path: 'outage.txt', content: 'x\n' } }] }, { text: 'Done.' });
    await newChat();
    await say(page, 'Write outage.txt');
    await card(page, 'write_file').waitFor();
    const escalation = page.locator('.dock').getByRole('article', { name: 'Escalated by the reviewer: write_file' });
    expect(await escalation.getByRole('alert').textContent()).toBe('Reviewer error: the provider answered HTTP 529.');
    expect(await escalation.locator('.review-model').textContent()).toBe('approval (model fake-reviewer)');
  });
});
