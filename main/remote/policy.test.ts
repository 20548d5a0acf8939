import { describe, expect, it } from 'vitest';
import type { HumanOutcome } from '../../common/approvals';
import type { Class } from '../../common/domain';
import { remoteMayChoose, remoteOffer } from './policy';

const ALL: HumanOutcome[] = ['approve_once', 'approve_session', 'approve_always', 'approve_all_session', 'skip', 'deny'];
const card = (cls: Class, floor: string | null = null, outcomes = ALL) => ({ class: cls, floor, outcomes });

// What a remote surface may choose. Each line that offers less is a way a phone or a chat could otherwise
// approve more than one call, something above max_class, a floor, or something it never showed.
describe('what a remote surface is offered', () => {
  it.each([
    { name: 'a write card under max_class network', c: card('write'), cfg: { maxClass: 'network' as const, content: 'summary' as const }, surface: 'chat' as const, outcomes: ['approve_once', 'skip', 'deny'], desk: false },
    { name: 'a network card at max_class network', c: card('network'), cfg: { maxClass: 'network' as const, content: 'summary' as const }, surface: 'chat' as const, outcomes: ['approve_once', 'skip', 'deny'], desk: false },
    { name: 'an install card above max_class network', c: card('install'), cfg: { maxClass: 'network' as const, content: 'summary' as const }, surface: 'chat' as const, outcomes: ['skip', 'deny'], desk: true },
    { name: 'a read card above max_class read? (read is never above)', c: card('read'), cfg: { maxClass: 'read' as const, content: 'summary' as const }, surface: 'phone' as const, outcomes: ['approve_once', 'skip', 'deny'], desk: false },
    { name: 'a floor card at a loose max_class', c: card('write', 'secret_read', ['approve_once', 'skip', 'deny']), cfg: { maxClass: 'install' as const, content: 'summary' as const }, surface: 'phone' as const, outcomes: ['skip', 'deny'], desk: true },
    { name: 'a destructive card at the loosest max_class', c: card('destructive', 'destructive', ['approve_once', 'skip', 'deny']), cfg: { maxClass: 'install' as const, content: 'summary' as const }, surface: 'chat' as const, outcomes: ['skip', 'deny'], desk: true },
    { name: 'content none in a chat (the call is not shown)', c: card('read'), cfg: { maxClass: 'network' as const, content: 'none' as const }, surface: 'chat' as const, outcomes: ['skip', 'deny'], desk: true },
    { name: 'content none does not blind the paired phone (it shows the card)', c: card('read'), cfg: { maxClass: 'network' as const, content: 'none' as const }, surface: 'phone' as const, outcomes: ['approve_once', 'skip', 'deny'], desk: false },
    { name: 'a card that offers only deny', c: card('write', null, ['deny']), cfg: { maxClass: 'network' as const, content: 'summary' as const }, surface: 'chat' as const, outcomes: ['deny'], desk: false },
  ])('$name', ({ c, cfg, surface, outcomes, desk }) => {
    const offer = remoteOffer(c, cfg, surface);
    expect({ outcomes: offer.outcomes, desk: offer.deskOnly !== null }).toEqual({ outcomes, desk });
  });

  it.each(['approve_session', 'approve_always', 'approve_all_session', 'expired', 'cancelled', 'no_approver', 'APPROVE_ONCE', ''])('"%s" is never chosen remotely, whatever the card offers', (o) => {
    expect(remoteMayChoose(o, card('read'), { maxClass: 'install', content: 'summary' }, 'phone')).toBe(false);
  });
});
