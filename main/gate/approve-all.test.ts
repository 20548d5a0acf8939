// Approve all for a session: listed where a person looks, ended from any surface (audited), and after
// that the session asks again. What it never covers (floors, unattended turns) keeps asking or refusing.
import { describe, expect, it } from 'vitest';
import { nextPending, shellCall, useCores } from '../../test/support/core';
import type { ThresholdCore } from '../runtime/core';

const testCores = useCores();

async function inApproveAll(): Promise<{ c: ThresholdCore; approvalId: string; events: string[] }> {
  const c = await testCores();
  const events: string[] = [];
  c.events.on('approve_all.started', (v) => events.push(`started ${v.session_id} by ${v.started_by}`));
  c.events.on('approve_all.ended', (e) => events.push(`ended ${e.session_id} by ${e.ended_by}`));
  const first = c.calls.review(shellCall('touch a'));
  const p = await nextPending(c);
  const r = await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_all_session', surface: 'web' });
  expect(r.ok).toBe(true);
  await first;
  return { c, approvalId: p.id, events };
}

describe('approve all for a session', () => {
  it('is listed with the card that began it, and counts the calls it approved since', async () => {
    const { c, approvalId, events } = await inApproveAll();
    expect((await c.calls.review(shellCall('touch b'))).run).toBe(true);
    expect(c.approveAll.list()).toEqual([
      { session_id: 's1', session_title: null, since: expect.any(Number), approval_id: approvalId, call: { tool: 'run_command', args: { command: 'touch a' } }, started_by: 'web', uses: 1, last_used_at: expect.any(Number) },
    ]);
    expect(events).toEqual(['started s1 by web']);
  });

  it('ended from one surface: audited with who ended it, announced to every surface, and the next call asks again', async () => {
    const { c, approvalId, events } = await inApproveAll();
    expect(c.approveAll.end('s1', 'control')).toEqual({ ok: true, value: { session_id: 's1', approval_id: approvalId, ended_at: expect.any(Number), ended_by: 'control' } });
    const audit = c.store.audit.list({ kind: 'approve_all.ended' });
    expect(audit.map((a) => ({ subject: a.subject, data: a.data }))).toEqual([{ subject: approvalId, data: { ended_by: 'control', since: expect.any(Number), approved_meanwhile: 0 } }]);
    expect({ listed: c.approveAll.list(), events }).toEqual({ listed: [], events: ['started s1 by web', 'ended s1 by control'] });
    const next = c.calls.review(shellCall('touch c'));
    const p = await nextPending(c);
    expect(p.args).toEqual({ command: 'touch c' });
    await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'skip', surface: 'web' });
    expect((await next).run).toBe(false);
  });

  it.each([
    ['ended twice (another window ended it first)', async (c: ThresholdCore) => void c.approveAll.end('s1', 'web')],
    ['never begun in that session', async () => undefined],
  ])('ending one %s says so and changes nothing', async (name, before) => {
    const { c } = await inApproveAll();
    await before(c);
    const session = name.startsWith('never') ? 's2' : 's1';
    expect(c.approveAll.end(session, 'desktop')).toEqual({ ok: false, error: { code: 'not_found', message: expect.stringContaining(`Session ${session} is not in approve-all mode`) } });
  });

  it('can be chosen again after it was ended, and is then listed again', async () => {
    const { c } = await inApproveAll();
    c.approveAll.end('s1', 'web');
    const again = c.calls.review(shellCall('touch d'));
    const p = await nextPending(c);
    await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_all_session', surface: 'desktop' });
    await again;
    expect(c.approveAll.list().map((v) => ({ approval: v.approval_id, by: v.started_by }))).toEqual([{ approval: p.id, by: 'desktop' }]);
  });

  it.each([
    ['a floor (destructive: a forced push) still asks', shellCall('git push --force origin main'), 'asks'],
    ['a floor (reading credentials) still asks', shellCall('cat ~/.aws/credentials'), 'asks'],
    ['an unattended turn of the session is refused, not approved (nobody watches it)', shellCall('touch e', { turnKind: 'unattended', turnId: 't2' }), 'refused'],
  ])('%s', async (_name, call, expected) => {
    const { c } = await inApproveAll();
    const verdict = c.calls.review(call);
    const outcome = await Promise.race([verdict.then((v) => (v.run ? 'ran' : 'refused')), nextPending(c).then(() => 'asks')]);
    expect(outcome).toEqual(expected);
    for (const p of c.gate.listPending()) await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'deny', surface: 'web' });
  });
});

describe('approve for session', () => {
  it('is listed with the exact call it covers and its uses; revoked (audited, announced), the identical call asks again', async () => {
    const c = await testCores();
    const revoked: string[] = [];
    c.events.on('approval.session_revoked', (r) => revoked.push(`${r.approval_id} by ${r.revoked_by}`));
    const first = c.calls.review(shellCall('touch same'));
    const p = await nextPending(c);
    await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_session', surface: 'web' });
    await first;
    expect((await c.calls.review(shellCall('touch same'))).run).toBe(true);
    expect(c.sessionApprovals.list()).toEqual([{ approval_id: p.id, session_id: 's1', session_title: null, tool: 'run_command', args: { command: 'touch same' }, decided_at: expect.any(Number), decided_by: 'web', by: { kind: 'human', surface: 'web' }, uses: 1, last_used_at: expect.any(Number) }]);

    expect(c.sessionApprovals.revoke(p.id, 'desktop')).toEqual({ ok: true, value: { approval_id: p.id, session_id: 's1', revoked_at: expect.any(Number), revoked_by: 'desktop' } });
    expect({ listed: c.sessionApprovals.list(), audit: c.store.audit.list({ kind: 'approval.session_revoked' }).map((a) => a.data), revoked, again: c.sessionApprovals.revoke(p.id, 'web').ok }).toEqual({
      listed: [],
      audit: [{ revoked_by: 'desktop', tool: 'run_command' }],
      revoked: [`${p.id} by desktop`],
      again: false,
    });
    const next = c.calls.review(shellCall('touch same'));
    const asked = await nextPending(c);
    expect(asked.args).toEqual({ command: 'touch same' });
    await c.gate.decideApproval({ approvalId: asked.id, hash: asked.hash, outcome: 'skip', surface: 'web' });
    expect((await next).run).toBe(false);
  });
});
