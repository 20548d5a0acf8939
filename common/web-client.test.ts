import { describe, expect, it } from 'vitest';
import { createWireClient } from './web-client';

describe('the web client', () => {
  it('numbers calls, sends the table name and params, and matches each reply to its call', async () => {
    const sent: unknown[] = [];
    const client = createWireClient((text) => (sent.push(JSON.parse(text)), true));
    const a = client.invoke('settings.set_level', { level: 'full' });
    const b = client.invoke('approval.list_pending');
    client.receive(JSON.stringify({ id: 2, result: { ok: true, value: [] } }));
    client.receive(JSON.stringify({ id: 1, result: { ok: true, value: { level: 'full' } } }));
    expect({ sent, a: await a, b: await b }).toEqual({
      sent: [
        { id: 1, op: 'settings.set_level', params: { level: 'full' } },
        { id: 2, op: 'approval.list_pending' },
      ],
      a: { ok: true, value: { level: 'full' } },
      b: { ok: true, value: [] },
    });
  });

  it('turns a reply of the wrong shape into an error value', async () => {
    const client = createWireClient(() => true);
    const r = client.invoke('settings.set_level', { level: 'full' });
    client.receive(JSON.stringify({ id: 1, result: { ok: true, value: { level: 'yolo' } } }));
    expect(await r).toMatchObject({ ok: false, error: { code: 'invalid_reply' } });
  });

  it.each([
    { name: 'a socket that is not open', send: () => false, drop: false },
    { name: 'a connection lost while waiting', send: () => true, drop: true },
  ])('answers calls on $name with disconnected', async ({ send, drop }) => {
    const client = createWireClient(send);
    const r = client.invoke('approval.list_pending');
    if (drop) client.connectionLost();
    expect({ r: await r, waiting: client.waiting() }).toEqual({ r: { ok: false, error: { code: 'disconnected', message: expect.any(String) } }, waiting: 0 });
  });

  it('passes on events whose payload matches its schema, and drops the rest', () => {
    const client = createWireClient(() => true);
    const seen: unknown[] = [];
    const off = client.subscribe((e) => seen.push(e));
    client.receive(JSON.stringify({ event: { name: 'session.note', payload: { session_id: 's1', text: 'hello' } } }));
    client.receive(JSON.stringify({ event: { name: 'session.note', payload: { text: 1 } } }));
    client.receive('not json');
    off();
    client.receive(JSON.stringify({ event: { name: 'session.note', payload: { session_id: null, text: 'after' } } }));
    expect(seen).toEqual([{ name: 'session.note', payload: { session_id: 's1', text: 'hello' } }]);
  });
});
