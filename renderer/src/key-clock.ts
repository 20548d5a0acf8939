// Remembers when keys went down anywhere on the page (capture phase, before any handler), when the last
// key was typed into a text field outside the approval cards, and when the window last came forward,
// so a card can tell a deliberate key or click from one meant for something else. Modifier keys alone
// do not count.
import { isModifierKey } from './model/type-ahead';

export interface KeyMoment {
  at: number;
  previousAt: number | null;
  /** The last key typed into (or focus leaving) a text field outside any approval card, before this one. */
  typedAt: number | null;
  repeat: boolean;
  composing: boolean;
}

let last: number | null = null;
let typed: number | null = null;
let current: KeyMoment | null = null;
let focusedAt: number | null = null;

function isTextField(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  if (el.tagName === 'TEXTAREA' || el.isContentEditable) return true;
  return el.tagName === 'INPUT' && !['button', 'checkbox', 'radio', 'submit', 'reset'].includes((el as HTMLInputElement).type);
}

export function installKeyClock(target: Window): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (isModifierKey(e.key)) return;
    const at = e.timeStamp || performance.now();
    // IME keys report "Process" or keyCode 229 while composing.
    const composing = e.isComposing || e.key === 'Process' || e.keyCode === 229;
    current = { at, previousAt: last, typedAt: typed, repeat: e.repeat, composing };
    last = at;
    const el = e.target as HTMLElement | null;
    if (isTextField(el) && !el!.closest('[data-approval-id]')) typed = at;
  };
  const onFocus = (e: FocusEvent) => {
    if (e.target === target) focusedAt = e.timeStamp || performance.now();
  };
  // Leaving the message box counts as typing: Shift+Tab out of it and Enter at once is a race, not a choice.
  const onFocusOut = (e: FocusEvent) => {
    const el = e.target as HTMLElement | null;
    if (isTextField(el) && !el!.closest('[data-approval-id]')) typed = e.timeStamp || performance.now();
  };
  target.addEventListener('keydown', onKey, true);
  target.addEventListener('focus', onFocus);
  target.addEventListener('focusout', onFocusOut, true);
  return () => {
    target.removeEventListener('keydown', onKey, true);
    target.removeEventListener('focus', onFocus);
    target.removeEventListener('focusout', onFocusOut, true);
  };
}

/** The key being handled now (its time, the key before it, the last typing outside the cards). */
export function currentKey(): KeyMoment | null {
  return current;
}

/** When the window last came forward (null: not since the page loaded). */
export function windowFocusedAt(): number | null {
  return focusedAt;
}
