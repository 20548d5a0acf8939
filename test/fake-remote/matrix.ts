// A fake Matrix homeserver at the wire, on loopback: the client-server API's whoami, /sync (long polling
// with since tokens; the timeline of each joined room, the bot's own events included, as a real server
// sends them) and PUT .../send/m.room.message/{txnId}. A test answers a card as a person's client would:
// an m.reaction annotating it, or an m.room.message replying to it, from any sender and room it likes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostileBody, json, startFakeHttp, type FakeHttp, type Misbehaviour } from './http';

export interface MxEvent {
  room: string;
  event_id: string;
  type: string;
  sender: string;
  content: Record<string, unknown>;
  origin_server_ts: number;
  /** performance.now() when the server received it (benchmarks). */
  at: number;
}

export class FakeMatrix {
  readonly events: MxEvent[] = [];
  readonly bot = '@threshold-bot:example.org';
  private seq = 0;
  private waiters = new Set<() => void>();
  private txns = new Map<string, string>();
  pollMode: Misbehaviour = 'normal';
  sendMode: Misbehaviour = 'normal';
  sendDelayMs = 0;
  down = false;
  private http!: FakeHttp;

  private constructor(readonly token: string) {}

  static async start(token = 'syt_fake_matrix_access_token_abcdef'): Promise<FakeMatrix> {
    const f = new FakeMatrix(token);
    f.http = await startFakeHttp((req, body, res) => f.handle(req, body, res), { down: () => f.down });
    return f;
  }

  get base(): string {
    return this.http.base;
  }

  close(): Promise<void> {
    for (const w of this.waiters) w();
    return this.http.close();
  }

  /** The cards the bot sent (not its edits or notices). */
  cards(room?: string): MxEvent[] {
    return this.events.filter((e) => e.sender === this.bot && e.content['msgtype'] === 'm.text' && !e.content['m.relates_to'] && (!room || e.room === room));
  }

  /** A card's text as a client shows it: its newest m.replace, else its own body. */
  shown(card: MxEvent): string {
    const edits = this.events.filter((e) => (e.content['m.relates_to'] as { rel_type?: string; event_id?: string } | undefined)?.rel_type === 'm.replace' && (e.content['m.relates_to'] as { event_id: string }).event_id === card.event_id);
    const last = edits[edits.length - 1];
    return last ? String((last.content['m.new_content'] as { body: string }).body) : String(card.content['body']);
  }

  /** The notices the bot sent in reply to an event. */
  repliesTo(eventId: string): string[] {
    return this.events.filter((e) => e.sender === this.bot && (e.content['m.relates_to'] as { 'm.in_reply_to'?: { event_id: string } } | undefined)?.['m.in_reply_to']?.event_id === eventId).map((e) => String(e.content['body']));
  }

  add(room: string, sender: string, type: string, content: Record<string, unknown>): MxEvent {
    const e: MxEvent = { room, event_id: `$ev${++this.seq}:example.org`, type, sender, content, origin_server_ts: Date.now(), at: performance.now() };
    this.events.push(e);
    for (const w of [...this.waiters]) w();
    return e;
  }

  react(card: MxEvent, key: string, opts: { sender: string; room?: string }): MxEvent {
    return this.add(opts.room ?? card.room, opts.sender, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: card.event_id, key } });
  }

  reply(card: MxEvent, text: string, opts: { sender: string; room?: string }): MxEvent {
    return this.add(opts.room ?? card.room, opts.sender, 'm.room.message', { msgtype: 'm.text', body: `> <${this.bot}> ${String(card.content['body']).split('\n')[0]}\n\n${text}`, 'm.relates_to': { 'm.in_reply_to': { event_id: card.event_id } } });
  }

  private async handle(req: IncomingMessage, body: string, res: ServerResponse): Promise<void> {
    if (req.headers.authorization !== `Bearer ${this.token}`) return json(res, 401, { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.' });
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/_matrix/client/v3/account/whoami') return json(res, 200, { user_id: this.bot });
    if (req.method === 'GET' && url.pathname === '/_matrix/client/v3/sync') return this.sync(url, res);
    const send = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/m\.room\.message\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'PUT' && send) {
      const mode = this.sendMode;
      if (mode === 'hang') return;
      if (this.sendDelayMs) await new Promise((r) => setTimeout(r, this.sendDelayMs));
      const hostile = hostileBody(mode);
      if (hostile !== null) return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(hostile);
      if (mode === 'wrong_shape') return json(res, 200, { event_id: 42 });
      const room = decodeURIComponent(send[1]!);
      const txn = decodeURIComponent(send[2]!);
      // Idempotent per transaction id, as the spec requires.
      const seen = this.txns.get(txn);
      if (seen) return json(res, 200, { event_id: seen });
      let content: Record<string, unknown>;
      try {
        content = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return json(res, 400, { errcode: 'M_NOT_JSON', error: 'Content not JSON.' });
      }
      const e = this.add(room, this.bot, 'm.room.message', content);
      this.txns.set(txn, e.event_id);
      return json(res, 200, { event_id: e.event_id });
    }
    return json(res, 404, { errcode: 'M_UNRECOGNIZED', error: 'Unrecognized request' });
  }

  private async sync(url: URL, res: ServerResponse): Promise<void> {
    const mode = this.pollMode;
    if (mode === 'hang') return;
    const hostile = hostileBody(mode);
    if (hostile !== null) return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(hostile);
    if (mode === 'wrong_shape') return json(res, 200, { next_batch: 7, rooms: 'none' });
    const since = Number(url.searchParams.get('since')?.slice(1) ?? this.events.length);
    const timeout = Math.min(Number(url.searchParams.get('timeout') ?? 0), 50_000);
    if (this.events.length <= since && timeout > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          this.waiters.delete(done);
          resolve();
        };
        const t = setTimeout(done, timeout);
        this.waiters.add(done);
        res.on('close', done);
      });
    }
    if (res.destroyed) return;
    const fresh = url.searchParams.has('since') ? this.events.slice(since) : [];
    const join: Record<string, { timeline: { events: unknown[] } }> = {};
    for (const e of fresh) (join[e.room] ??= { timeline: { events: [] } }).timeline.events.push({ type: e.type, event_id: e.event_id, sender: e.sender, content: e.content, origin_server_ts: e.origin_server_ts });
    json(res, 200, { next_batch: `s${this.events.length}`, rooms: { join } });
  }
}
