import { describe, expect, it } from 'vitest';
import { createSocketTransport, type ConnectionStatus, type ProbeResult, type SocketLike } from './socket-transport';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
    this.onclose?.({});
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

function harness(extra: { probe?: () => Promise<ProbeResult>; now?: () => number } = {}) {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const t = createSocketTransport({
    ...extra,
    lostAfterMs: 5000,
    url: 'ws://127.0.0.1:1/ws',
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    backoffMs: [100, 200, 400],
    setTimer: (fn, ms) => {
      const h = { fn, ms, cleared: false };
      timers.push(h);
      return h;
    },
    clearTimer: (h) => {
      (h as { cleared: boolean }).cleared = true;
    },
  });
  const statuses: ConnectionStatus[] = [];
  t.onStatus((s) => statuses.push(s));
  const fireRetry = () => {
    const next = timers.find((x) => !x.cleared);
    next!.cleared = true;
    next!.fn();
    return next!.ms;
  };
  return { t, sockets, timers, statuses, fireRetry };
}

describe('the web bridge transport', () => {
  it('sends {id, op, params} and resolves the reply with the same id', async () => {
    const h = harness();
    h.sockets[0]!.open();
    const reply = h.t.invoke('approval.decide', { id: 'ap_1' });
    const none = h.t.invoke('app.get_info');
    expect(h.sockets[0]!.sent).toEqual([{ id: 1, op: 'approval.decide', params: { id: 'ap_1' } }, { id: 2, op: 'app.get_info' }]);
    h.sockets[0]!.receive({ id: 2, result: { ok: true, value: { name: 'Threshold', version: '0.1.0', runtime: 'web' } } });
    h.sockets[0]!.receive({ id: 1, result: { ok: false, error: { code: 'already_decided', message: 'Decided.' } } });
    expect(await reply).toEqual({ ok: false, error: { code: 'already_decided', message: 'Decided.' } });
    expect(await none).toEqual({ ok: true, value: { name: 'Threshold', version: '0.1.0', runtime: 'web' } });
  });

  it('a reply whose value does not fit the operation is refused as a value', async () => {
    const h = harness();
    h.sockets[0]!.open();
    const r = h.t.invoke('app.get_info');
    h.sockets[0]!.receive({ id: 1, result: { ok: true, value: 'info' } });
    expect(await r).toEqual({ ok: false, error: { code: 'invalid_reply', message: expect.stringMatching(/^Threshold answered app.get_info with a value of the wrong shape/) } });
  });

  it('delivers pushed events to subscribers and stops after unsubscribe', () => {
    const h = harness();
    h.sockets[0]!.open();
    const got: unknown[] = [];
    const off = h.t.subscribe((e) => got.push(e));
    h.sockets[0]!.receive({ event: { name: 'question.closed', payload: { id: 'q_1', outcome: 'answered' } } });
    h.sockets[0]!.receive({ event: { name: 'question.closed', payload: { id: 'q_2', outcome: 'made-up' } } });
    h.sockets[0]!.receive({ event: { name: 'no.such.event', payload: {} } });
    off();
    h.sockets[0]!.receive({ event: { name: 'question.closed', payload: { id: 'q_3', outcome: 'answered' } } });
    // The second and third do not fit the table: dropped, never half-trusted.
    expect(got).toEqual([{ name: 'question.closed', payload: { id: 'q_1', outcome: 'answered' } }]);
  });

  it('fails a request made while disconnected at once, with a value', async () => {
    const h = harness();
    expect(await h.t.invoke('app.get_info')).toEqual({ ok: false, error: { code: 'disconnected', message: expect.any(String) } });
  });

  it('fails requests in flight when the socket closes, then reconnects with growing backoff and reports each status', async () => {
    const h = harness();
    h.sockets[0]!.open();
    const inFlight = h.t.invoke('approval.list_pending');
    h.sockets[0]!.close();
    expect(await inFlight).toEqual({ ok: false, error: { code: 'disconnected', message: expect.any(String) } });
    expect(h.fireRetry()).toEqual(100);
    h.sockets[1]!.close();
    expect(h.fireRetry()).toEqual(200);
    h.sockets[2]!.close();
    expect(h.fireRetry()).toEqual(400);
    h.sockets[3]!.close();
    expect(h.fireRetry()).toEqual(400);
    h.sockets[4]!.open();
    h.sockets[4]!.close();
    expect(h.fireRetry()).toEqual(100);
    expect(h.statuses).toEqual(['connecting', 'open', 'reconnecting', 'open', 'reconnecting']);
  });

  it('close() stops reconnecting', () => {
    const h = harness();
    h.sockets[0]!.open();
    h.t.close();
    expect(h.sockets.length).toEqual(1);
    expect(h.timers.filter((x) => !x.cleared)).toEqual([]);
  });

  const settle = () => new Promise((r) => setTimeout(r, 0));

  it.each<[string, ProbeResult[], number, ConnectionStatus[]]>([
    ['a daemon that answers but refuses the cookie: not signed in (not a network problem)', ['signed_out'], 0, ['connecting', 'unauthorized']],
    ['a daemon that does not answer for a moment: reconnecting', ['unreachable', 'unreachable'], 1000, ['connecting', 'open', 'reconnecting']],
    ['a daemon that does not answer past the limit: lost', ['unreachable', 'unreachable'], 6000, ['connecting', 'open', 'reconnecting', 'lost']],
  ])('tells why the socket failed: %s', async (_name, answers, elapsed, expected) => {
    let clock = 0;
    const probes = [...answers];
    const h = harness({ probe: async () => probes.shift() ?? 'unreachable', now: () => clock });
    if (answers[0] !== 'signed_out') h.sockets[0]!.open();
    h.sockets[0]!.close();
    await settle();
    if (answers.length > 1) {
      clock += elapsed;
      h.fireRetry();
      h.sockets[1]!.close();
      await settle();
    }
    expect(h.statuses).toEqual(expected);
  });

  it('a lost page that finds its daemon again (same address, same token) is open again', async () => {
    let clock = 0;
    const h = harness({ probe: async () => 'unreachable', now: () => clock });
    h.sockets[0]!.open();
    h.sockets[0]!.close();
    await settle();
    clock = 60_000;
    h.fireRetry();
    h.sockets[1]!.close();
    await settle();
    h.fireRetry();
    h.sockets[2]!.open();
    expect(h.statuses).toEqual(['connecting', 'open', 'reconnecting', 'lost', 'open']);
  });

  it('retryNow tries at once (a token was just exchanged), and does nothing while open', () => {
    const h = harness();
    h.sockets[0]!.open();
    h.t.retryNow();
    expect(h.sockets.length).toEqual(1);
    h.sockets[0]!.close();
    h.t.retryNow();
    expect({ sockets: h.sockets.length, pendingTimers: h.timers.filter((x) => !x.cleared).length }).toEqual({ sockets: 2, pendingTimers: 0 });
  });
});
