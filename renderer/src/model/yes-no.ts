// Seed 003: a chat reply of exactly "yes" or "no" answers the one waiting card. Only when exactly one
// card waits, and only when the reply was begun after that card appeared (a message drafted before is
// a message, not an answer).

export type ChatReply = { kind: 'decide'; approvalId: string; outcome: 'approve_once' | 'deny' } | { kind: 'message' };

export function routeChatReply(text: string, waiting: readonly { id: string; shownAt: number; outcomes: readonly string[] }[], draftStartedAt: number | null): ChatReply {
  const word = text.trim().toLowerCase();
  if (word !== 'yes' && word !== 'no') return { kind: 'message' };
  if (waiting.length !== 1) return { kind: 'message' };
  const card = waiting[0]!;
  if (draftStartedAt === null || draftStartedAt <= card.shownAt) return { kind: 'message' };
  const outcome = word === 'yes' ? 'approve_once' : 'deny';
  if (!card.outcomes.includes(outcome)) return { kind: 'message' };
  return { kind: 'decide', approvalId: card.id, outcome };
}
