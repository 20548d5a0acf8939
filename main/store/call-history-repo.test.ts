// The history of calls through the real gate: every way a call is decided lands in it, with its decider,
// and the filters and both kinds of paging return what they say.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DECIDER_GROUPS, deciderGroupOf, kindsOfGroup, type CallRecord } from '../../common/history';
import { formatDecidedBy, type DecidedBy } from '../../common/decided-by';
import { nextPending, shellCall, testCore } from '../../test/support/core';
import type { ThresholdCore } from '../runtime/core';
import { CursorError } from './call-history-repo';

// The classifier loads once per file; on a busy machine that outlasts the default hook timeout.
vi.setConfig({ hookTimeout: 60_000 });

let c: ThresholdCore;
/** The calls made, oldest first, by name. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  c = await testCore({ config: { rules: { effects: {}, tools: { web_fetch: 'deny' } } } as never, ttlSeconds: 0.05 });
  const ls = await c.calls.review(shellCall('ls -la'));
  ids['level'] = ls.callId;
  c.calls.recordOutcome(ls.callId, { status: 'succeeded', exit_code: 0, signal: null, duration_ms: 12 });
  c.createGrant({ tool: 'run_command', pattern: { kind: 'argv', argv: ['npm', 'test'] } }, 'control');
  const npm = await c.calls.review(shellCall('npm test'));
  ids['grant'] = npm.callId;
  c.calls.recordOutcome(npm.callId, { status: 'failed', exit_code: 1, signal: null, duration_ms: 340, error: '1 test failed' });
  ids['rule'] = (await c.calls.review({ ...shellCall(''), tool: 'web_fetch', args: { url: 'https://example.com/' } })).callId;
  const asked = c.calls.review(shellCall('touch notes.md'));
  const p = await nextPending(c);
  await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'web' });
  ids['person'] = (await asked).callId;
  ids['timeout'] = (await c.calls.review(shellCall('touch expired.md'))).callId;
  ids['nobody'] = (await c.calls.review(shellCall('touch c.md', { turnKind: 'unattended', sessionId: 's2', turnId: 't2' }))).callId;
});
afterAll(() => c.dispose());

const row = (r: CallRecord) => [r.summary, r.decided_by?.replace(/gr_\w+/, 'gr_…'), r.decider, r.state, r.approval?.outcome ?? null, r.execution ? [r.execution.status, r.execution.exit_code, r.execution.duration_ms] : null];

describe('the history of calls', () => {
  it('holds every call, newest first: those the level, a grant or a rule decided without a prompt as well as those a person, the TTL or nobody answered', () => {
    expect(c.store.history.list({ limit: 50, with_total: true }).calls.map(row)).toEqual([
      ['touch c.md', 'unattended_turn', 'nobody', 'denied', 'no_approver', null],
      ['touch expired.md', 'ttl', 'timeout', 'refused', 'expired', null],
      ['touch notes.md', 'web', 'person', 'scheduled', 'approve_once', null],
      ['https://example.com/', 'rule:tool:web_fetch=deny', 'rule', 'denied', null, null],
      ['npm test', 'grant:gr_…', 'grant', 'failed', null, ['failed', 1, 340]],
      ['ls -la', 'level:supervised', 'level', 'succeeded', null, ['succeeded', 0, 12]],
    ]);
  });

  it.each([
    { name: 'decided by a person', filter: { decided_by: 'person' as const }, expected: ['person'] },
    { name: 'decided by a grant', filter: { decided_by: 'grant' as const }, expected: ['grant'] },
    { name: 'decided by the level', filter: { decided_by: 'level' as const }, expected: ['level'] },
    { name: 'decided by a rule', filter: { decided_by: 'rule' as const }, expected: ['rule'] },
    { name: 'decided by a timeout', filter: { decided_by: 'timeout' as const }, expected: ['timeout'] },
    { name: 'decided with nobody there', filter: { decided_by: 'nobody' as const }, expected: ['nobody'] },
    { name: 'decided by the reviewer (none yet)', filter: { decided_by: 'reviewer' as const }, expected: [] },
    { name: 'refused (denied or refused)', filter: { state: ['denied' as const, 'refused' as const] }, expected: ['nobody', 'timeout', 'rule'] },
    { name: 'of one tool', filter: { tool: 'web_fetch' }, expected: ['rule'] },
    { name: 'of one class', filter: { class: 'read' as const }, expected: ['level'] },
    { name: 'of one session', filter: { session_id: 's2' }, expected: ['nobody'] },
    { name: 'holding a text, in any case', filter: { text: 'NOTES' }, expected: ['person'] },
    { name: 'holding a text with a LIKE wildcard, taken literally', filter: { text: '%' }, expected: [] },
    { name: 'matching two filters at once', filter: { tool: 'run_command', decided_by: 'level' as const }, expected: ['level'] },
  ])('lists the calls $name', ({ filter, expected }) => {
    const page = c.store.history.list({ limit: 50, with_total: true, ...filter });
    expect({ calls: page.calls.map((r) => r.id), total: page.total }).toEqual({ calls: expected.map((k) => ids[k]), total: expected.length });
  });

  it('pages by cursor to the end, each call once, in order', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = c.store.history.list({ limit: 4, cursor });
      seen.push(...page.calls.map((r) => r.id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(['nobody', 'timeout', 'person', 'rule', 'grant', 'level'].map((k) => ids[k]));
  });

  it('pages by offset under upto: a call made meanwhile does not shift the pages', async () => {
    const first = c.store.history.list({ limit: 2, with_total: true });
    const later = await c.calls.review(shellCall('pwd', { sessionId: 's3', turnId: 't3' }));
    const second = c.store.history.list({ limit: 2, offset: 2, upto: first.upto!, with_total: true });
    const fresh = c.store.history.list({ limit: 1 });
    expect({ first: first.calls.map((r) => r.id), second: second.calls.map((r) => r.id), totals: [first.total, second.total], newest: fresh.calls[0]!.id }).toEqual({
      first: [ids['nobody'], ids['timeout']],
      second: [ids['person'], ids['rule']],
      totals: [6, 6],
      newest: later.callId,
    });
  });

  it.each([
    { name: 'a cursor it never gave out', query: { cursor: 'yesterday' }, field: 'cursor' },
    { name: 'an upto it never gave out', query: { upto: '12:00' }, field: 'upto' },
  ])('refuses $name, naming the field', ({ query, field }) => {
    expect(() => c.store.history.list({ limit: 5, ...query })).toThrow(new CursorError(field));
  });

  it('never finds a call by a secret it held: the search runs on the redacted arguments, which hold the secret no more', async () => {
    const secret = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    const v = await c.calls.review(shellCall(`echo ${secret}`, { sessionId: 's4', turnId: 't4' }));
    const bySecret = c.store.history.list({ limit: 5, text: secret.slice(0, 20) });
    const byRest = c.store.history.list({ limit: 5, session_id: 's4' });
    expect({ bySecret: bySecret.calls.length, shown: byRest.calls[0]!.summary.includes(secret), found: byRest.calls[0]!.id, detail: JSON.stringify(c.store.history.get(v.callId)!.args).includes(secret) }).toEqual({ bySecret: 0, shown: false, found: v.callId, detail: false });
  });

  it('gives one call in full: arguments, explanation, the approval as asked and decided', () => {
    const d = c.store.history.get(ids['person']!)!;
    expect({ args: d.args, effects: d.effects, explains: typeof d.explanation, asked: d.asked && { outcome: d.asked.outcome, decided_by: d.asked.decided_by, reason: d.asked.reason === d.explanation } }).toEqual({
      args: { command: 'touch notes.md' },
      effects: ['command_exec', 'file_write'],
      explains: 'string',
      asked: { outcome: 'approve_once', decided_by: 'web', reason: true },
    });
    expect(c.store.history.get('call_nonexistent')).toEqual(undefined);
  });
});

describe('decider groups', () => {
  const examples: [DecidedBy, string][] = [
    [{ kind: 'human', surface: 'desktop' }, 'person'],
    [{ kind: 'human', surface: 'control' }, 'person'],
    [{ kind: 'remote', via: 'telegram', who: '123456789' }, 'remote'],
    [{ kind: 'remote', via: 'matrix', who: '@me:example.org' }, 'remote'],
    [{ kind: 'remote', via: 'phone', who: 'dev_abc' }, 'remote'],
    [{ kind: 'grant', grantIds: ['gr_1', 'gr_2'] }, 'grant'],
    [{ kind: 'level', level: 'auto-edit' }, 'level'],
    [{ kind: 'rule', on: 'tool', tool: 'web_fetch', value: 'allow' }, 'rule'],
    [{ kind: 'rule', on: 'effect', effect: 'network', value: 'auto' }, 'rule'],
    [{ kind: 'rule', on: 'effects_auto' }, 'rule'],
    [{ kind: 'earlier_approval', approvalId: 'ap_1', via: 'approve_session' }, 'earlier_approval'],
    [{ kind: 'session_approve_all' }, 'earlier_approval'],
    [{ kind: 'floor', floor: 'hardline' }, 'floor'],
    [{ kind: 'safety', reason: 'parse_error' }, 'floor'],
    [{ kind: 'tool', problem: 'invalid_args' }, 'tool'],
    [{ kind: 'timeout' }, 'timeout'],
    [{ kind: 'no_approver', why: 'unattended_turn' }, 'nobody'],
    [{ kind: 'no_approver', why: 'no_approver_surface' }, 'nobody'],
    [{ kind: 'turn_stopped' }, 'stopped'],
    [{ kind: 'restart' }, 'stopped'],
  ];
  it.each(examples.map(([d, group]) => ({ stored: formatDecidedBy(d), d, group })))('files "$stored" under $group', ({ d, group }) => {
    expect(deciderGroupOf(d)).toEqual(group);
  });
  it('files a reviewer entry under the reviewer (engineer reviewer adds the kind)', () => {
    expect(deciderGroupOf({ kind: 'reviewer', reviewers: [{ name: 'default', model: 'm' }] })).toEqual('reviewer');
  });
  it('gives every group at least one way to match, and no stored form two groups', () => {
    // Each kind names exactly one group (a record, checked by the compiler); each group has a kind.
    const groupsOf = (d: DecidedBy) => DECIDER_GROUPS.filter((g) => kindsOfGroup(g.key).includes(d.kind)).length;
    expect({ groupsWithoutMatch: DECIDER_GROUPS.filter((g) => kindsOfGroup(g.key).length === 0).map((g) => g.key), ambiguous: examples.filter(([d]) => groupsOf(d) !== 1).map(([d]) => formatDecidedBy(d)) }).toEqual({ groupsWithoutMatch: [], ambiguous: [] });
  });
});
