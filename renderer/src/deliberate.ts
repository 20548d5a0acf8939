// One check for every press that decides something on a card (an approval, a sandbox consent): a click
// or a key, judged by the rules in model/type-ahead.ts with the times the key clock recorded.
import { currentKey, windowFocusedAt } from './key-clock';
import { REFUSED_WORDS, clickMayDecide, keyMayDecide, type DecisionWeight } from './model/type-ahead';

/** Null when the press may decide; else the sentence that says why it was not taken. */
export function refusedPress(weight: DecisionWeight, e: { detail: number; timeStamp: number }, cardShownAt: number | undefined): string | null {
  if (cardShownAt === undefined) return REFUSED_WORDS.before_card;
  // detail 0: pressed with Enter or Space (or a script), so the key rules apply.
  if (e.detail === 0) return refusedKey(weight, cardShownAt);
  const v = clickMayDecide(weight, { at: e.timeStamp, cardShownAt, windowFocusedAt: windowFocusedAt() });
  return v.ok ? null : REFUSED_WORDS[v.why];
}

/** Null when the key being handled may decide; else why not. */
export function refusedKey(weight: DecisionWeight, cardShownAt: number | undefined): string | null {
  const k = currentKey();
  if (!k || cardShownAt === undefined) return REFUSED_WORDS.before_card;
  const v = keyMayDecide(weight, { at: k.at, previousAt: k.previousAt, typedAt: k.typedAt, cardShownAt, repeat: k.repeat, composing: k.composing });
  return v.ok ? null : REFUSED_WORDS[v.why];
}
