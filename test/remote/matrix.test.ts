// Approvals from Matrix, end to end: a real runtime and the Matrix bridge against a fake homeserver on
// loopback that speaks the client-server API. A reaction or a reply decides a card; every answer that is
// not the paired person's, in the paired room, to a card still waiting, with an outcome it offers, is
// refused, told (in the room only) and audited; the card is edited in place (m.replace) when decided.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeMatrix, type MxEvent } from '../fake-remote/matrix';
import { waitFor, type Misbehaviour } from '../fake-remote/http';
import { remoteBench, type RemoteBench } from '../support/remote';

const ROOM = '!approvals:example.org';
const ME = '@me:example.org';
let mx: FakeMatrix;
let bench: RemoteBench;

beforeAll(async () => {
  mx = await FakeMatrix.start();
  bench = await remoteBench({ matrix: { homeserver: mx.base, accessTokenEnv: 'MX', roomId: ROOM, userId: ME } }, { env: { MX: mx.token } });
}, 30_000);
afterAll(async () => {
  await bench?.close();
  await mx?.close();
});

const cardFor = (needle: string) => waitFor(() => mx.cards().find((e) => String(e.content['body']).includes(needle)), `a card holding ${needle}`);
const refusedReasons = () => bench.runtime.core.store.audit.list({ kind: 'remote.refused', limit: 100 }).map((e) => (e.data as { reason: string }).reason);
// The first sync only marks "now": wait until the bridge polls with a since token before answering.
const ready = () => waitFor(() => bench.runtime.remote!.status().bridges[0]!.status.state === 'ok', 'the bridge to sync');

describe('a card reaches the room and an answer decides it', () => {
  it('a ✅ reaction from the paired person approves once: the call runs in the jail, the card is edited, history says who', async () => {
    await ready();
    const command = 'echo ran > matrix-proof.txt';
    const run = bench.submit(command, { execute: true });
    const card = await cardFor(command);
    expect(String(card.content['body']).split('\n')).toEqual(expect.arrayContaining(['Threshold asks before it acts:', 'Tool: run_command', 'Class: write', `Call: ${command}`, 'Answer with a reaction: ✅ approve once, ⏭️ skip, ❌ deny; or reply "approve", "skip", "deny".']));
    const answer = mx.react(card, '✅', { sender: ME });
    const result = await run;
    await bench.runtime.remote!.settled();
    const calls = await bench.runtime.handlers('control')['call.list']({ decided_by: 'remote' });
    expect({
      ran: (result['execution'] as { status: string }).status,
      file: existsSync(join(bench.workspace, 'matrix-proof.txt')),
      told: await waitFor(() => mx.repliesTo(answer.event_id)[0], 'the reply'),
      shown: mx.shown(card).split('\n')[0],
      history: calls.ok && calls.value.calls.map((c) => c.decided_by),
    }).toEqual({ ran: 'succeeded', file: true, told: 'Approved once: the call runs now.', shown: `Threshold: Approved once (by person via matrix:${ME}).`, history: [`person:matrix:${ME}`] });
  }, 30_000);

  it.each([
    { reply: 'deny, that looks wrong', outcome: 'deny' },
    { reply: 'Skip', outcome: 'skip' },
  ])('a reply "$reply" decides $outcome', async (c) => {
    await ready();
    const command = `touch reply-${c.outcome}.txt`;
    const run = bench.submit(command);
    const card = await cardFor(command);
    mx.reply(card, c.reply, { sender: ME });
    expect((await run)['outcome']).toBe(c.outcome);
  }, 30_000);

  it('a card decided at the desk is edited in place; a later reaction is refused as already decided', async () => {
    await ready();
    const command = 'touch matrix-desk.txt';
    const run = bench.submit(command);
    const card = await cardFor(command);
    const p = await bench.pendingFor(command);
    await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'skip' });
    await run;
    await bench.runtime.remote!.settled();
    const late = mx.react(card, '✅', { sender: ME });
    expect({ shown: mx.shown(card).split('\n')[0], told: await waitFor(() => mx.repliesTo(late.event_id)[0], 'the reply') }).toEqual({
      shown: 'Threshold: Skipped: it did not run (by desktop).',
      told: 'Refused: this card was already decided. It was skip by desktop.',
    });
  }, 30_000);
});

interface Bypass {
  name: string;
  answer: (card: MxEvent) => MxEvent;
  reason: string;
  /** Whether the bot answers in the room (never in a room that is not the paired one). */
  toldInRoom: boolean;
}

const BYPASSES: Bypass[] = [
  { name: 'a ✅ from another user in the paired room', answer: (c) => mx.react(c, '✅', { sender: '@mallory:evil.example' }), reason: 'foreign_sender', toldInRoom: true },
  { name: 'a ✅ from the paired user id in another room', answer: (c) => mx.react(c, '✅', { sender: ME, room: '!elsewhere:evil.example' }), reason: 'foreign_chat', toldInRoom: false },
  { name: 'a reaction Threshold does not offer (👍)', answer: (c) => mx.react(c, '👍', { sender: ME }), reason: 'malformed', toldInRoom: true },
  { name: 'a reply that names no outcome ("approve-all")', answer: (c) => mx.reply(c, 'approveall please', { sender: ME }), reason: 'malformed', toldInRoom: true },
  {
    name: "the card's Deny token rewritten to approve_once in the database, then ✅",
    answer: (c) => {
      const db = bench.runtime.core.store.db;
      const m = db.prepare("SELECT approval_id FROM remote_messages WHERE message_id = ?").get(c.event_id) as { approval_id: string };
      db.prepare("DELETE FROM remote_tokens WHERE approval_id = ? AND outcome = 'approve_once'").run(m.approval_id);
      db.prepare("UPDATE remote_tokens SET outcome = 'approve_once' WHERE approval_id = ? AND outcome = 'deny'").run(m.approval_id);
      return mx.react(c, '✅', { sender: ME });
    },
    reason: 'forged',
    toldInRoom: true,
  },
];

describe('an answer decides only as the paired person, in the paired room, what its card offers', () => {
  it.each(BYPASSES)('$name: refused, audited, and the card still waits', async (c) => {
    await ready();
    const command = `touch mx-bypass-${Math.random().toString(36).slice(2, 8)}.txt`;
    const run = bench.submit(command);
    const card = await cardFor(command);
    const p = await bench.pendingFor(command);
    // The card is known once its send answered (its event id stored).
    await bench.runtime.remote!.settled();
    const before = refusedReasons().length;
    const answer = c.answer(card);
    await waitFor(() => refusedReasons().length > before, 'the refusal');
    await bench.runtime.remote!.settled();
    await new Promise((r) => setTimeout(r, 50));
    expect({ reason: refusedReasons()[0], status: bench.runtime.core.store.approvals.get(p.id)!.status, told: mx.repliesTo(answer.event_id).length > 0 }).toEqual({ reason: c.reason, status: 'pending', told: c.toldInRoom });
    await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'skip' });
    await run;
  }, 30_000);

  it('a card above max_class offers no approve reaction, and ✅ on it is refused', async () => {
    await ready();
    const command = 'curl https://example.com/matrix';
    const run = bench.submit(command);
    // max_class is "network" by default, so the network call is offered; a destructive one (a floor) is not.
    expect(String((await cardFor('example.com/matrix')).content['body'])).toContain('✅ approve once');
    const p = await bench.pendingFor(command);
    await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'skip' });
    await run;
    const floor = 'rm -rf ~/Documents';
    const runFloor = bench.submit(floor);
    const floorCard = await cardFor('Documents');
    const answer = mx.react(floorCard, '✅', { sender: ME });
    const told = await waitFor(() => mx.repliesTo(answer.event_id)[0], 'the reply');
    expect({ offers: String(floorCard.content['body']).includes('✅'), desk: /Decide at your desk/.test(String(floorCard.content['body'])), told }).toEqual({ offers: false, desk: true, told: 'Refused: that choice is not offered away from the desk for this card.' });
    const pf = await bench.pendingFor('Documents');
    await bench.runtime.handlers('desktop')['approval.decide']({ id: pf.id, hash: pf.hash, outcome: 'deny' });
    await runFloor;
  }, 30_000);
});

describe('answers that only look like answers', () => {
  it('an edit that turns an earlier reply into "approve", and a reaction with a look-alike word, decide nothing; ✅ with a variation selector is ✅', async () => {
    await ready();
    const command = 'touch mx-edits.txt';
    const run = bench.submit(command);
    const card = await cardFor(command);
    const p = await bench.pendingFor(command);
    const hello = mx.reply(card, 'hello', { sender: ME });
    mx.add(ROOM, ME, 'm.room.message', { msgtype: 'm.text', body: '* approve', 'm.new_content': { msgtype: 'm.text', body: 'approve' }, 'm.relates_to': { rel_type: 'm.replace', event_id: hello.event_id } });
    mx.reply(card, '\u0430pprove', { sender: ME });
    await new Promise((r) => setTimeout(r, 300));
    await bench.runtime.remote!.settled();
    const still = bench.runtime.core.store.approvals.get(p.id)!.status;
    mx.react(card, '\u2705\uFE0F', { sender: ME });
    expect({ still, outcome: (await run)['outcome'] }).toEqual({ still: 'pending', outcome: 'approve_once' });
  }, 30_000);
});

describe('a homeserver that is down, slow or hostile never blocks the gate', () => {
  const HOSTILE: Misbehaviour[] = ['huge', 'malformed', 'deep', 'wrong_shape'];
  it.each(HOSTILE)('a %s answer to every request: the desk decides at once; once the server behaves, a reaction works again', async (mode) => {
    await ready();
    mx.pollMode = mode;
    mx.sendMode = mode;
    const command = `touch mx-hostile-${mode}.txt`;
    const run = bench.submit(command);
    const p = await bench.pendingFor(command);
    const t0 = performance.now();
    await bench.runtime.handlers('desktop')['approval.decide']({ id: p.id, hash: p.hash, outcome: 'approve_once' });
    expect({ run: (await run)['run'], quick: performance.now() - t0 < 1000 }).toEqual({ run: true, quick: true });
    await waitFor(() => bench.runtime.remote!.status().bridges[0]!.status.state === 'failing', 'a failing status');
    mx.pollMode = 'normal';
    mx.sendMode = 'normal';
    await waitFor(() => bench.runtime.remote!.status().bridges[0]!.status.state === 'ok', 'recovery', 40_000);
    const again = `touch mx-after-${mode}.txt`;
    const run2 = bench.submit(again);
    const card = await cardFor(again);
    mx.react(card, '❌', { sender: ME });
    expect((await run2)['outcome']).toBe('deny');
  }, 60_000);
});
