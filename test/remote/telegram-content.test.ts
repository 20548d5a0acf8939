// What a Telegram card carries and offers, and what a bridge that is down, slow or hostile does to the
// gate (nothing): real runtime, grammY, a fake Bot API on loopback.
import { afterAll, describe, expect, it } from 'vitest';
import { FakeTelegram, type TgMessage } from '../fake-remote/telegram';
import { waitFor, type Misbehaviour } from '../fake-remote/http';
import { remoteBench, type RemoteBench } from '../support/remote';
import type { RemoteConfig } from '../../main/config/remote-settings';

const CHAT = 777;
const TOKEN = '654321:TEST-other-fake-bot-token-abcdefghij';
const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close();
});

async function setup(remote: Partial<RemoteConfig> = {}, ttlSeconds?: number): Promise<{ tg: FakeTelegram; bench: RemoteBench }> {
  const tg = await FakeTelegram.start(TOKEN);
  open.push(tg);
  const bench = await remoteBench({ telegram: { apiBase: tg.base, botTokenEnv: 'TG', chatId: CHAT }, ...remote }, { env: { TG: TOKEN }, ttlSeconds });
  open.push(bench);
  return { tg, bench };
}

const labels = (m: TgMessage) => m.keyboard.flat().map((b) => b.text);
const messageFor = (tg: FakeTelegram, needle: string) => waitFor(() => tg.messages.find((m) => m.text.includes(needle)), `a message holding ${needle}`);

describe('what a card offers away from the desk', () => {
  const CASES = [
    { name: 'a write call under max_class network: approve once, skip, deny', remote: {}, command: 'touch offered.txt', buttons: ['Approve once', 'Skip', 'Deny'], desk: null },
    { name: 'a network call above max_class write: no approve button, "decide at your desk"', remote: { maxClass: 'write' as const }, command: 'curl https://example.com', buttons: ['Skip', 'Deny'], desk: /Decide at your desk: network-class calls are above what you allowed from afar/ },
    { name: 'a destructive call (a floor) under the loosest max_class: no approve button', remote: { maxClass: 'install' as const }, command: 'rm -rf ~/Documents', buttons: ['Skip', 'Deny'], desk: /Decide at your desk: this call is under the "destructive" floor/ },
    { name: 'a secret read (a floor): no approve button', remote: {}, command: 'cat ~/.ssh/id_rsa', buttons: ['Skip', 'Deny'], desk: /floor/ },
    { name: 'content = "none": no approve button, and the call is not in the message', remote: { content: 'none' as const }, command: 'touch unseen.txt', buttons: ['Skip', 'Deny'], desk: /nothing is approved unseen/ },
  ];
  it.each(CASES)('$name', async (c) => {
    const { tg, bench } = await setup(c.remote);
    const run = bench.submit(c.command);
    const p = await bench.pendingFor(c.command);
    const m = await waitFor(() => tg.messages[0], 'the card');
    expect({ buttons: labels(m), desk: c.desk ? c.desk.test(m.text) : !/Decide at your desk/.test(m.text), showsCall: m.text.includes(c.command) }).toEqual({ buttons: c.buttons, desk: true, showsCall: c.remote.content !== 'none' });
    // Whatever the message offers, "always allow" and "approve all" exist only at the desk.
    expect(m.keyboard.flat().some((b) => /always|all/i.test(b.text))).toBe(false);
    await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'skip' });
    await run;
  }, 30_000);
});

describe('who counts as someone who can answer', () => {
  it('a running bridge does (a card waits for it with no window open); an unattended turn is still refused at once and nothing is sent', async () => {
    const { tg, bench } = await setup();
    const unattended = await bench.submit('touch nobody-there.txt', { unattended: true });
    const command = 'touch waits-for-chat.txt';
    const run = bench.submit(command);
    await messageFor(tg, command);
    expect({ kinds: bench.runtime.core.approvers.kinds(), unattended: unattended['outcome'], sent: tg.messages.filter((m) => m.text.includes('nobody-there')).length }).toEqual({ kinds: ['telegram'], unattended: 'no_approver', sent: 0 });
    const p = await bench.pendingFor(command);
    await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'skip' });
    await run;
  }, 30_000);
});

describe('secrets and disguises never leave, whatever [remote] content says', () => {
  it('a key in the command is redacted, hidden and direction-changing characters are escapes, a long call is clipped', async () => {
    const { tg, bench } = await setup();
    const secret = 'AKIAIOSFODNN7EXAMPLE';
    const command = `AWS_ACCESS_KEY_ID=${secret} touch a\u202Eexe.txt && echo ${'x'.repeat(500)} > long.txt`;
    const run = bench.submit(command);
    const p = await bench.pendingFor('long.txt');
    const m = await waitFor(() => tg.messages[0], 'the card');
    const call = m.text.split('\n').find((l) => l.startsWith('Call: '))!;
    expect({ secret: m.text.includes(secret), redacted: /\[REDACTED/.test(call), rlo: m.text.includes('\u202E'), escaped: call.includes('<RLO>'), clipped: call.endsWith('…') && call.length <= 'Call: '.length + 300 }).toEqual({ secret: false, redacted: true, rlo: false, escaped: true, clipped: true });
    await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'deny' });
    await run;
    await bench.runtime.remote!.settled();
    expect(m.text.includes(secret)).toBe(false);
  }, 30_000);
});

describe('expiry: deny on timeout as at the desk', () => {
  it('the card expires, the message says so and loses its buttons, and a press after expiry is refused and audited', async () => {
    const { tg, bench } = await setup({}, 1);
    const command = 'touch expires.txt';
    const result = await bench.submit(command);
    const m = await waitFor(() => tg.messages[0], 'the card');
    await bench.runtime.remote!.settled();
    // The button as it was before the edit (a client may still show it).
    const stale = (await waitFor(() => tg.calls.find((c) => c.method === 'editMessageText'), 'the edit')) && m;
    expect({ outcome: result['outcome'], run: result['run'], edited: m.text.split('\n')[0], keyboard: m.keyboard.length }).toEqual({ outcome: 'expired', run: false, edited: 'Threshold: Expired: nobody decided in time, so it did not run.', keyboard: 0 });
    const token = bench.runtime.core.store.db.prepare("SELECT id, mac FROM remote_tokens WHERE outcome = 'approve_once' ORDER BY created_at DESC LIMIT 1").get() as { id: string; mac: string };
    const q = tg.press(stale, `1.${token.id}.${token.mac}`);
    const told = await waitFor(() => tg.answers.find((a) => a.callback_query_id === q), 'the answer');
    const audited = bench.runtime.core.store.audit.list({ kind: 'remote.refused', limit: 5 }).map((e) => (e.data as { reason: string }).reason);
    expect({ told: told.text, audited }).toEqual({ told: expect.stringMatching(/^Refused: that button expired with its card/), audited: ['expired'] });
  }, 30_000);
});

describe('a bridge that is down, slow or hostile never blocks the gate, and the card stays answerable at the desk', () => {
  const deskDecides = async (bench: RemoteBench, command: string) => {
    const run = bench.submit(command);
    const p = await bench.pendingFor(command);
    const t0 = performance.now();
    await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'approve_once' });
    const r = await run;
    return { run: r['run'], ms: performance.now() - t0 };
  };

  it('down: the card parks and is decided at the desk at once; the bridge reports failing', async () => {
    const { tg, bench } = await setup();
    tg.down = true;
    const r = await deskDecides(bench, 'touch while-down.txt');
    await waitFor(() => bench.runtime.remote!.status().bridges[0]!.status.state === 'failing', 'a failing status');
    expect({ run: r.run, quick: r.ms < 1000, messages: tg.messages.length }).toEqual({ run: true, quick: true, messages: 0 });
  }, 30_000);

  it('slow: a send that takes 2 s does not hold the decision; the late message is then edited to its final state', async () => {
    const { tg, bench } = await setup();
    tg.sendDelayMs = 2000;
    const r = await deskDecides(bench, 'touch while-slow.txt');
    await bench.runtime.remote!.settled();
    expect({ run: r.run, quick: r.ms < 1000, final: tg.messages[0]?.text.split('\n')[0], keyboard: tg.messages[0]?.keyboard.length }).toEqual({ run: true, quick: true, final: 'Threshold: Approved once (by desktop).', keyboard: 0 });
  }, 30_000);

  const HOSTILE: Misbehaviour[] = ['huge', 'malformed', 'deep', 'wrong_shape', 'hang'];
  it.each(HOSTILE)('a %s reply to every request: the core keeps deciding at the desk, and once the service behaves a press works again', async (mode) => {
    const { tg, bench } = await setup();
    tg.pollMode = mode;
    tg.sendMode = mode;
    const r = await deskDecides(bench, `touch hostile-${mode}.txt`);
    expect({ run: r.run, quick: r.ms < 1000 }).toEqual({ run: true, quick: true });
    if (mode !== 'hang') await waitFor(() => bench.runtime.remote!.status().bridges[0]!.status.state === 'failing', 'a failing status');
    tg.pollMode = 'normal';
    tg.sendMode = 'normal';
    const command = `touch after-${mode}.txt`;
    const run = bench.submit(command);
    const m = await messageFor(tg, command);
    tg.press(m, m.keyboard.flat().find((b) => b.text === 'Approve once')!.callback_data);
    expect((await run)['outcome']).toBe('approve_once');
  }, 60_000);

  it('hostile updates in a batch (wrong types, missing fields, a forged update_id) are skipped, and the good press beside them counts', async () => {
    const { tg, bench } = await setup();
    const command = 'touch beside-junk.txt';
    const run = bench.submit(command);
    const m = await messageFor(tg, command);
    tg.pushRaw({ update_id: 'x', callback_query: { id: 1 } });
    tg.push({ callback_query: { id: 'q-junk', from: { id: 'me' }, data: 5 } });
    tg.push({ callback_query: null, message: { text: 'hi' } });
    tg.pushRaw(null);
    tg.press(m, m.keyboard.flat().find((b) => b.text === 'Deny')!.callback_data);
    expect((await run)['outcome']).toBe('deny');
  }, 30_000);
});

describe('a flood of hostile presses', () => {
  it('500 forged presses: each refused and answered, at most 30 a minute audited one by one and the rest counted, and a real press still decides', async () => {
    const { tg, bench } = await setup();
    const command = 'touch under-flood.txt';
    const run = bench.submit(command);
    const m = await messageFor(tg, command);
    for (let i = 0; i < 500; i++) tg.press(m, `1.${'A'.repeat(12)}.${String(i).padStart(22, 'B')}`);
    await waitFor(() => tg.answers.length >= 500, 'every forged press answered', 30_000);
    tg.press(m, m.keyboard.flat().find((b) => b.text === 'Skip')!.callback_data);
    const r = await run;
    const audited = bench.runtime.core.store.audit.list({ kind: 'remote.refused', limit: 1000 }).length;
    expect({ outcome: r['outcome'], audited: audited <= 60, some: audited >= 30, verified: bench.runtime.core.verifyAudit().ok }).toEqual({ outcome: 'skip', audited: true, some: true, verified: true });
  }, 60_000);
});

describe('a restart in between', () => {
  it('a card sent before a restart is not sent twice; its button still verifies (the key is kept) and decides it; the message is then edited', async () => {
    const tg = await FakeTelegram.start(TOKEN);
    open.push(tg);
    const first = await remoteBench({ telegram: { apiBase: tg.base, botTokenEnv: 'TG', chatId: CHAT } }, { env: { TG: TOKEN } });
    const command = 'touch across-restart.txt';
    void first.submit(command).catch(() => undefined);
    const m = await messageFor(tg, command);
    await first.runtime.remote!.settled();
    await first.close();
    const second = await remoteBench({ telegram: { apiBase: tg.base, botTokenEnv: 'TG', chatId: CHAT } }, { env: { TG: TOKEN }, root: first.root });
    open.push(second);
    await second.runtime.remote!.settled();
    const q = tg.press(m, m.keyboard.flat().find((b) => b.text === 'Approve once')!.callback_data);
    const told = await waitFor(() => tg.answers.find((a) => a.callback_query_id === q), 'the answer');
    await second.runtime.remote!.settled();
    const row = second.runtime.core.store.db.prepare("SELECT outcome, decided_by FROM approvals WHERE status = 'decided' ORDER BY decided_at DESC LIMIT 1").get() as { outcome: string; decided_by: string };
    expect({ messages: tg.messages.length, told: told.text, row, edited: m.text.split('\n')[0] }).toEqual({ messages: 1, told: 'Approved once: Threshold restarted since it asked, so the call runs when its session goes on.', row: { outcome: 'approve_once', decided_by: `person:telegram:${CHAT}` }, edited: `Threshold: Approved once (by person via telegram:${CHAT}).` });
  }, 60_000);
});
