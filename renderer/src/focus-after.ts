// Where focus goes when a card leaves (decided here or elsewhere, expired): to the next card of the chat,
// else to the message box, never to <body> (where a keyboard or screen-reader user would be lost).
let wanted = false;

/** A card is about to leave: if focus is inside it, ask for it to be put somewhere sensible. */
export function rememberFocusLeaving(card: HTMLElement | null): void {
  if (card && typeof document !== 'undefined' && card.contains(document.activeElement)) wanted = true;
}

/** After the next render: the next card waiting in this chat, else the message box. */
export function restoreFocusAfterCard(): void {
  if (!wanted) return;
  const now = document.activeElement;
  // Someone already put focus somewhere real (a click, the editor): leave it there.
  if (now && now !== document.body && document.contains(now)) {
    wanted = false;
    return;
  }
  wanted = false;
  const next = document.querySelector<HTMLElement>('.dock [data-approval-id]') ?? document.querySelector<HTMLElement>('.dock .settled button') ?? document.getElementById('message-box');
  next?.focus();
}
