import { describe, expect, it } from 'vitest';
import { routeChatReply } from './yes-no';

const card = (id: string, shownAt: number, outcomes = ['approve_once', 'skip', 'deny']) => ({ id, shownAt, outcomes });

describe('"yes" and "no" in chat answer the one waiting card', () => {
  it.each([
    ['"yes" typed after the card approves it once', 'yes', [card('ap_1', 100)], 200, { kind: 'decide', approvalId: 'ap_1', outcome: 'approve_once' }],
    ['"no" denies it', 'no', [card('ap_1', 100)], 200, { kind: 'decide', approvalId: 'ap_1', outcome: 'deny' }],
    ['case and surrounding spaces do not matter', '  YES ', [card('ap_1', 100)], 200, { kind: 'decide', approvalId: 'ap_1', outcome: 'approve_once' }],
    ['"yes please" is a message', 'yes please', [card('ap_1', 100)], 200, { kind: 'message' }],
    ['"yes." is a message', 'yes.', [card('ap_1', 100)], 200, { kind: 'message' }],
    ['with two cards waiting it is a message', 'yes', [card('ap_1', 100), card('ap_2', 150)], 200, { kind: 'message' }],
    ['with no card it is a message', 'yes', [], 200, { kind: 'message' }],
    ['a reply begun before the card appeared is a message', 'yes', [card('ap_1', 300)], 200, { kind: 'message' }],
    ['a reply with no typing time is a message', 'yes', [card('ap_1', 100)], null, { kind: 'message' }],
    ['a card that offers no approve_once is not approved by "yes"', 'yes', [card('ap_1', 100, ['skip', 'deny'])], 200, { kind: 'message' }],
  ])('%s', (_name, text, waiting, draftStartedAt, expected) => {
    expect(routeChatReply(text, waiting, draftStartedAt)).toEqual(expected);
  });
});
