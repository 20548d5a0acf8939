import { describe, expect, it } from 'vitest';
import { routeChatReply } from './yes-no';

const card = (id: string) => ({ id });

describe('a reply in the message box never decides a card', () => {
  it.each([
    ['"yes" with a card waiting points to the card (it decides nothing)', 'yes', [card('ap_1')], { kind: 'point_to_card', approvalId: 'ap_1' }],
    ['"no" points to the card too (Deny is on the card)', 'no', [card('ap_1')], { kind: 'point_to_card', approvalId: 'ap_1' }],
    ['"Yes." and "ok" and "approve" are the same', 'Yes.', [card('ap_1')], { kind: 'point_to_card', approvalId: 'ap_1' }],
    ['"ok" points to the card', ' ok ', [card('ap_1')], { kind: 'point_to_card', approvalId: 'ap_1' }],
    ['with two cards it points to the oldest', 'approve', [card('ap_1'), card('ap_2')], { kind: 'point_to_card', approvalId: 'ap_1' }],
    ['"yes please" is a message', 'yes please', [card('ap_1')], { kind: 'message' }],
    ['with no card in this chat "yes" is a message to the agent', 'yes', [], { kind: 'message' }],
  ])('%s', (_name, text, waiting, expected) => {
    expect(routeChatReply(text, waiting)).toEqual(expected);
  });
});
