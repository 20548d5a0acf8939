// Remembers when keys went down anywhere on the page (capture phase, before any handler), so a card
// can tell a deliberate key from one typed for the message box. Modifier keys alone do not count.
import { isModifierKey } from './model/type-ahead';

export interface KeyMoment {
  at: number;
  previousAt: number | null;
  repeat: boolean;
}

let last: number | null = null;
let current: KeyMoment | null = null;

export function installKeyClock(target: Window): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (isModifierKey(e.key)) return;
    const at = e.timeStamp || performance.now();
    current = { at, previousAt: last, repeat: e.repeat };
    last = at;
  };
  target.addEventListener('keydown', onKey, true);
  return () => target.removeEventListener('keydown', onKey, true);
}

/** The key being handled now (its time and the one before it). */
export function currentKey(): KeyMoment | null {
  return current;
}
