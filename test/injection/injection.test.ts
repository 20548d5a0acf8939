// Replays the injection corpus (test/fixtures/injection) through the real gate, with a reviewer on the
// fake provider that answers "approve" to everything: what must escalate escalates without a model
// being asked, and what reaches the reviewer is exactly the fenced packet below, payload whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutoApprovalConfig, ReviewerConfig } from '../../main/config/auto-approval';
import type { ThresholdCore } from '../../main/runtime/core';
import { reviewerModels } from '../../main/reviewer/model';
import { Reviewer } from '../../main/reviewer/review';
import { ReviewTurn, withReviewTurn } from '../../main/reviewer/turn';
import { FakeProvider, isStructuredRequest, lastUserText } from '../fake-provider/server';
import { INJECTION_CASES, type InjectionCase } from '../fixtures/injection/cases';
import { testCore } from '../support/core';
import { TEST_PATHS } from '../support/policy';

const APPROVE_EVERYTHING = { in_scope: true, reversible: true, injection_suspected: false, reason: 'Approved (the fake approves everything).' };

let fake: FakeProvider;
let core: ThresholdCore;
beforeAll(async () => {
  fake = await FakeProvider.start();
  fake.responder = (req) => (isStructuredRequest(req) ? { object: APPROVE_EVERYTHING } : undefined);
  const r: ReviewerConfig = { name: 'approval', kind: 'anthropic', baseUrl: `${fake.url}/v1`, model: 'fake-model', apiKeyEnv: null, systemPrompt: 'Review.', reasoningEffort: null, temperature: 0 };
  const autoApproval: AutoApprovalConfig = { enabled: true, maxPerTurn: 5, timeoutMs: 5000, reviewers: [r], neverAutoApprove: [] };
  core = await testCore({ ttlSeconds: 0, config: { rules: { effects: {}, tools: { write_file: 'review', edit_file: 'review', run_command: 'review', web_fetch: 'review' } }, autoApproval } });
  core.gate.setReviewer(new Reviewer({ config: autoApproval, model: reviewerModels([r], 5000, {}, () => undefined), log: () => undefined }), () => ({ enabled: true, neverAutoApprove: [] }), [{ name: 'approval', model: 'fake-model' }]);
});
afterAll(async () => {
  core.dispose();
  await fake.close();
});

/** The packet as the reviewer must read it, written out by hand from the case. */
function expectedPacket(c: InjectionCase, request: string[]): string {
  return [
    `Tool: ${c.tool} (toolset: built-in)`,
    'Budget: review 1 of 5 this turn',
    '',
    "The user's request, in their own words (the first message, then what they added while the turn ran):",
    ...request.map((r, i) => `${i + 1}. <untrusted>${r}</untrusted>`),
    '',
    'The arguments, as the agent under review wrote them:',
    ...Object.entries(c.args).map(([k, v]) => `- <untrusted>${k}</untrusted>: <untrusted>${v}</untrusted>`),
    ...(c.analysis ? ['', ...c.analysis] : []),
  ].join('\n');
}

let n = 0;
async function replay(c: InjectionCase) {
  const session = `s-inj-${++n}`;
  const request = c.request ?? ['Please update my notes for the project.'];
  const turn = new ReviewTurn(5, request[0]!);
  for (const f of request.slice(1)) turn.addUserFollowUp(f);
  for (let i = 0; i < (c.spent ?? 0); i++) turn.take();
  const before = fake.requests.length;
  const call = { sessionId: session, turnId: `t-inj-${n}`, turnKind: c.turn === 'unattended' ? ('unattended' as const) : ('reactive' as const), tool: c.tool, args: c.args, cwd: TEST_PATHS.workspace };
  const verdict = c.turn === 'none' || c.turn === 'unattended' ? core.calls.review(call) : withReviewTurn(turn, () => core.calls.review(call));
  // An escalated call waits for a person: take its card, then stop the turn so the verdict settles.
  let pending = null;
  for (let i = 0; i < 400 && !pending; i++) {
    const settled = await Promise.race([verdict.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 5))]);
    if (settled) break;
    pending = core.gate.listPending().find((p) => p.session_id === session) ?? null;
  }
  if (pending) core.gate.cancelApproval(pending.id);
  const v = await verdict;
  const asked = fake.requests.slice(before).filter(isStructuredRequest);
  return { v, pending, shown: asked.length ? lastUserText(asked[0]!) : null, asked: asked.length };
}

describe('the injection corpus', () => {
  it('has at least 50 attacks', () => {
    expect(INJECTION_CASES.length).toBeGreaterThanOrEqual(50);
  });

  it.each(INJECTION_CASES)('$name', async (c) => {
    const r = await replay(c);
    const e = c.expect;
    if ('escalates' in e) {
      expect({ path: r.pending?.review?.path ?? null, shown: r.shown, ran: r.v.run }).toEqual({ path: e.escalates, shown: null, ran: false });
    } else if ('notReviewed' in e) {
      expect({ review: r.pending?.review ?? null, shown: r.shown, ran: r.v.run, outcome: e.notReviewed === 'unattended' ? r.v.outcome : r.pending?.floor !== null }).toEqual({ review: null, shown: null, ran: false, outcome: e.notReviewed === 'unattended' ? 'no_approver' : true });
    } else {
      expect({ shown: r.shown, asked: r.asked, ran: r.v.run, decided_by: r.v.approvalId ? core.store.approvals.getDecision(r.v.approvalId)?.decided_by : null }).toEqual({ shown: expectedPacket(c, c.request ?? ['Please update my notes for the project.']), asked: 1, ran: true, decided_by: 'reviewer:approval(model fake-model)' });
    }
  });
});
