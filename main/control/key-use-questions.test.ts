// One connection's API key questions, with a fake clock: what counts as an answer, and what is a "no".
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIRM_KEY_USE_NOTIFICATION, confirmKeyUseParamsSchema } from '../../common/desktop-channel';
import type { KeyUseRequest } from '../../common/key-use';
import { KeyUseQuestions } from './key-use-questions';

const request: KeyUseRequest = { purpose: 'test', source: 'the OS keychain', from: { kind: 'openai', base_url: 'https://api.openai.com/v1' }, to: { kind: 'anthropic', base_url: 'https://proxy.example/v1' } };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Asks once; returns the question's id as sent, and how the question ended (or 'open'). */
function asked(timeoutMs = 1000) {
  const sent: unknown[] = [];
  const questions = new KeyUseQuestions((text) => void sent.push(JSON.parse(text)), timeoutMs);
  let ended: boolean | 'open' = 'open';
  void questions.ask(request).then((send) => (ended = send));
  const message = sent[0] as { jsonrpc: string; method: string; params: unknown };
  const params = confirmKeyUseParamsSchema.parse(message.params);
  return { questions, id: params.id, message, params, ended: async () => (await vi.advanceTimersByTimeAsync(0), ended) };
}

describe('a question', () => {
  it('is a JSON-RPC notification that carries the request, its time, and an id that is never reused', () => {
    const one = asked(1500);
    const two = asked(1500);
    expect({ jsonrpc: one.message.jsonrpc, method: one.message.method, request: one.params.request, timeout: one.params.timeout_ms, idShape: /^kq_[0-9a-f-]{36}$/.test(one.id), distinct: one.id !== two.id }).toEqual({
      jsonrpc: '2.0',
      method: CONFIRM_KEY_USE_NOTIFICATION,
      request,
      timeout: 1500,
      idShape: true,
      distinct: true,
    });
  });

  it.each([
    { name: '"send" to its own id sends', act: (q: KeyUseQuestions, id: string) => [q.answer(id, true)], accepted: [true], ended: true },
    { name: '"do not send" to its own id does not', act: (q: KeyUseQuestions, id: string) => [q.answer(id, false)], accepted: [true], ended: false },
    { name: 'a second answer is refused: the first one holds', act: (q: KeyUseQuestions, id: string) => [q.answer(id, false), q.answer(id, true)], accepted: [true, false], ended: false },
    { name: 'another id is refused and the question still waits', act: (q: KeyUseQuestions, id: string) => [q.answer(`${id}x`, true), q.answer(id.toUpperCase(), true), q.answer('', true)], accepted: [false, false, false], ended: 'open' },
    { name: 'the connection closing answers no, and a later answer is refused', act: (q: KeyUseQuestions, id: string) => (q.close(), [q.answer(id, true)]), accepted: [false], ended: false },
  ])('$name', async ({ act, accepted, ended }) => {
    const q = asked();
    expect({ accepted: act(q.questions, q.id), ended: await q.ended() }).toEqual({ accepted, ended });
  });

  it('unanswered within its time answers no; just before it, it still waits; after it, an answer is refused', async () => {
    const q = asked(1000);
    await vi.advanceTimersByTimeAsync(999);
    const before = await q.ended();
    await vi.advanceTimersByTimeAsync(1);
    expect({ before, after: await q.ended(), late: q.questions.answer(q.id, true), waiting: q.questions.waiting }).toEqual({ before: 'open', after: false, late: false, waiting: 0 });
  });

  it('after the connection closed, a new question is answered no at once and nothing is sent', async () => {
    const sent: string[] = [];
    const questions = new KeyUseQuestions((text) => void sent.push(text), 1000);
    questions.close();
    expect({ send: await questions.ask(request), sent }).toEqual({ send: false, sent: [] });
  });
});
