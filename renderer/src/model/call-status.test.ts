import { describe, expect, it } from 'vitest';
import type { CallState } from '../../../common/call-state';
import { advance, callStatus, type CallStatusInput } from './call-status';

const input = (i: Partial<CallStatusInput>): CallStatusInput => ({ live: null, stored: null, waiting: false, result: null, ...i });

describe("the chat's row of a call reads the stored record, advanced by live events", () => {
  it.each<[string, Partial<CallStatusInput>, CallState]>([
    ['a refused call whose result is an error text is refused, not failed', { stored: 'refused', result: 'error' }, 'refused'],
    ['a call the policy denied is denied', { stored: 'denied', result: 'error' }, 'denied'],
    ['a call waiting after a restart (its result says so, as an error) waits for you', { stored: 'awaiting_approval', waiting: true, result: 'error' }, 'awaiting_approval'],
    ['a parked call the page saw only as classifying waits for you once the card is there', { live: 'classifying', waiting: true }, 'awaiting_approval'],
    ['a call left classifying by a killed daemon shows how the restart ended it', { live: 'classifying', stored: 'not_run', result: 'error' }, 'not_run'],
    ['a running call the restart interrupted is interrupted', { live: 'executing', stored: 'interrupted' }, 'interrupted'],
    ['a live event further along than the loaded record wins', { live: 'executing', stored: 'scheduled' }, 'executing'],
    ['a late event of an earlier step does not move the call back', { live: 'classifying', stored: 'awaiting_approval' }, 'awaiting_approval'],
    ['an ended call is not waiting, even if a stale card says so', { stored: 'refused', waiting: true }, 'refused'],
    ['the stored end wins over a live end that disagrees', { live: 'denied', stored: 'refused' }, 'refused'],
    ['only a call the store holds no row for falls back to its result', { result: 'error' }, 'failed'],
    ['nothing known yet: received', {}, 'received'],
  ])('%s', (_name, given, expected) => {
    expect(callStatus(input(given))).toEqual(expected);
  });

  it.each<[CallState | null, CallState, CallState]>([
    [null, 'received', 'received'],
    ['classifying', 'awaiting_approval', 'awaiting_approval'],
    ['awaiting_approval', 'classifying', 'awaiting_approval'],
    ['executing', 'succeeded', 'succeeded'],
    ['succeeded', 'executing', 'succeeded'],
    ['denied', 'refused', 'refused'],
  ])('a report of %s then %s leaves %s', (prev, next, expected) => {
    expect(advance(prev, next)).toEqual(expected);
  });
});
