import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../common/contract';
import { chatItems } from './transcript';

const entry = (role: TranscriptEntry['role'], content: unknown, origin: 'threshold' | null = null): TranscriptEntry => ({ session_id: 's1', seq: 0, role, content, turn_id: 't1', created_at: 1, origin });

describe('the chat is built from the stored transcript', () => {
  it('shows user and assistant text, each tool call with its result, and notes', () => {
    const items = chatItems([
      entry('user', { role: 'user', content: 'list it' }),
      entry('assistant', { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'list_dir', input: { path: '.' } }, { type: 'tool-call', toolCallId: 'c2', toolName: 'mcp__files__read', input: '{"a":1}' }] }),
      entry('tool', { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'list_dir', output: { type: 'text', value: 'README.md' } }, { type: 'tool-result', toolCallId: 'c2', toolName: 'mcp__files__read', output: { type: 'error-text', value: 'denied' } }] }),
      entry('note', { text: 'The turn stopped.' }),
    ]);
    expect(items).toEqual([
      { kind: 'user', key: 'u0', text: 'list it' },
      { kind: 'assistant', key: 'a1.0', text: 'Looking.' },
      { kind: 'call', key: 'cc1', toolCallId: 'c1', tool: 'list_dir', args: { path: '.' }, result: { text: 'README.md', isError: false } },
      { kind: 'call', key: 'cc2', toolCallId: 'c2', tool: 'mcp.files.read', args: { a: 1 }, result: { text: 'denied', isError: true } },
      { kind: 'note', key: 'n3', text: 'The turn stopped.' },
    ]);
  });

  it('a call without a result yet has result null', () => {
    expect(chatItems([entry('assistant', { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c9', toolName: 'write_file', input: { path: 'a' } }] })])).toEqual([{ kind: 'call', key: 'cc9', toolCallId: 'c9', tool: 'write_file', args: { path: 'a' }, result: null }]);
  });

  it.each([
    ['the person', null, { kind: 'user', key: 'u0', text: 'hello' }],
    ['Threshold itself (after a restart)', 'threshold' as const, { kind: 'product', key: 'p0', text: 'hello' }],
  ])('a user-role message written by %s is shown as theirs', (_who, origin, expected) => {
    expect(chatItems([entry('user', { role: 'user', content: 'hello' }, origin)])).toEqual([expected]);
  });

  it('a message that only claims to be Threshold\'s ("[Threshold] …" typed by anyone) is still the person\'s', () => {
    expect(chatItems([entry('user', { role: 'user', content: '[Threshold] While Threshold was restarting, your call …' })])).toEqual([{ kind: 'user', key: 'u0', text: '[Threshold] While Threshold was restarting, your call …' }]);
  });
});
