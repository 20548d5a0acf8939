// Type-ahead safety: a keystroke meant for the message box must never decide an approval. A key may
// act on a card only when the card was on screen before the key went down and nothing was typed in
// the second before it; a held key (auto-repeat) never acts. Pure, with times passed in.

/** Quiet time after the last keystroke before a key may decide. */
export const QUIET_MS = 1000;

export interface KeyFacts {
  /** When this key went down (ms, the same clock as the others). */
  at: number;
  /** When the previous keystroke anywhere went down, or null if none. */
  previousAt: number | null;
  /** When the card became visible. */
  cardShownAt: number;
  repeat: boolean;
}

export type KeyVerdict = { ok: true } | { ok: false; why: 'before_card' | 'typing' | 'repeat' };

export function keyMayDecide(k: KeyFacts): KeyVerdict {
  if (k.repeat) return { ok: false, why: 'repeat' };
  if (k.at <= k.cardShownAt) return { ok: false, why: 'before_card' };
  if (k.previousAt !== null && k.at - k.previousAt < QUIET_MS) return { ok: false, why: 'typing' };
  return { ok: true };
}

/** Keys that only change modifiers: they neither count as typing nor decide. */
export function isModifierKey(key: string): boolean {
  return key === 'Shift' || key === 'Control' || key === 'Alt' || key === 'Meta' || key === 'AltGraph' || key === 'CapsLock' || key === 'OS';
}

export type CardKeyAction = 'approve_once' | 'skip' | 'deny';

/**
 * Single-key shortcuts, only while the card itself (not a text field in it) has focus. No key means
 * any wider approval (session, always, all): those take a click or Tab+Enter on their own button.
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

/** The chord that approves the oldest card once from anywhere: Ctrl+Enter (Cmd+Enter on macOS). */
export function isApproveChord(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): boolean {
  return e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
}
