// The chat as a list of items, built from a session's stored transcript (model messages, redacted):
// user and assistant text, each tool call with its result, and notes. A message Threshold itself sent
// the model (stored with origin `threshold`) is the product's, never shown as the person's.
import type { TranscriptEntry } from '../../../common/contract';
import { toolLabel } from './describe';

export type ChatItem =
  | { kind: 'user'; key: string; text: string }
  /** A message Threshold sent the model on its own (after a restart, say): the model read it as a user turn. */
  | { kind: 'product'; key: string; text: string }
  | { kind: 'assistant'; key: string; text: string }
  | { kind: 'note'; key: string; text: string }
  | { kind: 'call'; key: string; toolCallId: string; tool: string; args: unknown; result: { text: string; isError: boolean } | null };

interface Part {
  type?: string;
  text?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: { type?: string; value?: unknown };
}

function parts(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (Array.isArray(content)) return content.filter((p): p is Part => !!p && typeof p === 'object');
  return [];
}

function parseInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function outputText(o: Part['output']): { text: string; isError: boolean } {
  const isError = o?.type === 'error-text' || o?.type === 'error-json';
  const v = o?.value;
  return { text: typeof v === 'string' ? v : JSON.stringify(v ?? null), isError };
}

export function chatItems(entries: readonly TranscriptEntry[]): ChatItem[] {
  const items: ChatItem[] = [];
  const calls = new Map<string, Extract<ChatItem, { kind: 'call' }>>();
  entries.forEach((e, i) => {
    const message = e.content as { content?: unknown; text?: unknown } | null;
    if (e.role === 'note') {
      items.push({ kind: 'note', key: `n${i}`, text: typeof message?.text === 'string' ? message.text : JSON.stringify(e.content) });
      return;
    }
    const ps = parts(message?.content);
    if (e.role === 'user') {
      const text = ps.map((p) => p.text ?? '').join('');
      if (text) items.push(e.origin === 'threshold' ? { kind: 'product', key: `p${i}`, text } : { kind: 'user', key: `u${i}`, text });
      return;
    }
    if (e.role === 'assistant') {
      ps.forEach((p, j) => {
        if (p.type === 'text' && p.text) items.push({ kind: 'assistant', key: `a${i}.${j}`, text: p.text });
        if (p.type === 'tool-call' && p.toolCallId) {
          const item = { kind: 'call' as const, key: `c${p.toolCallId}`, toolCallId: p.toolCallId, tool: toolLabel(p.toolName ?? '?'), args: parseInput(p.input), result: null };
          calls.set(p.toolCallId, item);
          items.push(item);
        }
      });
      return;
    }
    for (const p of ps) {
      if (p.type !== 'tool-result' || !p.toolCallId) continue;
      const call = calls.get(p.toolCallId);
      if (call) call.result = outputText(p.output);
    }
  });
  return items;
}

/** Who each kind of chat line is shown as written by. */
export const SPEAKER: Readonly<Record<Exclude<ChatItem['kind'], 'call'>, string>> = {
  user: 'You',
  product: 'Threshold → agent',
  assistant: 'Agent',
  note: 'Note',
};
