// A fake of Telegram's Bot API at the wire, on loopback: POST /bot<token>/<method> with a JSON body,
// answered {ok, result} or {ok: false, error_code, description} as the real service does. getUpdates long
// polls (offset confirms earlier updates), sendMessage and editMessageText keep the chat's messages with
// their inline keyboards, answerCallbackQuery records what the presser was told. A test presses a button
// by queueing the callback_query update a real client would cause, from any user and chat it likes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostileBody, json, startFakeHttp, type FakeHttp, type Misbehaviour } from './http';

export interface TgButton {
  text: string;
  callback_data: string;
}

export interface TgMessage {
  message_id: number;
  chat_id: number;
  text: string;
  keyboard: TgButton[][];
  sent_at: number;
  edits: number;
}

export class FakeTelegram {
  readonly messages: TgMessage[] = [];
  readonly answers: { callback_query_id: string; text: string }[] = [];
  readonly calls: { method: string; at: number }[] = [];
  private updates: { update_id: number; [k: string]: unknown }[] = [];
  private nextUpdate = 1;
  private nextMessage = 100;
  private waiters = new Set<() => void>();
  /** How getUpdates and the sending methods misbehave. */
  pollMode: Misbehaviour = 'normal';
  sendMode: Misbehaviour = 'normal';
  sendDelayMs = 0;
  down = false;
  private http!: FakeHttp;

  private constructor(readonly token: string) {}

  static async start(token = '123456:TEST-fake-bot-token-abcdefghijklmnop'): Promise<FakeTelegram> {
    const f = new FakeTelegram(token);
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

  /** Presses a button as a user in a chat (defaults: the message's own chat, its user). */
  press(message: TgMessage, data: string, opts: { fromId?: number; chatId?: number; queryId?: string } = {}): string {
    const id = opts.queryId ?? `cq${this.nextUpdate}`;
    const chatId = opts.chatId ?? message.chat_id;
    this.push({ callback_query: { id, from: { id: opts.fromId ?? chatId, is_bot: false, first_name: 'Me' }, chat_instance: 'ci', message: { message_id: message.message_id, date: 0, chat: { id: chatId, type: 'private' } }, data } });
    return id;
  }

  /** Queues any update (hostile ones included). */
  push(update: Record<string, unknown>): void {
    this.updates.push({ update_id: this.nextUpdate++, ...update });
    for (const w of [...this.waiters]) w();
  }

  pushRaw(update: unknown): void {
    this.updates.push(update as { update_id: number });
    for (const w of [...this.waiters]) w();
  }

  private async handle(req: IncomingMessage, body: string, res: ServerResponse): Promise<void> {
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    if (!m || req.method !== 'POST') return json(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (m[1] !== this.token) return json(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = m[2]!;
    this.calls.push({ method, at: Date.now() });
    let p: Record<string, unknown> = {};
    try {
      p = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    } catch {
      return json(res, 400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON' });
    }
    if (method === 'getUpdates') return this.getUpdates(p, res);
    const mode = this.sendMode;
    if (mode === 'hang') return; // never answers
    if (this.sendDelayMs) await new Promise((r) => setTimeout(r, this.sendDelayMs));
    const hostile = hostileBody(mode);
    if (hostile !== null) return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(hostile);
    if (mode === 'wrong_shape') return json(res, 200, { ok: true, result: { message_id: 'not a number' } });
    switch (method) {
      case 'sendMessage': {
        const msg: TgMessage = { message_id: this.nextMessage++, chat_id: Number(p['chat_id']), text: String(p['text']), keyboard: ((p['reply_markup'] as { inline_keyboard?: TgButton[][] } | undefined)?.inline_keyboard ?? []), sent_at: performance.now(), edits: 0 };
        this.messages.push(msg);
        return json(res, 200, { ok: true, result: { message_id: msg.message_id, date: Math.floor(Date.now() / 1000), chat: { id: msg.chat_id, type: 'private' }, text: msg.text } });
      }
      case 'editMessageText': {
        const msg = this.messages.find((x) => x.message_id === Number(p['message_id']) && x.chat_id === Number(p['chat_id']));
        if (!msg) return json(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message to edit not found' });
        const keyboard = (p['reply_markup'] as { inline_keyboard?: TgButton[][] } | undefined)?.inline_keyboard ?? [];
        if (msg.text === p['text'] && JSON.stringify(msg.keyboard) === JSON.stringify(keyboard)) return json(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message is not modified' });
        msg.text = String(p['text']);
        msg.keyboard = keyboard;
        msg.edits++;
        return json(res, 200, { ok: true, result: { message_id: msg.message_id, date: 0, chat: { id: msg.chat_id, type: 'private' }, text: msg.text } });
      }
      case 'answerCallbackQuery':
        this.answers.push({ callback_query_id: String(p['callback_query_id']), text: String(p['text'] ?? '') });
        return json(res, 200, { ok: true, result: true });
      default:
        return json(res, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
    }
  }

  private async getUpdates(p: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const offset = Number(p['offset'] ?? 0);
    if (offset > 0) this.updates = this.updates.filter((u) => typeof u.update_id !== 'number' || u.update_id >= offset);
    const mode = this.pollMode;
    if (mode === 'hang') return;
    const hostile = hostileBody(mode);
    if (hostile !== null) return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(hostile);
    if (mode === 'wrong_shape') return json(res, 200, { ok: true, result: { not: 'a list' } });
    const timeout = Math.min(Number(p['timeout'] ?? 0), 50) * 1000;
    if (!this.updates.length && timeout > 0) {
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
    json(res, 200, { ok: true, result: this.updates.slice(0, Number(p['limit'] ?? 100)) });
  }
}
