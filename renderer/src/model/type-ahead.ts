// Deliberate decisions: a key or a click meant for something else must never decide an approval. Pure,
// with times passed in (renderer/src/key-clock.ts records them).
//
// The rules, strongest first:
// - Nothing typed in the message box decides anything: the card only listens to keys whose focus is on
//   the card itself, and there is no global shortcut that approves.
// - A held key (auto-repeat) and a key that finishes an IME composition never decide.
// - A key or click too soon after the card appeared (ARMING_MS) never decides: the card may have just
//   slid under the pointer or the cursor.
// - A key pressed within QUIET_MS of typing into a text field outside the card never decides (a
//   Tab-then-Enter race out of the message box).
// - What lets something run (approve once, for the session, always, approve all) needs more: a key is
//   refused within QUIET_MS of any other key (Tab, Tab, Enter in one burst), and a click is refused when
//   it is the click that brought the window forward. Deny and Skip refuse the call, so they stay fast.

/** Quiet time after typing before a key may decide. */
export const QUIET_MS = 1000;
/** A card's keys and approval buttons wait this long after it appears. */
export const ARMING_MS = 400;
/** A click this soon after the window came forward is taken as the click that brought it forward. */
export const FOCUS_CLICK_MS = 300;

/** What a decision does: `run` lets the call run (or more); `refuse` keeps it from running. */
export type DecisionWeight = 'run' | 'refuse';

export interface KeyFacts {
  /** When this key went down (ms, the same clock as the others). */
  at: number;
  /** When the previous key anywhere went down, or null if none. */
  previousAt: number | null;
  /** When the last key typed into a text field outside any card went down, or null. */
  typedAt: number | null;
  /** When the card became visible. */
  cardShownAt: number;
  repeat: boolean;
  /** The key belongs to an IME composition (its Enter confirms text, it is not an answer). */
  composing: boolean;
}

export type KeyVerdict = { ok: true } | { ok: false; why: 'before_card' | 'typing' | 'repeat' | 'composing' | 'too_fast' };

export function keyMayDecide(weight: DecisionWeight, k: KeyFacts): KeyVerdict {
  if (k.repeat) return { ok: false, why: 'repeat' };
  if (k.composing) return { ok: false, why: 'composing' };
  if (k.at - k.cardShownAt < ARMING_MS) return { ok: false, why: 'before_card' };
  if (k.typedAt !== null && k.at - k.typedAt < QUIET_MS) return { ok: false, why: 'typing' };
  if (weight === 'run' && k.previousAt !== null && k.at - k.previousAt < QUIET_MS) return { ok: false, why: 'too_fast' };
  return { ok: true };
}

export interface ClickFacts {
  at: number;
  cardShownAt: number;
  /** When the window last came forward (focus event), or null. */
  windowFocusedAt: number | null;
}

export type ClickVerdict = { ok: true } | { ok: false; why: 'before_card' | 'focus_click' };

export function clickMayDecide(weight: DecisionWeight, c: ClickFacts): ClickVerdict {
  if (weight === 'run' && c.at - c.cardShownAt < ARMING_MS) return { ok: false, why: 'before_card' };
  if (weight === 'run' && c.windowFocusedAt !== null && c.at - c.windowFocusedAt >= 0 && c.at - c.windowFocusedAt < FOCUS_CLICK_MS) return { ok: false, why: 'focus_click' };
  return { ok: true };
}

/** Why a key or click was not taken, in words on the card. */
export const REFUSED_WORDS: Record<Exclude<KeyVerdict, { ok: true }>['why'] | Exclude<ClickVerdict, { ok: true }>['why'], string> = {
  before_card: 'That was ignored: the card had only just appeared. Press it again.',
  typing: 'That key was ignored: it came within a second of typing in a text box. Press it again.',
  repeat: 'That key was ignored: a held-down key never decides.',
  composing: 'That key was ignored: it was finishing text being composed.',
  too_fast: 'That key was ignored: a key that lets the call run must come a second after the key before it. Press it again.',
  focus_click: 'That click only brought the window forward. Click again to decide.',
};

/** Keys that only change modifiers: they neither count as typing nor decide. */
export function isModifierKey(key: string): boolean {
  return key === 'Shift' || key === 'Control' || key === 'Alt' || key === 'Meta' || key === 'AltGraph' || key === 'CapsLock' || key === 'OS';
}

export type CardKeyAction = 'approve_once' | 'skip' | 'deny';

/**
 * Single-key shortcuts, only while the card itself (not a text field in it) has focus. No key means
 * any wider approval (session, always, all): those take their own button. Any modifier means no.
 */
export function cardShortcut(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; inTextField: boolean }): CardKeyAction | null {
  if (e.inTextField || e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key.toLowerCase()) {
    case 'y':
      return 'approve_once';
    case 's':
      return 'skip';
    case 'n':
      return 'deny';
    default:
      return null;
  }
}

/** Ctrl+Enter (Cmd+Enter on macOS) in the message box sends the message, as in most chat apps; it never decides. */
export function isSendChord(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): boolean {
  return e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
}
