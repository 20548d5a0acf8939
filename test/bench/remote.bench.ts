// Remote approvals: how long a parked card takes to reach the chat service, and how long a tap takes to
// become the decision, for Telegram (grammY) and Matrix side by side, against the loopback fakes that
// speak each service's wire format. Targets from issue 23: card parked → message sent, p95 <= 300 ms;
// tap → decision applied <= one poll round trip + 50 ms (the round trip is measured in the same run).
import { randomBytes } from 'node:crypto';
import { DEFAULT_CONFIG } from '../../main/config/load';
import { ThresholdCore } from '../../main/runtime/core';
import type { RemoteBridge } from '../../main/remote/bridge';
import { REMOTE_OFF, type RemoteConfig } from '../../main/config/remote-settings';
import { DecisionTokens } from '../../main/remote/decision-token';
import { RemoteApprovers } from '../../main/remote/hub';
import { MatrixBridge } from '../../main/remote/matrix';
import { TelegramBridge } from '../../main/remote/telegram';
import { Store } from '../../main/store/store';
import { FakeMatrix } from '../fake-remote/matrix';
import { FakeTelegram } from '../fake-remote/telegram';
import { waitFor } from '../fake-remote/http';
import { TEST_PATHS } from '../support/policy';
import { atMost, percentile, type BenchSuite } from './harness';

const ROUNDS = 150;
const WARMUP = 20;

interface Harness {
  core: ThresholdCore;
  hub: RemoteApprovers;
  /** performance.now() when the fake received the card for the newest message. */
  sentAt(): number | null;
  /** Taps the newest card's approve button; returns performance.now() at the tap. */
  tap(): number;
  /** One request to the fake that is answered at once (the poll's round trip without waiting). */
  roundTrip(): Promise<number>;
  close(): Promise<void>;
}

async function harness(kind: 'telegram' | 'matrix'): Promise<Harness> {
  const store = Store.inMemory();
  const remote: RemoteConfig = { ...REMOTE_OFF, pollSeconds: 25 };
  const core = await ThresholdCore.open({ dataDir: '/nonexistent', config: { ...DEFAULT_CONFIG, remote }, paths: TEST_PATHS, store });
  const redact = (t: string) => core.redactor.redactTextSync(t);
  let bridge: RemoteBridge;
  let sentAt: () => number | null;
  let tap: () => number;
  let roundTrip: () => Promise<number>;
  let close: () => Promise<void>;
  if (kind === 'telegram') {
    const tg = await FakeTelegram.start();
    const cfg = { apiBase: tg.base, botTokenEnv: 'X', chatId: 42 };
    bridge = new TelegramBridge({ config: cfg, token: tg.token, pollSeconds: 25, redact });
    remote.telegram = cfg;
    sentAt = () => tg.messages[tg.messages.length - 1]?.sent_at ?? null;
    tap = () => {
      const m = tg.messages[tg.messages.length - 1]!;
      const t = performance.now();
      tg.press(m, m.keyboard[0]![0]!.callback_data);
      return t;
    };
    roundTrip = async () => {
      const t = performance.now();
      await fetch(`${tg.base}/bot${tg.token}/getUpdates`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"timeout":0,"offset":-1}' }).then((r) => r.text());
      return performance.now() - t;
    };
    close = () => tg.close();
  } else {
    const mx = await FakeMatrix.start();
    const cfg = { homeserver: mx.base, accessTokenEnv: 'X', roomId: '!r:example.org', userId: '@me:example.org' };
    bridge = new MatrixBridge({ config: cfg, token: mx.token, pollSeconds: 25, redact });
    remote.matrix = cfg;
    sentAt = () => mx.cards().at(-1)?.at ?? null;
    tap = () => {
      const card = mx.cards().at(-1)!;
      const t = performance.now();
      mx.react(card, '✅', { sender: '@me:example.org' });
      return t;
    };
    roundTrip = async () => {
      const t = performance.now();
      await fetch(`${mx.base}/_matrix/client/v3/sync?timeout=0&since=s${mx.events.length}`, { headers: { Authorization: `Bearer ${mx.token}` } }).then((r) => r.text());
      return performance.now() - t;
    };
    close = () => mx.close();
  }
  const hub = new RemoteApprovers({ core, config: remote, tokens: new DecisionTokens(store, randomBytes(32)), bridges: [bridge] });
  hub.start();
  // Matrix's first sync only marks "now"; answers count from the second. (Telegram's first poll already waits.)
  if (kind === 'matrix') await waitFor(() => bridge.status().state === 'ok', 'the first sync', 10_000);
  return {
    core,
    hub,
    sentAt,
    tap,
    roundTrip,
    close: async () => {
      await hub.dispose();
      core.dispose();
      await close();
    },
  };
}

async function measure(kind: 'telegram' | 'matrix') {
  const h = await harness(kind);
  const send: number[] = [];
  const decide: number[] = [];
  const rtt: number[] = [];
  for (let i = 0; i < ROUNDS + WARMUP; i++) {
    let parkedAt = 0;
    const off = h.core.events.on('approval.requested', () => (parkedAt = performance.now()));
    const before = h.sentAt();
    const review = h.core.calls.review({ sessionId: 'bench', turnId: `t${i}`, turnKind: 'reactive', tool: 'run_command', args: { command: `touch remote-${i}.txt` }, cwd: TEST_PATHS.workspace });
    const sent = await waitFor(() => {
      const s = h.sentAt();
      return s !== null && s !== before ? s : null;
    }, 'the card at the fake');
    off();
    // The message id is stored once the send answered: a tap needs the card known.
    await h.hub.settled();
    let decidedAt = 0;
    const offDecided = h.core.events.on('approval.decided', () => (decidedAt = performance.now()));
    const tappedAt = h.tap();
    const v = await review;
    offDecided();
    if (!v.run) throw new Error(`the ${kind} tap did not approve the call`);
    const rt = await h.roundTrip();
    if (i >= WARMUP) {
      send.push(sent - parkedAt);
      decide.push(decidedAt - tappedAt);
      rtt.push(rt);
    }
    await h.hub.settled();
  }
  await h.close();
  for (const a of [send, decide, rtt]) a.sort((x, y) => x - y);
  return { send, decide, rtt };
}

export const suites: BenchSuite[] = (['telegram', 'matrix'] as const).map((kind) => ({
  name: `remote approvals (${kind}, loopback fake)`,
  async run(report) {
    const { send, decide, rtt } = await measure(kind);
    const p95 = percentile(send, 95);
    report({ name: `card parked → message at the fake, median (${send.length} cards)`, value: percentile(send, 50), unit: 'ms' });
    report({ name: 'card parked → message at the fake, p95', value: p95, unit: 'ms', ...atMost(p95, 300) });
    report({ name: 'card parked → message at the fake, p99', value: percentile(send, 99), unit: 'ms' });
    const rttMedian = percentile(rtt, 50);
    report({ name: 'one poll round trip (an answered request), median', value: rttMedian, unit: 'ms' });
    report({ name: 'tap → decision applied, median', value: percentile(decide, 50), unit: 'ms', ...atMost(percentile(decide, 50), Math.round((rttMedian + 50) * 10) / 10) });
    report({ name: 'tap → decision applied, p99', value: percentile(decide, 99), unit: 'ms', ...atMost(percentile(decide, 99), Math.round((rttMedian + 50) * 10) / 10) });
  },
}));
