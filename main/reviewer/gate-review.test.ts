// The review as one more state of the gate: placed where a person would be asked, recorded, reported.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AutoApprovalConfig, ReviewerConfig } from '../config/auto-approval';
import { FakeProvider, isStructuredRequest } from '../../test/fake-provider/server';
import { nextPending, testCore } from '../../test/support/core';
import { TEST_PATHS } from '../../test/support/policy';
import type { ThresholdCore } from '../runtime/core';
import type { GateCall } from '../gate/gate';
import { reviewerModels } from './model';
import { Reviewer } from './review';
import { ReviewTurn, withReviewTurn } from './turn';

let fake: FakeProvider;
const cores: ThresholdCore[] = [];
beforeAll(async () => {
  fake = await FakeProvider.start();
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  fake.responder = null;
  fake.clear();
  for (const c of cores.splice(0)) c.dispose();
});

const APPROVE = { in_scope: true, reversible: true, injection_suspected: false, reason: 'Writes the note the user asked for.' };
const WITHHOLD = { ...APPROVE, reversible: false, reason: 'It overwrites notes.txt.' };

async function reviewedCore(opts: { rules?: Record<string, 'review'>; level?: 'supervised' | 'full'; approver?: boolean; never?: string[]; access?: () => { enabled: boolean; neverAutoApprove: string[] } } = {}) {
  const r: ReviewerConfig = { name: 'approval', kind: 'anthropic', baseUrl: `${fake.url}/v1`, model: 'fake-model', apiKeyEnv: null, systemPrompt: 'Review.', reasoningEffort: null, temperature: 0 };
  const autoApproval: AutoApprovalConfig = { enabled: true, maxPerTurn: 5, timeoutMs: 3000, reviewers: [r], neverAutoApprove: opts.never ?? [] };
  const core = await testCore({ level: opts.level, approver: opts.approver, config: { rules: { effects: {}, tools: opts.rules ?? { write_file: 'review', run_command: 'review' } }, autoApproval } });
  core.gate.setReviewer(new Reviewer({ config: autoApproval, model: reviewerModels([r], 3000, {}, () => undefined), log: () => undefined }), opts.access ?? (() => ({ enabled: true, neverAutoApprove: autoApproval.neverAutoApprove })), [{ name: 'approval', model: 'fake-model' }]);
  cores.push(core);
  const events: string[] = [];
  core.events.onAny((name) => events.push(name));
  return { core, events };
}

const write: GateCall = { sessionId: 's1', turnId: 't1', turnKind: 'reactive', tool: 'write_file', args: { path: 'notes.txt', content: 'hello' }, cwd: TEST_PATHS.workspace };
const inTurn = <T>(fn: () => Promise<T>) => withReviewTurn(new ReviewTurn(5, 'Write hello into notes.txt'), fn);

describe('the review in the gate', () => {
  it('an approval runs the call once, decided by the reviewer, its card ahead of the decision', async () => {
    const { core, events } = await reviewedCore();
    fake.enqueue({ object: APPROVE });
    const v = await inTurn(() => core.calls.review(write));
    const decision = core.store.approvals.getDecision(v.approvalId!);
    expect({ run: v.run, outcome: v.outcome, state: core.store.calls.get(v.callId)?.state, decided_by: decision?.decided_by, outcome_stored: decision?.outcome }).toEqual({ run: true, outcome: 'approve_once', state: 'scheduled', decided_by: 'reviewer:approval(model fake-model)', outcome_stored: 'approve_once' });
    expect(events.filter((e) => e.startsWith('review.') || e.startsWith('approval.'))).toEqual(['review.approved', 'approval.decided']);
    expect(core.store.audit.list({ session_id: 's1' }).map((a) => a.kind).filter((k) => k.startsWith('review.') || k.startsWith('approval.')).sort()).toEqual(['approval.decided', 'review.approved', 'review.started']);
  });

  it('a withheld approval parks the ordinary card with the reviewer\'s sentence, the escalation first', async () => {
    const { core, events } = await reviewedCore();
    fake.enqueue({ object: WITHHOLD });
    const verdict = inTurn(() => core.calls.review(write));
    const pending = await nextPending(core);
    expect({ path: pending.review?.path, reason: pending.review?.reason, reviewers: pending.review?.reviewers.map((r) => r.name), state: core.store.calls.get(pending.call_id)?.state }).toEqual({ path: 'withheld', reason: 'It overwrites notes.txt.', reviewers: ['approval'], state: 'awaiting_approval' });
    expect(events.filter((e) => e.startsWith('review.') || e.startsWith('approval.'))).toEqual(['review.escalated', 'approval.requested']);
    await core.gate.decideApproval({ approvalId: pending.id, hash: pending.hash, outcome: 'approve_once', surface: 'desktop' });
    expect((await verdict).run).toBe(true);
  });

  it('an outage shows on the card as an error, not as silence', async () => {
    const { core } = await reviewedCore();
    fake.enqueue({ http: { status: 529 } });
    void inTurn(() => core.calls.review(write));
    const pending = await nextPending(core);
    expect({ path: pending.review?.path, error: pending.review?.reviewers[0]?.error?.path }).toEqual({ path: 'unreachable', error: 'unreachable' });
    core.gate.cancelTurn('t1');
  });

  it('an unattended turn is denied before a reviewer could be consulted', async () => {
    const { core } = await reviewedCore();
    fake.responder = (req) => (isStructuredRequest(req) ? { object: APPROVE } : undefined);
    const before = fake.requests.length;
    const v = await inTurn(() => core.calls.review({ ...write, turnKind: 'unattended' }));
    expect({ run: v.run, outcome: v.outcome, asked: fake.requests.length - before }).toEqual({ run: false, outcome: 'no_approver', asked: 0 });
  });

  it('a call with no reactive turn open escalates with no budget, the model never asked', async () => {
    const { core } = await reviewedCore();
    const before = fake.requests.length;
    void core.calls.review(write);
    const pending = await nextPending(core);
    expect({ path: pending.review?.path, asked: fake.requests.length - before }).toEqual({ path: 'no_budget', asked: 0 });
    core.gate.cancelTurn('t1');
  });

  it.each([
    { name: 'a destructive command under a review rule goes to the person (a floor)', call: { ...write, tool: 'run_command' as const, args: { command: 'git push --force' } } },
    { name: 'a tool in never_auto_approve goes to the person, whatever start-up checked', call: write, never: ['write_file'] },
    { name: 'a call no review rule names goes to the person', call: write, rules: { run_command: 'review' as const } },
    { name: 'the reviewer switched off in force (Settings page or managed policy) sends the call to the person', call: write, access: () => ({ enabled: false, neverAutoApprove: [] }) },
    { name: 'a never_auto_approve entry in force (the managed policy adds it after start-up) goes to the person', call: write, access: () => ({ enabled: true, neverAutoApprove: ['write_file'] }) },
  ])('$name', async ({ call, never, rules, access }) => {
    const { core } = await reviewedCore({ never, rules, access });
    fake.responder = (req) => (isStructuredRequest(req) ? { object: APPROVE } : undefined);
    const before = fake.requests.length;
    void inTurn(() => core.calls.review(call));
    const pending = await nextPending(core);
    expect({ review: pending.review ?? null, asked: fake.requests.length - before }).toEqual({ review: null, asked: 0 });
    core.gate.cancelTurn('t1');
  });

  it('Stop during the review cancels the call; it never runs and nothing is parked', async () => {
    const { core } = await reviewedCore();
    fake.enqueue({ hang: true });
    const controller = new AbortController();
    const verdict = inTurn(() => core.calls.review(write, controller.signal));
    setTimeout(() => controller.abort(), 100);
    const v = await verdict;
    expect({ run: v.run, outcome: v.outcome, state: core.store.calls.get(v.callId)?.state, pending: core.gate.listPending().length }).toEqual({ run: false, outcome: 'cancelled', state: 'cancelled', pending: 0 });
  });
});
