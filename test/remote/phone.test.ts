// The phone page over HTTPS on the LAN address (127.0.0.2 stands in for it here), as a client would
// reach it: the Host and Origin checks hold exactly that address, pairing trades a one-time code for a
// device token, a device does only what a phone may, and a revoked device is refused at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIRING_GUESSES } from '../../main/remote/devices';
import { fingerprintOf } from '../../main/remote/certificate';
import { pairDevice, phoneBench, phoneRequest, phoneSocket, type PhoneBench } from '../support/phone';

let b: PhoneBench;
beforeAll(async () => {
  b = await phoneBench();
}, 30_000);
afterAll(async () => {
  await b?.close();
});

const desk = () => b.runtime.handlers('desktop');

describe('the phone page answers only at exactly its LAN address', () => {
  it('serves the page over HTTPS with a certificate for the address, whose fingerprint Settings shows', async () => {
    const r = await phoneRequest(b, '/');
    const status = await desk()['remote.status'](undefined);
    expect({ status: r.status, csp: String(r.headers['content-security-policy']).includes(`connect-src 'self' wss://${b.host}`), fingerprint: status.ok && status.value.phone?.fingerprint }).toEqual({ status: 200, csp: true, fingerprint: fingerprintOf(b.cert) });
  });

  // Each line is a way to reach the phone listener under another name: DNS rebinding, another spelling of the address, the desk's names.
  it.each([
    { name: 'a name that resolves here', host: () => 'threshold.evil.example:' + new URL(b.origin).port },
    { name: 'localhost on the phone port', host: () => 'localhost:' + new URL(b.origin).port },
    { name: '127.0.0.1 on the phone port', host: () => '127.0.0.1:' + new URL(b.origin).port },
    { name: 'the address in another spelling (decimal)', host: () => '2130706434:' + new URL(b.origin).port },
    { name: 'the address on another port', host: () => '127.0.0.2:1' },
    { name: 'the address without a port', host: () => '127.0.0.2' },
  ])('Host $name: refused, with the security headers', async ({ host }) => {
    const r = await phoneRequest(b, '/', { host: host() });
    expect({ status: r.status, csp: String(r.headers['content-security-policy']).includes("frame-ancestors 'none'"), nosniff: r.headers['x-content-type-options'] }).toEqual({ status: 403, csp: true, nosniff: 'nosniff' });
  });

  it.each([
    { name: 'http:// (not the https origin)', origin: () => b.origin.replace('https', 'http') },
    { name: "the desk's loopback origin", origin: () => b.runtime.web!.origin },
    { name: 'another site', origin: () => 'https://evil.example' },
    { name: 'null (a sandboxed frame)', origin: () => 'null' },
  ])('Origin $name: refused', async ({ origin }) => {
    expect((await phoneRequest(b, '/', { origin: origin() })).status).toBe(403);
  });

  it("the desk's own token and cookie do not open the phone listener, and /auth is not there", async () => {
    const token = b.runtime.web!.url.split('#token=')[1]!;
    const port = new URL(b.runtime.web!.origin).port;
    const ws = await phoneRequest(b, '/ws', { cookie: `threshold_web_${port}=${token}` });
    const auth = await phoneRequest(b, '/auth', { method: 'POST', body: '' });
    expect({ ws: ws.status, auth: auth.status }).toEqual({ ws: 401, auth: 405 });
  });
});

describe('the phone listener is held by the same limits as the desk', () => {
  it('40 idle connections from one address: all but 16 are closed, and a paired phone still gets in', async () => {
    const { connect } = await import('node:net');
    const { cookie } = await pairDevice(b, 'Under flood');
    const url = new URL(b.origin);
    const idle = Array.from({ length: 40 }, () => connect({ host: url.hostname, port: Number(url.port) }));
    const closed = new Set<number>();
    idle.forEach((s, i) => {
      s.on('close', () => closed.add(i));
      s.on('error', () => undefined);
    });
    await new Promise((r) => setTimeout(r, 600));
    const ws = await phoneRequest(b, '/ws', { cookie });
    for (const s of idle) s.destroy();
    expect({ keptAtMost16: 40 - closed.size <= 16, paired: ws.status }).toEqual({ keptAtMost16: true, paired: 426 });
  }, 30_000);
});

describe("a device's token opens only the phone listener", () => {
  it("the desk's loopback page does not take a paired phone's cookie", async () => {
    const { cookie } = await pairDevice(b, 'Loopback try');
    const port = new URL(b.runtime.web!.origin).port;
    const value = cookie.split('=')[1];
    const asDevice = await fetch(`${b.runtime.web!.origin}/ws`, { headers: { Cookie: cookie } });
    const asWeb = await fetch(`${b.runtime.web!.origin}/ws`, { headers: { Cookie: `threshold_web_${port}=${value}` } });
    expect({ asDevice: asDevice.status, asWeb: asWeb.status }).toEqual({ asDevice: 401, asWeb: 401 });
  });
});

describe('pairing trades a one-time code for a device token', () => {
  it('pairs: a Secure HttpOnly SameSite=Strict cookie, the device listed with its name, audited', async () => {
    const started = await desk()['device.pair'](undefined);
    expect(started.ok && started.value.url.startsWith(`${b.origin}/#pair=`)).toBe(true);
    const code = started.ok ? started.value.code : '';
    const r = await phoneRequest(b, '/pair', { method: 'POST', body: JSON.stringify({ code, name: 'Pixel\u202E evil' }) });
    const cookie = String((r.headers['set-cookie'] as string[])[0]);
    const again = await phoneRequest(b, '/pair', { method: 'POST', body: JSON.stringify({ code, name: 'second' }) });
    const list = await desk()['device.list'](undefined);
    expect({ status: r.status, flags: ['HttpOnly', 'Secure', 'SameSite=Strict'].every((f) => cookie.includes(f)), reused: again.status, newest: list.ok && list.value[0]?.name }).toEqual({ status: 204, flags: true, reused: 403, newest: 'Pixel\u202E evil' });
  });

  it(`a code guessed wrong ${PAIRING_GUESSES} times stops working, even for the right code`, async () => {
    const started = await desk()['device.pair'](undefined);
    const code = started.ok ? started.value.code : '';
    for (let i = 0; i < PAIRING_GUESSES; i++) await phoneRequest(b, '/pair', { method: 'POST', body: JSON.stringify({ code: `wrong${i}`, name: 'x' }) });
    const r = await phoneRequest(b, '/pair', { method: 'POST', body: JSON.stringify({ code, name: 'x' }) });
    expect({ status: r.status, said: /no pairing was started/.test(r.body) }).toEqual({ status: 403, said: true });
  });

  it('200 pairing attempts from the network: all refused, at most 20 a minute audited one by one, the history still verifies', async () => {
    const before = b.runtime.core.store.audit.list({ kind: 'device.pair_refused', limit: 1000 }).length;
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => phoneRequest(b, '/pair', { method: 'POST', body: JSON.stringify({ code: `guess-${i}`, name: 'x' }) })));
    const audited = b.runtime.core.store.audit.list({ kind: 'device.pair_refused', limit: 1000 }).length - before;
    expect({ refused: answers.every((a) => a.status === 403), audited: audited <= 20, verified: b.runtime.core.verifyAudit().ok }).toEqual({ refused: true, audited: true, verified: true });
  }, 60_000);

  it.each([
    { name: 'a form post (not JSON)', body: 'code=x&name=y', contentType: 'application/x-www-form-urlencoded', status: 415 },
    { name: 'JSON without a name', body: '{"code":"x"}', contentType: 'application/json', status: 400 },
    { name: 'a body of 64 KB', body: JSON.stringify({ code: 'x'.repeat(65536), name: 'n' }), contentType: 'application/json', status: 413 },
    { name: 'not JSON at all', body: '{"code":', contentType: 'application/json', status: 400 },
  ])('$name: refused with $status', async (c) => {
    await desk()['device.pair'](undefined);
    const r = await phoneRequest(b, '/pair', { method: 'POST', body: c.body, contentType: c.contentType });
    expect(r.status).toBe(c.status);
  });
});

describe('a paired phone decides cards as itself, and does nothing else', () => {
  it('sees a card with approve once, skip and deny only; approves it; History says person:phone:<device>', async () => {
    const { cookie, id } = await pairDevice(b, 'My phone');
    const phone = await phoneSocket(b, cookie);
    const review = b.runtime.handlers('control')['approval.request']({ tool: 'run_command', args: { command: 'touch from-phone.txt' }, session_id: 'ph', turn_id: 'ph1', cwd: b.workspace });
    let pending: { id: string; hash: string; outcomes: string[] }[] = [];
    for (let i = 0; i < 200 && !pending.length; i++) {
      const r = await phone.call('approval.list_pending');
      pending = (r.value as typeof pending) ?? [];
      if (!pending.length) await new Promise((res) => setTimeout(res, 10));
    }
    const card = pending[0]!;
    // An open phone page counts as someone who can answer.
    expect(b.runtime.core.approvers.kinds()).toContain('phone');
    const always = await phone.call('approval.decide', { id: card.id, hash: card.hash, outcome: 'approve_always' });
    const ok = await phone.call('approval.decide', { id: card.id, hash: card.hash, outcome: 'approve_once' });
    const v = await review;
    const event = phone.events.find((e) => e.name === 'approval.requested')?.payload as { outcomes: string[] } | undefined;
    expect({ outcomes: card.outcomes, evented: event?.outcomes, always: always.error?.code, ok: ok.ok, by: (ok.value as { decided_by: string }).decided_by, ran: v.ok && (v.value as { run: boolean }).run }).toEqual({
      outcomes: ['approve_once', 'skip', 'deny'],
      evented: ['approve_once', 'skip', 'deny'],
      always: 'outcome_unavailable',
      ok: true,
      by: `person:phone:${id}`,
      ran: true,
    });
    phone.ws.close();
  }, 30_000);

  // Each line is something a stolen phone would try; each is only at the desk.
  it.each([
    { op: 'settings.set_level', params: { level: 'full' } },
    { op: 'settings.update', params: { changes: { level: 'full' } } },
    { op: 'grant.create', params: { tool: 'run_command', pattern: { kind: 'tool' } } },
    { op: 'approval.reveal', params: { id: 'ap_x' } },
    { op: 'device.pair', params: undefined },
    { op: 'device.revoke', params: { id: 'dev_x' } },
    { op: 'agent.send', params: { message: 'rm -rf ~' } },
    { op: 'model.set', params: { kind: 'openai', base_url: 'https://evil.example/v1', model: 'x' } },
    { op: 'remote.set_token', params: { bridge: 'telegram', token: '123456:abcdefgh' } },
    { op: 'remote.configure', params: { telegram: { chat_id: 31337 } } },
    { op: 'checkpoint.restore', params: { id: 'cp_x' } },
  ])('$op is refused', async ({ op, params }) => {
    const { cookie } = await pairDevice(b);
    const phone = await phoneSocket(b, cookie);
    const r = await phone.call(op, params);
    phone.ws.close();
    expect({ ok: r.ok, code: r.error?.code }).toEqual({ ok: false, code: expect.stringMatching(/^(desk_only|unknown_operation)$/) });
  });

  it('a card above max_class or on a floor cannot be approved from the phone', async () => {
    const { cookie } = await pairDevice(b);
    const phone = await phoneSocket(b, cookie);
    const review = b.runtime.handlers('control')['approval.request']({ tool: 'run_command', args: { command: 'rm -rf ~/Documents' }, session_id: 'ph', turn_id: 'ph2', cwd: b.workspace });
    let card: { id: string; hash: string; outcomes: string[] } | undefined;
    for (let i = 0; i < 200 && !card; i++) {
      card = ((await phone.call('approval.list_pending')).value as (typeof card)[])?.[0];
      if (!card) await new Promise((res) => setTimeout(res, 10));
    }
    const r = await phone.call('approval.decide', { id: card!.id, hash: card!.hash, outcome: 'approve_once' });
    const forgedHash = await phone.call('approval.decide', { id: card!.id, hash: 'e'.repeat(64), outcome: 'deny' });
    const audited = b.runtime.core.store.audit.list({ kind: 'remote.refused', limit: 5 }).map((e) => (e.data as { bridge: string; reason: string }).reason);
    expect({ outcomes: card!.outcomes, code: r.error?.code, forged: forgedHash.error?.code, audited: audited.slice(0, 2) }).toEqual({ outcomes: ['skip', 'deny'], code: 'outcome_unavailable', forged: 'hash_mismatch', audited: ['hash_mismatch', 'not_offered'] });
    await phone.call('approval.decide', { id: card!.id, hash: card!.hash, outcome: 'deny' });
    await review;
    phone.ws.close();
  }, 30_000);
});

describe('a revoked device is refused at once', () => {
  it('its open page is closed, its next request and its next socket are refused, and the revocation is audited', async () => {
    const { cookie, id } = await pairDevice(b, 'Lost phone');
    const phone = await phoneSocket(b, cookie);
    const revoked = await desk()['device.revoke']({ id });
    const closed = await phone.closed;
    const next = await phoneRequest(b, '/ws', { cookie });
    const socket = await phoneSocket(b, cookie).then(
      () => 'opened',
      (e: Error) => e.message,
    );
    const audited = b.runtime.core.store.audit.list({ kind: 'device.revoked', limit: 5 }).map((e) => e.subject);
    expect({ revoked: revoked.ok, closed: closed.code, next: next.status, socket, audited }).toEqual({ revoked: true, closed: 4401, next: 401, socket: 'refused: 401', audited: [id] });
  });
});
