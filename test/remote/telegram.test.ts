// Approvals from Telegram, end to end: a real runtime (store, gate, jail, remote approvers, grammY's client)
// against a fake Bot API on loopback that speaks the real wire format. A card reaches the chat, a tap
// decides it and the call runs; every way to make a button decide what it was not minted for is refused,
// told to the presser and audited; a bridge that is down, slow or hostile never blocks the gate.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTelegram, type TgMessage } from '../fake-remote/telegram';
import { waitFor } from '../fake-remote/http';
import { remoteBench, type RemoteBench } from '../support/remote';

const CHAT = 4242;
const TOKEN = '123456:TEST-fake-bot-token-abcdefghijklmnop';
let tg: FakeTelegram;
let bench: RemoteBench;

beforeAll(async () => {
  tg = await FakeTelegram.start(TOKEN);
  bench = await remoteBench({ telegram: { apiBase: tg.base, botTokenEnv: 'TG_TOKEN', chatId: CHAT } }, { env: { TG_TOKEN: TOKEN } });
}, 30_000);
afterAll(async () => {
  await bench?.close();
  await tg?.close();
});

const messageFor = (needle: string) => waitFor(() => tg.messages.find((m) => m.text.includes(needle)), `a message holding ${needle}`);
const button = (m: TgMessage, label: string) => m.keyboard.flat().find((b) => b.text === label)!;
const answerTo = (queryId: string) => waitFor(() => tg.answers.find((a) => a.callback_query_id === queryId), `the answer to ${queryId}`);
const audits = (kind: string) => {
  const r = bench.runtime.core.store.audit.list({ kind, limit: 500 });
  return r.map((e) => e.data as Record<string, unknown>);
};
const settledCard = async (id: string) => {
  await bench.runtime.remote!.settled();
  return bench.runtime.core.store.approvals.get(id)!;
};

describe('a card reaches the chat and a tap decides it', () => {
  it('the card shows tool, class, session and the call; Approve once runs it in the jail; the message is edited; history says who', async () => {
    const command = 'echo ran > remote-proof.txt';
    const run = bench.submit(command, { execute: true });
    const m = await messageFor(command);
    expect({ chat: m.chat_id, buttons: m.keyboard.flat().map((b) => b.text), lines: m.text.split('\n').slice(0, 5), sizes: m.keyboard.flat().map((b) => Buffer.byteLength(b.callback_data) <= 64) }).toEqual({
      chat: CHAT,
      buttons: ['Approve once', 'Skip', 'Deny'],
      lines: ['Threshold asks before it acts:', 'Tool: run_command', 'Class: write', 'Session: remote-test', `Call: ${command}`],
      sizes: [true, true, true],
    });
    const q = tg.press(m, button(m, 'Approve once').callback_data);
    const result = await run;
    await bench.runtime.remote!.settled();
    const calls = await bench.runtime.handlers('control')['call.list']({ decided_by: 'remote' });
    expect({
      ran: (result['execution'] as { status: string }).status,
      file: existsSync(join(bench.workspace, 'remote-proof.txt')),
      told: (await answerTo(q)).text,
      edited: m.text.split('\n')[0],
      keyboard: m.keyboard.flat().length,
      history: calls.ok && calls.value.calls.map((c) => c.decided_by),
    }).toEqual({ ran: 'succeeded', file: true, told: 'Approved once: the call runs now.', edited: `Threshold: Approved once (by person via telegram:${CHAT}).`, keyboard: 0, history: [`person:telegram:${CHAT}`] });
  }, 30_000);

  it('a card decided in the window is edited in place and its buttons are refused afterwards', async () => {
    const command = 'touch decided-at-desk';
    const run = bench.submit(command);
    const m = await messageFor(command);
    const approve = button(m, 'Approve once').callback_data;
    const p = await bench.pendingFor(command);
    const desk = await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'deny' });
    expect(desk.ok).toBe(true);
    await run;
    await settledCard(p.id);
    const q = tg.press(m, approve);
    const told = await answerTo(q);
    expect({ edited: m.text.split('\n')[0], keyboard: m.keyboard.length, told: told.text, outcome: bench.runtime.core.store.approvals.get(p.id)!.outcome }).toEqual({
      edited: 'Threshold: Denied: it did not run (by desktop).',
      keyboard: 0,
      told: 'Refused: this card was already decided. It was deny by desktop.',
      outcome: 'deny',
    });
  }, 30_000);
});

/** One way to make a button decide what it was not minted for; each is refused, told and audited, and the card stays pending. */
interface Bypass {
  name: string;
  attack: (m: TgMessage, approve: string, deny: string) => { data: string; fromId?: number; chatId?: number } | Promise<{ data: string; fromId?: number; chatId?: number }>;
  reason: string;
  told: RegExp;
}

const flip = (s: string) => s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A');
const BYPASSES: Bypass[] = [
  { name: 'a forged MAC (the last character changed)', attack: (_m, a) => ({ data: flip(a) }), reason: 'forged', told: /altered or forged/ },
  { name: 'a token id of its own (well formed, never minted)', attack: () => ({ data: '1.AAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA' }), reason: 'unknown', told: /did not send that button/ },
  { name: 'a button that is not a token at all', attack: () => ({ data: 'approve_once' }), reason: 'malformed', told: /not an answer Threshold understands/ },
  {
    name: "the Deny button's stored outcome rewritten to approve_once in the database",
    attack: (_m, _a, d) => {
      bench.runtime.core.store.db.prepare("UPDATE remote_tokens SET outcome = 'approve_once' WHERE id = ?").run(d.split('.')[1]);
      return { data: d };
    },
    reason: 'forged',
    told: /altered or forged/,
  },
  {
    name: "the token's expiry pushed back in the database",
    attack: (_m, a) => {
      bench.runtime.core.store.db.prepare('UPDATE remote_tokens SET expires_at = expires_at + 86400000 WHERE id = ?').run(a.split('.')[1]);
      return { data: a };
    },
    reason: 'forged',
    told: /altered or forged/,
  },
  {
    name: "the card's content hash changed in the database after the message was sent",
    attack: (_m, a) => {
      const row = bench.runtime.core.store.db.prepare('SELECT approval_id FROM remote_tokens WHERE id = ?').get(a.split('.')[1]) as { approval_id: string };
      bench.runtime.core.store.db.prepare('UPDATE approvals SET content_hash = ? WHERE id = ?').run('f'.repeat(64), row.approval_id);
      return { data: a };
    },
    reason: 'altered',
    told: /the call changed since this message was sent/,
  },
  { name: 'a press from another chat', attack: (_m, a) => ({ data: a, chatId: 999, fromId: 999 }), reason: 'foreign_chat', told: /only in the chat Threshold is paired with/ },
  { name: 'a press from another user in the paired private chat', attack: (_m, a) => ({ data: a, fromId: 31337 }), reason: 'foreign_sender', told: /only from the person Threshold is paired with/ },
];

describe('a button decides only what it was minted for: each bypass is refused, told to the presser, audited, and the card still waits', () => {
  it.each(BYPASSES)('$name', async (c) => {
    const command = `touch bypass-${c.name.length}-${Math.random().toString(36).slice(2, 8)}`;
    const run = bench.submit(command);
    const m = await messageFor(command);
    const p = await bench.pendingFor(command);
    const before = audits('remote.refused').length;
    const attack = await c.attack(m, button(m, 'Approve once').callback_data, button(m, 'Deny').callback_data);
    const q = tg.press(m, attack.data, { fromId: attack.fromId, chatId: attack.chatId });
    const told = await answerTo(q);
    const refused = audits('remote.refused');
    expect({ told: c.told.test(told.text), status: bench.runtime.core.store.approvals.get(p.id)!.status, audited: refused.length - before, reason: refused[0]?.['reason'] }).toEqual({ told: true, status: 'pending', audited: 1, reason: c.reason });
    // The card is still answerable at the desk (with the hash it now holds).
    const now = bench.runtime.core.store.approvals.get(p.id)!;
    await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: now.content_hash, outcome: 'skip' });
    await run;
  }, 30_000);

  it('a replayed button (pressed twice): the second press is refused as used, the first decision stands', async () => {
    const command = 'touch replay';
    const run = bench.submit(command);
    const m = await messageFor(command);
    const skip = button(m, 'Skip').callback_data;
    await answerTo(tg.press(m, skip));
    await run;
    const second = await answerTo(tg.press(m, skip));
    expect({ told: second.text, reason: audits('remote.refused')[0]?.['reason'] }).toEqual({ told: 'Refused: that button was already used once.', reason: 'used' });
  }, 30_000);

  it("another card's button decides only its own card (a token is bound to its approval and hash)", async () => {
    const [a, b] = ['touch card-a', 'touch card-b'];
    const runA = bench.submit(a);
    const runB = bench.submit(b);
    const ma = await messageFor(a);
    await messageFor(b);
    const pa = await bench.pendingFor(a);
    const pb = await bench.pendingFor(b);
    // Pressing A's button in B's message changes nothing for B: the token names A.
    const mb = tg.messages.find((x) => x.text.includes(b))!;
    await answerTo(tg.press(mb, button(ma, 'Deny').callback_data));
    await runA;
    expect({ a: bench.runtime.core.store.approvals.get(pa.id)!.outcome, b: bench.runtime.core.store.approvals.get(pb.id)!.status }).toEqual({ a: 'deny', b: 'pending' });
    await bench.runtime.handlers('desktop')['approval.decide']({ id: pb.id, hash: pb.hash, outcome: 'skip' });
    await runB;
  }, 30_000);

  it('a tap and a desk decision at the same moment: exactly one wins, the other is told it came second', async () => {
    const command = 'touch race.txt';
    const run = bench.submit(command);
    const m = await messageFor(command);
    const p = await bench.pendingFor(command);
    const q = tg.press(m, button(m, 'Approve once').callback_data);
    const desk = await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'deny' });
    const told = await answerTo(q);
    const r = await run;
    const row = bench.runtime.core.store.approvals.get(p.id)!;
    const tapWon = row.outcome === 'approve_once';
    expect({ one: tapWon !== desk.ok, outcome: r['outcome'], told: tapWon ? told.text === 'Approved once: the call runs now.' : /already decided/.test(told.text) }).toEqual({ one: true, outcome: row.outcome, told: true });
  }, 30_000);
});
