import { describe, expect, it } from 'vitest';
import { blockWindow, decidedByText, durationText, outcomeText, pagesFor, pagesToEvict, toJsonl, visibleRange } from './history';

describe('windowing', () => {
  it.each([
    { name: 'the top of a long list', args: [0, 360, 36, 100_000, 2] as const, expected: { first: 0, last: 12 } },
    { name: 'the middle of a long list', args: [36_000, 360, 36, 100_000, 2] as const, expected: { first: 998, last: 1012 } },
    { name: 'the very end of a long list', args: [3_600_000 - 360, 360, 36, 100_000, 2] as const, expected: { first: 99_988, last: 99_999 } },
    { name: 'a list shorter than the viewport', args: [0, 900, 36, 3, 8] as const, expected: { first: 0, last: 2 } },
    { name: 'an empty list', args: [0, 900, 36, 0, 8] as const, expected: { first: 0, last: -1 } },
    { name: 'a scroll position past the end (the list shrank)', args: [50_000, 360, 36, 10, 2] as const, expected: { first: 9, last: 9 } },
  ])('renders only the rows in view at $name', ({ args, expected }) => {
    expect(visibleRange(args[0], args[1], args[2], args[3], args[4])).toEqual(expected);
  });

  it.each([
    { name: 'the top of a long list (no block above the first)', scrollTop: 0, expected: { first: 0, last: 15 } },
    { name: 'a position inside a block (the same window as the block start)', scrollTop: 36 * 1001, expected: { first: 996, last: 1015 } },
    { name: 'the block start itself', scrollTop: 36 * 1000, expected: { first: 996, last: 1015 } },
    { name: 'the next block', scrollTop: 36 * 1004, expected: { first: 1000, last: 1019 } },
    { name: 'the very end of the list (no block below the last)', scrollTop: 36 * 99_990, expected: { first: 99_984, last: 99_999 } },
  ])('moves the rendered rows a whole block at a time: $name', ({ scrollTop, expected }) => {
    expect(blockWindow(scrollTop, 360, 36, 100_000, 4)).toEqual(expected);
  });

  it.each([
    { name: 'an empty list', total: 0, expected: { first: 0, last: -1 } },
    { name: 'a list shorter than a block', total: 3, expected: { first: 0, last: 2 } },
  ])('renders every row there is for $name', ({ total, expected }) => {
    expect(blockWindow(0, 900, 36, total, 4)).toEqual(expected);
  });

  it.each([
    { name: 'rows inside one page', first: 10, last: 40, expected: [0] },
    { name: 'rows across a page boundary', first: 190, last: 210, expected: [0, 1] },
    { name: 'no rows', first: 0, last: -1, expected: [] },
  ])('loads the pages holding $name', ({ first, last, expected }) => {
    expect(pagesFor(first, last, 200)).toEqual(expected);
  });

  it('forgets the pages farthest from the one in view', () => {
    expect(pagesToEvict([0, 1, 2, 50, 51, 52], 51, 4)).toEqual([0, 1]);
    expect(pagesToEvict([0, 1], 0, 4)).toEqual([]);
  });
});

describe('words for a call', () => {
  it.each([
    { by: { decided_by: 'web', by: { kind: 'human', surface: 'web' } as const, decider: 'person' as const }, expected: 'A person (web)' },
    { by: { decided_by: 'person:telegram:123456789', by: { kind: 'remote', via: 'telegram', who: '123456789' } as const, decider: 'remote' as const }, expected: 'person via telegram:123456789' },
    { by: { decided_by: 'person:phone:dev_1', by: { kind: 'remote', via: 'phone', who: 'dev_1' } as const, decider: 'remote' as const }, expected: 'person via phone:dev_1' },
    { by: { decided_by: 'grant:gr_1,gr_2', by: { kind: 'grant', grantIds: ['gr_1', 'gr_2'] } as const, decider: 'grant' as const }, expected: 'A grant (gr_1,gr_2)' },
    { by: { decided_by: 'level:auto-edit', by: { kind: 'level', level: 'auto-edit' } as const, decider: 'level' as const }, expected: 'The level (auto-edit)' },
    { by: { decided_by: 'rule:tool:web_fetch=deny', by: { kind: 'rule', on: 'tool', tool: 'web_fetch', value: 'deny' } as const, decider: 'rule' as const }, expected: 'A rule (tool:web_fetch=deny)' },
    { by: { decided_by: 'ttl', by: { kind: 'timeout' } as const, decider: 'timeout' as const }, expected: 'A timeout (ttl)' },
    { by: { decided_by: 'unattended_turn', by: { kind: 'no_approver', why: 'unattended_turn' } as const, decider: 'nobody' as const }, expected: 'Nobody there (unattended_turn)' },
    { by: { decided_by: 'reviewer:default', by: { kind: 'reviewer', reviewers: [{ name: 'default', model: 'm' }] } as const, decider: 'reviewer' as const }, expected: 'The reviewer (default)' },
    { by: { decided_by: 'session_approve_all', by: { kind: 'session_approve_all' } as const, decider: 'earlier_approval' as const }, expected: 'Approve all (this session)' },
    { by: { decided_by: 'something:new', by: null, decider: null }, expected: 'something:new' },
    { by: { decided_by: null, by: null, decider: null }, expected: 'Not decided yet' },
  ])('says "$expected" for $by.decided_by', ({ by, expected }) => {
    expect(decidedByText(by)).toEqual(expected);
  });

  it.each([
    { r: { state: 'failed' as const, execution: { status: 'failed' as const, exit_code: 2, signal: null, duration_ms: 5, error: null, recorded_at: 1 } }, expected: 'Failed (exit 2)' },
    { r: { state: 'succeeded' as const, execution: null }, expected: 'Succeeded' },
    { r: { state: 'denied' as const, execution: null }, expected: 'Refused' },
    { r: { state: 'awaiting_approval' as const, execution: null }, expected: 'Waiting for you' },
  ])('says "$expected" for a $r.state call', ({ r, expected }) => {
    expect(outcomeText(r)).toEqual(expected);
  });

  it.each([
    { ms: null, expected: '–' },
    { ms: 12, expected: '12 ms' },
    { ms: 3400, expected: '3.4 s' },
    { ms: 125_000, expected: '2 min 05 s' },
  ])('gives a duration of $ms ms as "$expected"', ({ ms, expected }) => {
    expect(durationText(ms)).toEqual(expected);
  });

  it('exports one JSON object a line', () => {
    expect(toJsonl([{ id: 'a' }, { id: 'b' }])).toEqual('{"id":"a"}\n{"id":"b"}\n');
    expect(toJsonl([])).toEqual('');
  });
});
