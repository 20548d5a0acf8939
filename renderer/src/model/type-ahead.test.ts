import { describe, expect, it } from 'vitest';
import { ARMING_MS, cardShortcut, clickMayDecide, FOCUS_CLICK_MS, isSendChord, keyMayDecide, QUIET_MS, type KeyFacts } from './type-ahead';

const k = (extra: Partial<KeyFacts>): KeyFacts => ({ at: 10_000, previousAt: null, typedAt: null, cardShownAt: 1000, repeat: false, composing: false, ...extra });

describe('a key decides only on purpose', () => {
  it.each([
    ['a key pressed before the card appeared refuses nothing and approves nothing', 'refuse', k({ at: 900 }), { ok: false, why: 'before_card' }],
    ['a key pressed as the card appeared does not decide', 'run', k({ at: 1000 }), { ok: false, why: 'before_card' }],
    ['a key within the arming time of the card does not decide', 'refuse', k({ at: 1000 + ARMING_MS - 1 }), { ok: false, why: 'before_card' }],
    ['a held key (auto-repeat) never decides', 'refuse', k({ repeat: true }), { ok: false, why: 'repeat' }],
    ['a key finishing an IME composition never decides', 'run', k({ composing: true }), { ok: false, why: 'composing' }],
    ['Enter 0.2 s after typing in the message box (Tab, then Enter) does not deny', 'refuse', k({ typedAt: 10_000 - 200, previousAt: 10_000 - 100 }), { ok: false, why: 'typing' }],
    ['Enter 0.2 s after typing in the message box does not approve', 'run', k({ typedAt: 10_000 - 200, previousAt: 10_000 - 100 }), { ok: false, why: 'typing' }],
    ['Tab, Tab, Enter in one burst does not approve', 'run', k({ previousAt: 10_000 - 150 }), { ok: false, why: 'too_fast' }],
    ['Tab, Tab, Enter in one burst does deny (Deny stays fast)', 'refuse', k({ previousAt: 10_000 - 150 }), { ok: true }],
    ['Skip or Deny after a note typed in the card itself is fine (that typing is not counted)', 'refuse', k({ previousAt: 10_000 - 50 }), { ok: true }],
    ['a key a quiet second after the one before approves', 'run', k({ previousAt: 10_000 - QUIET_MS, typedAt: 10_000 - 5000 }), { ok: true }],
    ['a first key ever, after the card was armed, approves', 'run', k({}), { ok: true }],
  ] as const)('%s', (_name, weight, facts, expected) => {
    expect(keyMayDecide(weight, facts)).toEqual(expected);
  });
});

describe('a click decides only on purpose', () => {
  it.each([
    ['an approval click as the card slides under the pointer is refused', 'run', { at: 1100, cardShownAt: 1000, windowFocusedAt: null }, { ok: false, why: 'before_card' }],
    ['a Deny click at once is taken (Deny stays fast)', 'refuse', { at: 1100, cardShownAt: 1000, windowFocusedAt: null }, { ok: true }],
    ['the click that brought the window forward does not approve', 'run', { at: 5100, cardShownAt: 1000, windowFocusedAt: 5000 }, { ok: false, why: 'focus_click' }],
    ['a click once the window is in front approves', 'run', { at: 5000 + FOCUS_CLICK_MS, cardShownAt: 1000, windowFocusedAt: 5000 }, { ok: true }],
    ['the click that brought the window forward may deny', 'refuse', { at: 5100, cardShownAt: 1000, windowFocusedAt: 5000 }, { ok: true }],
  ] as const)('%s', (_name, weight, facts, expected) => {
    expect(clickMayDecide(weight, facts)).toEqual(expected);
  });
});

describe('keys on a focused card', () => {
  const key = (name: string, extra: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; inTextField: boolean }> = {}) => ({ key: name, ctrlKey: false, metaKey: false, altKey: false, inTextField: false, ...extra });
  it.each([
    ['Y approves once', key('y'), 'approve_once'],
    ['Shift+Y approves once too', key('Y'), 'approve_once'],
    ['S skips', key('s'), 'skip'],
    ['N denies', key('n'), 'deny'],
    ['A does nothing (no key means always allow or approve all)', key('a'), null],
    ['Enter alone does nothing on the card itself', key('Enter'), null],
    ['Escape does nothing', key('Escape'), null],
    ['digits do nothing', key('1'), null],
    ['Y typed into a text field of the card does nothing', key('y', { inTextField: true }), null],
    ['Ctrl+Y does nothing', key('y', { ctrlKey: true }), null],
    ['Alt+N does nothing', key('n', { altKey: true }), null],
  ])('%s', (_name, e, expected) => {
    expect(cardShortcut(e)).toEqual(expected);
  });
});

describe('the message box', () => {
  const chord = (extra: Partial<{ key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }>) => ({ key: 'Enter', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...extra });
  it.each([
    ['Ctrl+Enter sends', chord({ ctrlKey: true }), true],
    ['Cmd+Enter sends', chord({ metaKey: true }), true],
    ['Enter alone is not the chord (it sends on its own)', chord({}), false],
    ['Ctrl+Shift+Enter is not', chord({ ctrlKey: true, shiftKey: true }), false],
    ['Ctrl+Alt+Enter is not', chord({ ctrlKey: true, altKey: true }), false],
  ])('%s', (_name, e, expected) => {
    expect(isSendChord(e)).toEqual(expected);
  });
});
