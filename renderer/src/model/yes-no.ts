// Seed 003 let a chat reply of "yes" or "no" answer the waiting card. Issue 20 overrules it: nothing typed
// in the message box decides a card (a person typing is not looking at the card, and a chat app's keys
// send). A bare "yes" or "no" while a card of this chat waits is therefore not sent to the model either:
// the chat says where the card is and how to decide it (docs/ui.md, "Deliberate decisions").

export type ChatReply = { kind: 'point_to_card'; approvalId: string } | { kind: 'message' };

export function routeChatReply(text: string, waitingHere: readonly { id: string }[]): ChatReply {
  const word = text.trim().toLowerCase().replace(/[.!]+$/, '');
  if (!['yes', 'no', 'y', 'n', 'ok', 'approve', 'deny'].includes(word)) return { kind: 'message' };
  const card = waitingHere[0];
  return card ? { kind: 'point_to_card', approvalId: card.id } : { kind: 'message' };
}
