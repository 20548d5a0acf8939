import { describe, expect, it } from 'vitest';
import { checkReply, clientMessageSchema, parseEvent } from './web-protocol';

describe('the web protocol', () => {
  it.each([
    { name: 'a call with params', message: { id: 1, op: 'approval.decide', params: { id: 'ap_1' } }, ok: true },
    { name: 'a call without params', message: { id: 7, op: 'settings.get' }, ok: true },
    { name: 'an id of zero', message: { id: 0, op: 'settings.get' }, ok: false },
    { name: 'a string id', message: { id: '1', op: 'settings.get' }, ok: false },
    { name: 'a fractional id', message: { id: 1.5, op: 'settings.get' }, ok: false },
    { name: 'no operation', message: { id: 1 }, ok: false },
    { name: 'an extra field', message: { id: 1, op: 'settings.get', token: 'x' }, ok: false },
  ])('a client message: $name is valid: $ok', ({ message, ok }) => {
    expect(clientMessageSchema.safeParse(message).success).toBe(ok);
  });

  it.each([
    { name: 'a known event with its payload', message: { event: { name: 'session.note', payload: { session_id: null, text: 'hi' } } }, expected: { name: 'session.note', payload: { session_id: null, text: 'hi' } } },
    { name: 'a known event with a wrong payload', message: { event: { name: 'session.note', payload: { text: 3 } } }, expected: null },
    { name: 'an unknown event', message: { event: { name: 'approval.approved_everything', payload: {} } }, expected: null },
  ])('parses an event push: $name', ({ message, expected }) => {
    expect(parseEvent(message)).toEqual(expected);
  });

  it.each([
    { name: 'a value of the right shape', op: 'settings.set_level', result: { ok: true as const, value: { level: 'full' } }, expected: { ok: true, value: { level: 'full' } } },
    { name: 'a value of the wrong shape', op: 'settings.set_level', result: { ok: true as const, value: { level: 'yolo' } }, expected: { ok: false, error: { code: 'invalid_reply', message: expect.stringContaining('settings.set_level') } } },
    { name: 'an error value', op: 'settings.set_level', result: { ok: false as const, error: { code: 'x', message: 'y' } }, expected: { ok: false, error: { code: 'x', message: 'y' } } },
  ])('checks a reply: $name', ({ op, result, expected }) => {
    expect(checkReply(op, result)).toEqual(expected);
  });
});
