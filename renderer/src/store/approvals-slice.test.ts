import { describe, expect, it } from 'vitest';
import type { DecisionRecord, PendingApproval } from '../../../common/approvals';
import type { AppApi } from '../../../common/operations';
import { createAppStore } from './store';
import type { DecidedBy } from '../../../common/decided-by';

const pending = (id: string, session = 's1', command = `touch ${id}.txt`): PendingApproval => ({
  id,
  session_id: session,
  turn_id: null,
  call_id: `call_${id}`,
  tool: 'run_command',
  args: { command },
  hash: `h_${id}`,
  class: 'write',
  effects: ['file_write'],
  reason: 'Asks.',
  segment: null,
  floor: null,
  outcomes: ['approve_once', 'skip', 'deny'],
  proposed_grant: null,
  created_at: 1,
  expires_at: null,
  orphan: false,
  preview: null,
  origin: { kind: 'control' },
  parts: null,
});

/** The decider a stored word stands for, in these cases: a surface, the time limit, a stopped turn. */
const byOf = (decided_by: string): DecidedBy => (decided_by === 'ttl' ? { kind: 'timeout' } : decided_by === 'turn_stopped' ? { kind: 'turn_stopped' } : { kind: 'human', surface: decided_by });

const decision = (p: PendingApproval, outcome: DecisionRecord['outcome'], decided_by: string): DecisionRecord => ({
  id: p.id,
  session_id: p.session_id,
  call_id: p.call_id,
  tool: p.tool,
  args: p.args,
  hash: p.hash,
  class: p.class,
  reason: p.reason,
  outcome,
  decided_by,
  by: byOf(decided_by),
  decided_at: 2,
  created_at: 1,
  note: null,
  grant_ids: [],
  follow_up: null,
  follow_up_call_id: null,
  execution: null,
});

/** A store over an API whose decide answers when told to (so a broadcast can arrive first). */
function rig(answer: (id: string) => DecisionRecord | { code: string; message: string }) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const api = {
    decide: async (req: { id: string }) => {
      await gate;
      const a = answer(req.id);
      return 'code' in a ? { ok: false, error: a } : { ok: true, value: a };
    },
    listPending: async () => ({ ok: true, value: [] }),
    listSessions: async () => ({ ok: true, value: [] }),
    getTranscript: async () => ({ ok: true, value: [] }),
  } as unknown as AppApi;
  const store = createAppStore(api);
  // A page that is connected (model/connection.ts: nothing is decided while it is not).
  store.setState({ connection: 'open' });
  return { store, release };
}

describe('a card that leaves says how it left', () => {
  it('decided on this page: a "You …" line in its chat and no notice', async () => {
    const p = pending('ap_1');
    const { store, release } = rig(() => decision(p, 'approve_once', 'web'));
    store.getState().onRequested(p);
    const done = store.getState().decide(p.id, 'approve_once');
    release();
    await done;
    const s = store.getState();
    expect({ pending: s.pending.length, settled: s.settled, lines: s.localNotes['s1']?.map((n) => n.text) }).toEqual({ pending: 0, settled: [], lines: ['You approved once: run_command: Run touch ap_1.txt'] });
  });

  it('decided in another window: a notice in its place and the same line in its chat', () => {
    const p = pending('ap_2');
    const { store } = rig(() => ({ code: 'unused', message: '' }));
    store.getState().onRequested(p);
    store.getState().onDecided(decision(p, 'approve_once', 'desktop'));
    const s = store.getState();
    expect({ pending: s.pending.length, settled: s.settled.map((x) => x.text), lines: s.localNotes['s1']?.map((n) => n.text) }).toEqual({
      pending: 0,
      settled: ['Decided in another window: approved once: run_command: Run touch ap_2.txt'],
      lines: ['Decided in another window: approved once: run_command: Run touch ap_2.txt'],
    });
  });

  it('another window wins while this page is asking: the broadcast first, then "already decided" here: said as decided elsewhere', async () => {
    const p = pending('ap_3');
    const { store, release } = rig(() => ({ code: 'already_decided', message: 'Approval ap_3 was already decided.' }));
    store.getState().onRequested(p);
    const done = store.getState().decide(p.id, 'deny');
    store.getState().onDecided(decision(p, 'approve_once', 'web'));
    // Until this page hears back, the card stays (its buttons are busy).
    expect(store.getState().pending.length).toEqual(1);
    release();
    await done;
    expect(store.getState().settled.map((x) => x.text)).toEqual(['Decided in another window: approved once: run_command: Run touch ap_3.txt']);
  });

  it('this page wins while the broadcast arrives first: said as its own decision', async () => {
    const p = pending('ap_4');
    const { store, release } = rig(() => decision(p, 'deny', 'web'));
    store.getState().onRequested(p);
    const done = store.getState().decide(p.id, 'deny');
    store.getState().onDecided(decision(p, 'deny', 'web'));
    release();
    await done;
    expect({ settled: store.getState().settled, lines: store.getState().localNotes['s1']?.map((n) => n.text) }).toEqual({ settled: [], lines: ['You denied: run_command: Run touch ap_4.txt'] });
  });

  it.each([
    ['the time limit', 'expired', 'ttl', 'Expired: nobody decided in time, so it did not run: run_command: Run touch ap_5.txt'],
    ['threshold ctl', 'deny', 'control', 'Decided with threshold ctl: denied: run_command: Run touch ap_5.txt'],
    ['a stopped turn', 'cancelled', 'turn_stopped', 'Cancelled: the turn stopped, so it did not run: run_command: Run touch ap_5.txt'],
  ] as const)('ended by %s: the notice says so', (_n, outcome, by, text) => {
    const p = pending('ap_5');
    const { store } = rig(() => ({ code: 'unused', message: '' }));
    store.getState().onRequested(p);
    store.getState().onDecided(decision(p, outcome, by));
    expect(store.getState().settled.map((x) => x.text)).toEqual([text]);
  });
});
