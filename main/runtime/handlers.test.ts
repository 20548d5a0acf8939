// approval.reveal through the handlers: the original arguments come only from a live waiter of this
// process, only over the UI transports, and the audit records that a reveal happened, never what it showed.
import { describe, expect, it } from 'vitest';
import { nextPending, shellCall, useCores } from '../../test/support/core';
import type { ThresholdCore } from './core';
import { Store } from '../store/store';
import { invokeOperation } from '../../common/invoke';
import { createHandlers } from './handlers';

const SECRET = 'sk-ant-api03-' + 'Zx9'.repeat(30);
const COMMAND = `curl -H "Authorization: Bearer ${SECRET}" https://api.example.com/v1/models`;

const core = useCores();

/** Parks the secret-holding command and returns its card; the review settles when the card is decided or the core disposed. */
async function parkSecret(c: ThresholdCore) {
  const review = c.calls.review(shellCall(COMMAND));
  return { p: await nextPending(c), review };
}

describe('approval.reveal', () => {
  it('gives the window the original command of a call still pending in this process, and audits only who looked', async () => {
    const c = await core();
    const { p, review } = await parkSecret(c);
    expect(JSON.stringify(p.args)).not.toContain(SECRET);
    const handlers = createHandlers({ version: '0', core: c, surface: 'web' });
    expect(await invokeOperation(handlers, 'ui', 'approval.reveal', { id: p.id })).toEqual({ ok: true, value: { args: { command: COMMAND } } });
    expect(c.store.audit.list({ kind: 'approval.revealed' }).map((e) => ({ session: e.session_id, subject: e.subject, data: e.data }))).toEqual([{ session: 's1', subject: p.id, data: { surface: 'web' } }]);
    expect(JSON.stringify(c.store.db.prepare('SELECT * FROM audit').all())).not.toContain(SECRET);
    expect(JSON.stringify(c.store.db.prepare('SELECT * FROM approvals').all())).not.toContain(SECRET);
    await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'skip', surface: 'web' });
    await review;
  });

  it.each([
    {
      name: 'a decided approval',
      setup: async (c: ThresholdCore) => {
        const { p, review } = await parkSecret(c);
        await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'deny', surface: 'desktop' });
        await review;
        return p.id;
      },
      code: 'already_decided',
    },
    {
      name: 'an expired approval',
      setup: async (c: ThresholdCore) => {
        const { p, review } = await parkSecret(c);
        await review; // the TTL ends it
        return p.id;
      },
      ttlSeconds: 0.05,
      code: 'already_decided',
    },
    { name: 'an unknown approval', setup: async () => 'ap_nothing_here', code: 'not_found' },
  ])('refuses to reveal $name ($code)', async ({ setup, code, ttlSeconds }) => {
    const c = await core(ttlSeconds ? { ttlSeconds } : {});
    const id = await setup(c);
    const r = await invokeOperation(createHandlers({ version: '0', core: c, surface: 'desktop' }), 'ui', 'approval.reveal', { id });
    expect(r).toMatchObject({ ok: false, error: { code } });
    expect(c.store.audit.list({ kind: 'approval.revealed' })).toEqual([]);
  });

  it('refuses to reveal an orphan: a restarted Threshold never had its original arguments', async () => {
    const store = Store.inMemory();
    const first = await core({ store });
    const { p } = await parkSecret(first);
    const second = await core({ store });
    expect(second.gate.listPending().map((x) => [x.id, x.orphan])).toEqual([[p.id, true]]);
    const r = await invokeOperation(createHandlers({ version: '0', core: second, surface: 'desktop' }), 'ui', 'approval.reveal', { id: p.id });
    expect(r).toMatchObject({ ok: false, error: { code: 'orphan' } });
    expect(JSON.stringify(r)).not.toContain(SECRET);
  });

  it('is not an operation of the control socket, even for a call pending in this process', async () => {
    const c = await core();
    const { p, review } = await parkSecret(c);
    const r = await invokeOperation(createHandlers({ version: '0', core: c, surface: 'control' }), 'control', 'approval.reveal', { id: p.id });
    expect(r).toEqual({ ok: false, error: { code: 'unknown_operation', message: 'There is no operation "approval.reveal".' } });
    await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'skip', surface: 'control' });
    await review;
  });

  it('refuses params with anything but the id', async () => {
    const c = await core();
    const r = await invokeOperation(createHandlers({ version: '0', core: c, surface: 'desktop' }), 'ui', 'approval.reveal', { id: 'ap_1', all: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
  });
});
