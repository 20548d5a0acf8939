// Settings → Devices sets where cards go: saved over the config file, applied at once, audited, kept
// across a restart; a new endpoint (where the token is sent) only from the desktop window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeMatrix } from '../fake-remote/matrix';
import { FakeTelegram } from '../fake-remote/telegram';
import { waitFor } from '../fake-remote/http';
import { remoteBench, type RemoteBench } from '../support/remote';

let tg: FakeTelegram;
let mx: FakeMatrix;
const open: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  tg = await FakeTelegram.start();
  mx = await FakeMatrix.start();
});
afterAll(async () => {
  for (const o of open.reverse()) await o.close();
  await tg.close();
  await mx.close();
});

async function bench(root?: string): Promise<RemoteBench> {
  // The file names Telegram's endpoint and Matrix's homeserver; the chats come from the page.
  const b = await remoteBench({ telegram: { apiBase: tg.base, botTokenEnv: 'TG', chatId: 1 }, matrix: { homeserver: mx.base, accessTokenEnv: 'MX', roomId: '!file:example.org', userId: '@me:example.org' } }, { env: { TG: tg.token, MX: mx.token }, root });
  open.push(b);
  return b;
}

describe('where cards go, set on Settings → Devices', () => {
  it('a new Telegram chat applies at once: the next card goes there, a button from the old chat no longer counts, and it is kept across a restart', async () => {
    const b = await bench();
    const web = b.runtime.handlers('web');
    const first = b.submit('touch to-old-chat.txt');
    const old = await waitFor(() => tg.messages.find((m) => m.text.includes('to-old-chat')), 'the card in the old chat');
    const oldButton = old.keyboard[0]![0]!.callback_data;
    const r = await web['remote.configure']({ telegram: { chat_id: 777 } });
    expect({ ok: r.ok, chats: r.ok && r.value.bridges.map((x) => x.audience) }).toEqual({ ok: true, chats: ['777', '!file:example.org'] });
    // The card still waiting is sent to the new chat too; the old chat's button is refused as foreign.
    const moved = await waitFor(() => tg.messages.find((m) => m.text.includes('to-old-chat') && m.chat_id === 777), 'the card in the new chat');
    const q = tg.press(old, oldButton, { chatId: 1, fromId: 1 });
    const told = await waitFor(() => tg.answers.find((a) => a.callback_query_id === q), 'the answer');
    tg.press(moved, moved.keyboard[0]![0]!.callback_data);
    const decided = await first;
    const audit = b.runtime.core.store.audit.list({ kind: 'remote.configured', limit: 5 }).map((e) => (e.data as { by: string }).by);
    await b.close();
    const again = await bench(b.root);
    const status = await again.runtime.handlers('web')['remote.status'](undefined);
    expect({ told: /only in the chat Threshold is paired with/.test(told.text), outcome: decided['outcome'], audit, kept: status.ok && status.value.bridges[0]!.audience }).toEqual({ told: true, outcome: 'approve_once', audit: ['web'], kept: '777' });
  }, 60_000);

  it.each([
    { name: 'a new homeserver from the browser page', surface: 'web' as const, change: { matrix: { homeserver: 'https://matrix.evil.example', room_id: '!r:evil.example', user_id: '@me:evil.example' } }, code: 'endpoint_bound' },
    { name: 'a new homeserver from ctl', surface: 'control' as const, change: { matrix: { homeserver: 'https://matrix.evil.example', room_id: '!r:evil.example', user_id: '@me:evil.example' } }, code: 'endpoint_bound' },
    { name: 'a homeserver in plain http over the network, even from the window', surface: 'desktop' as const, change: { matrix: { homeserver: 'http://matrix.example.org', room_id: '!r:example.org', user_id: '@me:example.org' } }, code: 'invalid_setting' },
    { name: 'a room alias instead of a room id', surface: 'web' as const, change: { matrix: { homeserver: 'MX', room_id: '#alias:example.org', user_id: '@me:example.org' } }, code: 'invalid_setting' },
    { name: 'chat id 0', surface: 'web' as const, change: { telegram: { chat_id: 0 } }, code: 'invalid_setting' },
  ])('$name: refused ($code), nothing saved', async (c) => {
    const b = await bench();
    const change = c.change.matrix?.homeserver === 'MX' ? { matrix: { ...c.change.matrix, homeserver: mx.base } } : c.change;
    const r = await b.runtime.handlers(c.surface)['remote.configure'](change as never);
    expect({ code: r.ok ? 'saved' : r.error.code, saved: b.runtime.core.store.settings.get('remote.page') ?? null }).toEqual({ code: c.code, saved: null });
  }, 30_000);

  it('the same homeserver with another room is fine from the browser; null turns a bridge off, and it no longer counts as an approver', async () => {
    const b = await bench();
    const web = b.runtime.handlers('web');
    const room = await web['remote.configure']({ matrix: { homeserver: `${mx.base}/`, room_id: '!other:example.org', user_id: '@me:example.org' } });
    const off = await web['remote.configure']({ telegram: null });
    expect({ room: room.ok && room.value.bridges.find((x) => x.name === 'matrix')?.audience, bridges: off.ok && off.value.bridges.map((x) => x.name), approvers: b.runtime.core.approvers.kinds() }).toEqual({ room: '!other:example.org', bridges: ['matrix'], approvers: ['matrix'] });
  }, 30_000);
});
