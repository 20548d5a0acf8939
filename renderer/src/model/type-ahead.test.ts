import { describe, expect, it } from 'vitest';
import { cardShortcut, isApproveChord, keyMayDecide, QUIET_MS } from './type-ahead';

describe('type-ahead safety', () => {
  it.each([
    ['a key pressed before the card appeared does not decide', { at: 100, previousAt: null, cardShownAt: 200, repeat: false }, { ok: false, why: 'before_card' }],
    ['a key pressed at the very moment the card appeared does not decide', { at: 200, previousAt: null, cardShownAt: 200, repeat: false }, { ok: false, why: 'before_card' }],
    ['a key within a second of other typing does not decide', { at: 1500, previousAt: 1500 - QUIET_MS + 1, cardShownAt: 200, repeat: false }, { ok: false, why: 'typing' }],
    ['a held key (auto-repeat) never decides', { at: 5000, previousAt: 1000, cardShownAt: 200, repeat: true }, { ok: false, why: 'repeat' }],
    ['a key after the card appeared and a quiet second decides', { at: 5000, previousAt: 5000 - QUIET_MS, cardShownAt: 200, repeat: false }, { ok: true }],
    ['a first key ever, after the card appeared, decides', { at: 300, previousAt: null, cardShownAt: 200, repeat: false }, { ok: true }],
  ])('%s', (_name, facts, expected) => {
    expect(keyMayDecide(facts)).toEqual(expected);
  });

  const key = (k: string, extra: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; inTextField: boolean }> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, inTextField: false, ...extra });
  it.each([
    ['Y approves once', key('y'), 'approve_once'],
    ['Shift+Y approves once too', key('Y'), 'approve_once'],
    ['S skips', key('s'), 'skip'],
    ['N denies', key('n'), 'deny'],
    ['A does nothing (no key means always allow)', key('a'), null],
    ['Enter alone does nothing on the card itself', key('Enter'), null],
    ['digits do nothing', key('1'), null],
    ['Y typed into a text field of the card does nothing', key('y', { inTextField: true }), null],
    ['Ctrl+Y does nothing', key('y', { ctrlKey: true }), null],
  ])('card key: %s', (_name, e, expected) => {
    expect(cardShortcut(e)).toEqual(expected);
  });

  const chord = (extra: Partial<{ key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }>) => ({ key: 'Enter', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...extra });
  it.each([
    ['Ctrl+Enter is the approve-once chord', chord({ ctrlKey: true }), true],
    ['Cmd+Enter is the approve-once chord', chord({ metaKey: true }), true],
    ['Enter alone is not', chord({}), false],
    ['Ctrl+Shift+Enter is not', chord({ ctrlKey: true, shiftKey: true }), false],
    ['Ctrl+Alt+Enter is not', chord({ ctrlKey: true, altKey: true }), false],
    ['Ctrl+Y is not', chord({ key: 'y', ctrlKey: true }), false],
  ])('%s', (_name, e, expected) => {
    expect(isApproveChord(e)).toEqual(expected);
  });
});
