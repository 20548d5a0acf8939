// The Matrix bridge: a small typed client of the few client-server API endpoints it needs (/sync long
// polling, sending and editing an m.room.message, whoami), outbound only. A card is an m.room.message in
// the configured room; the answer is a reaction to it (✅ approve once, ⏭️ skip, ❌ deny) or a reply whose
// first word is approve, skip or deny (docs/remote.md). Answers name the card, not a token: the hub looks
// up the token minted for that card and outcome and checks its MAC. A decided card is edited in place
// (m.replace). Every reply of the homeserver is read through guardedFetch and checked with zod.
//
// Why not matrix-js-sdk: its releases from 38 on need Node 22 (Threshold's core runs on Node 20), the last
// one for Node 20 (37.x) no longer gets fixes, and it brings an end-to-end-encryption WASM module and a
// client state machine for the four endpoints used here.
import { z } from 'zod';
import type { BridgeStatus, OutgoingCard, Press, RemoteBridge } from './bridge';
import { backoffMs, waitOrStop } from './bridge';
import { oneLine } from './card-text';
import type { MatrixConfig } from '../config/remote-settings';
import { guardedFetch, ReplyRefused } from './guarded-fetch';

const SEND_TIMEOUT_MS = 10_000;
const BODY_MAX = 16_000;

/** Reaction keys and reply words, and the outcome each means. */
export const REACTIONS: Record<string, 'approve_once' | 'skip' | 'deny'> = { '✅': 'approve_once', '⏭': 'skip', '❌': 'deny' };
export const REPLY_WORDS: Record<string, 'approve_once' | 'skip' | 'deny'> = { approve: 'approve_once', yes: 'approve_once', skip: 'skip', deny: 'deny', no: 'deny' };
const REACTION_OF = { approve_once: '✅', skip: '⏭️', deny: '❌' } as const;
const WORD_OF = { approve_once: 'approve', skip: 'skip', deny: 'deny' } as const;

const eventSchema = z.object({
  type: z.string().max(255),
  event_id: z.string().min(1).max(255),
  sender: z.string().max(255),
  content: z.record(z.string(), z.unknown()),
});
const syncSchema = z.object({
  next_batch: z.string().min(1).max(4096),
  rooms: z.object({ join: z.record(z.string().max(255), z.object({ timeline: z.object({ events: z.array(z.unknown()).max(1000) }).optional() })).optional() }).optional(),
});
const sentSchema = z.object({ event_id: z.string().min(1).max(255) });
const errorSchema = z.object({ errcode: z.string().max(100), error: z.string().max(2000).optional() });

export interface MatrixOptions {
  config: MatrixConfig;
  token: string;
  pollSeconds: number;
  now?: () => number;
  log?: (line: string) => void;
  redact: (text: string) => string;
}

export class MatrixError extends Error {}

export class MatrixBridge implements RemoteBridge {
  readonly name = 'matrix' as const;
  readonly audience: string;
  private readonly stop = new AbortController();
  private loop: Promise<void> | null = null;
  private state: BridgeStatus = { state: 'starting', error: null, last_ok_at: null };
  private since: string | null = null;
  private self: string | null = null;
  private txn = 0;
  private readonly now: () => number;
  private readonly pollFetch: ReturnType<typeof guardedFetch>;
  private readonly sendFetch: ReturnType<typeof guardedFetch>;

  constructor(private readonly o: MatrixOptions) {
    this.audience = o.config.roomId;
    this.now = o.now ?? Date.now;
    this.pollFetch = guardedFetch({ timeoutMs: (o.pollSeconds + 10) * 1000 });
    this.sendFetch = guardedFetch({ timeoutMs: SEND_TIMEOUT_MS });
  }

  status(): BridgeStatus {
    return { ...this.state };
  }

  start(onPress: (press: Press) => void): void {
    this.loop ??= this.poll(onPress);
  }

  /** One request to the homeserver: the JSON answer, or a MatrixError naming what went wrong. */
  private async request(method: 'GET' | 'PUT', path: string, body: unknown, poll: boolean): Promise<unknown> {
    const res = await (poll ? this.pollFetch : this.sendFetch)(`${this.o.config.homeserver}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.o.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: this.stop.signal,
    });
    const text = await res.text();
    let value: unknown;
    try {
      value = text ? JSON.parse(text) : null;
    } catch {
      throw new MatrixError(`the homeserver answered ${res.status} with something that is not JSON`);
    }
    if (!res.ok) {
      const e = errorSchema.safeParse(value);
      throw new MatrixError(`the homeserver answered ${res.status}${e.success ? `: ${e.data.errcode}${e.data.error ? ` (${oneLine(e.data.error, 200)})` : ''}` : ''}`);
    }
    return value;
  }

  private filter(): string {
    return JSON.stringify({
      room: { rooms: [this.o.config.roomId], timeline: { limit: 50, types: ['m.reaction', 'm.room.message'] }, state: { types: [] }, ephemeral: { types: [] }, account_data: { types: [] } },
      presence: { types: [] },
      account_data: { types: [] },
    });
  }

  private async poll(onPress: (press: Press) => void): Promise<void> {
    let failures = 0;
    while (!this.stop.signal.aborted) {
      try {
        if (!this.self) {
          const who = z.object({ user_id: z.string().max(255) }).safeParse(await this.request('GET', '/_matrix/client/v3/account/whoami', undefined, false));
          if (!who.success) throw new MatrixError('whoami answered without a user id');
          this.self = who.data.user_id;
        }
        // The first sync only finds where "now" is: answers given before Threshold started are not replayed.
        const timeout = this.since ? this.o.pollSeconds * 1000 : 0;
        const q = new URLSearchParams({ timeout: String(timeout), filter: this.filter(), ...(this.since ? { since: this.since } : {}) });
        const raw = await this.request('GET', `/_matrix/client/v3/sync?${q}`, undefined, true);
        const sync = syncSchema.safeParse(raw);
        if (!sync.success) throw new MatrixError('/sync answered with a body of the wrong shape');
        const first = this.since === null;
        this.since = sync.data.next_batch;
        failures = 0;
        this.state = { state: 'ok', error: null, last_ok_at: this.now() };
        if (first) continue;
        for (const [room, joined] of Object.entries(sync.data.rooms?.join ?? {})) {
          for (const raw of joined.timeline?.events ?? []) this.take(room, raw, onPress);
        }
      } catch (err) {
        if (this.stop.signal.aborted) break;
        failures++;
        const why = this.o.redact(err instanceof MatrixError || err instanceof ReplyRefused ? err.message : oneLine(String((err as Error)?.message ?? err), 200));
        this.state = { ...this.state, state: 'failing', error: why };
        if (failures === 1 || failures % 20 === 0) this.o.log?.(`matrix: sync failed (${why}); retrying`);
        await waitOrStop(backoffMs(failures), this.stop.signal);
      }
    }
  }

  /** One timeline event: a reaction to a message or a reply to one becomes an answer; anything else is ignored. */
  private take(room: string, raw: unknown, onPress: (press: Press) => void): void {
    const e = eventSchema.safeParse(raw);
    if (!e.success || e.data.sender === this.self) return;
    const rel = e.data.content['m.relates_to'] as Record<string, unknown> | undefined;
    if (!rel || typeof rel !== 'object') return;
    let target: string | null = null;
    let outcome: string | null = null;
    if (e.data.type === 'm.reaction' && rel['rel_type'] === 'm.annotation' && typeof rel['event_id'] === 'string' && typeof rel['key'] === 'string') {
      target = rel['event_id'];
      // A key with or without the emoji variation selector is the same reaction.
      const key = rel['key'].replace(/\uFE0F/g, '');
      outcome = REACTIONS[key] ?? `unknown:${key.slice(0, 16)}`;
    } else if (e.data.type === 'm.room.message' && typeof (rel['m.in_reply_to'] as { event_id?: unknown } | undefined)?.event_id === 'string' && typeof e.data.content['body'] === 'string') {
      target = (rel['m.in_reply_to'] as { event_id: string }).event_id;
      outcome = replyOutcome(e.data.content['body']);
    }
    if (!target || !outcome) return;
    const answerEvent = e.data.event_id;
    onPress({
      bridge: 'matrix',
      audience: room,
      sender: e.data.sender,
      token: null,
      card: { messageId: target, outcome },
      // A refusal in a room that is not ours is audited, never posted there.
      reply: async (text) => {
        if (room !== this.o.config.roomId) return;
        await this.sendEvent({ msgtype: 'm.notice', body: text, 'm.relates_to': { 'm.in_reply_to': { event_id: answerEvent } } }).catch(() => undefined);
      },
    });
  }

  private async sendEvent(content: Record<string, unknown>): Promise<string> {
    const txn = `thr${this.now()}.${++this.txn}`;
    const path = `/_matrix/client/v3/rooms/${encodeURIComponent(this.o.config.roomId)}/send/m.room.message/${encodeURIComponent(txn)}`;
    const sent = sentSchema.safeParse(await this.request('PUT', path, content, false));
    if (!sent.success) throw new MatrixError('the homeserver answered a send without an event id');
    return sent.data.event_id;
  }

  async send(card: OutgoingCard): Promise<{ messageId: string }> {
    const how = card.buttons.length
      ? `Answer with a reaction: ${card.buttons.map((b) => `${REACTION_OF[b.outcome as keyof typeof REACTION_OF]} ${b.label.toLowerCase()}`).join(', ')}; or reply ${card.buttons.map((b) => `"${WORD_OF[b.outcome as keyof typeof WORD_OF]}"`).join(', ')}.`
      : '';
    const body = clip([card.text, how].filter(Boolean).join('\n'));
    const id = await this.sendEvent({ msgtype: 'm.text', body });
    this.state = { state: 'ok', error: null, last_ok_at: this.now() };
    return { messageId: id };
  }

  async edit(messageId: string, text: string): Promise<void> {
    const body = clip(text);
    await this.sendEvent({ msgtype: 'm.text', body: `* ${body}`, 'm.new_content': { msgtype: 'm.text', body }, 'm.relates_to': { rel_type: 'm.replace', event_id: messageId } });
  }

  async dispose(): Promise<void> {
    this.stop.abort();
    await this.loop?.catch(() => undefined);
    this.state = { ...this.state, state: 'stopped' };
  }
}

/** The outcome a reply's first own word names: quoted lines (the reply fallback) are skipped. */
export function replyOutcome(body: string): string | null {
  const own = body
    .split('\n')
    .filter((l) => !l.startsWith('>'))
    .join(' ')
    .trim();
  const word = /^([A-Za-z]+)/.exec(own)?.[1]?.toLowerCase();
  if (!word) return null;
  return REPLY_WORDS[word] ?? `unknown:${word.slice(0, 16)}`;
}

function clip(text: string): string {
  return text.length > BODY_MAX ? `${text.slice(0, BODY_MAX - 1)}…` : text;
}

