// The Telegram bridge: the Bot API over HTTPS, outbound only (long polling with getUpdates; nothing
// listens). grammY's Api client speaks the wire (api_base from [remote.telegram], so a test points it at
// a local fake); every reply is read through guardedFetch and checked with zod here before use, since
// grammY types replies but does not check them. A card is a sendMessage whose inline buttons carry
// decision tokens in callback_data; a press arrives as a callback_query and is answered with
// answerCallbackQuery; a decided card is edited in place (editMessageText, buttons removed).
import { Api, GrammyError, HttpError } from 'grammy';
import { z } from 'zod';
import type { BridgeStatus, OutgoingCard, Press, RemoteBridge } from './bridge';
import { backoffMs, waitOrStop } from './bridge';
import { oneLine } from './card-text';
import type { TelegramConfig } from '../config/remote-settings';
import { CALLBACK_DATA_MAX } from './decision-token';
import { guardedFetch } from './guarded-fetch';

/** Telegram shows at most 200 characters in a callback answer. */
const ANSWER_MAX = 200;
/** Telegram's limit on a message's text. */
const MESSAGE_MAX = 4096;
/** A send or edit that takes longer is given up (the card stays answerable at the desk). */
const SEND_TIMEOUT_MS = 10_000;

const callbackQuerySchema = z.object({
  id: z.string().min(1).max(256),
  from: z.object({ id: z.number().int() }),
  message: z.object({ message_id: z.number().int(), chat: z.object({ id: z.number().int() }) }).optional(),
  data: z.string().max(256).optional(),
});
const updateSchema = z.object({ update_id: z.number().int().min(0), callback_query: callbackQuerySchema.optional() });
const sentSchema = z.object({ message_id: z.number().int(), chat: z.object({ id: z.number().int() }) });

export interface TelegramOptions {
  config: TelegramConfig;
  token: string;
  pollSeconds: number;
  now?: () => number;
  log?: (line: string) => void;
  /** Redacts a sentence before it is shown or logged (a reply may echo anything). */
  redact: (text: string) => string;
}

export class TelegramBridge implements RemoteBridge {
  readonly name = 'telegram' as const;
  readonly audience: string;
  private readonly api: Api;
  private readonly sendApi: Api;
  private readonly stop = new AbortController();
  private offset = 0;
  private loop: Promise<void> | null = null;
  private state: BridgeStatus = { state: 'starting', error: null, last_ok_at: null };
  private readonly now: () => number;

  constructor(private readonly o: TelegramOptions) {
    this.audience = String(o.config.chatId);
    this.now = o.now ?? Date.now;
    // Two clients: a long poll may hold its request for poll_seconds; a send never waits that long.
    this.api = new Api(o.token, { apiRoot: o.config.apiBase, fetch: guardedFetch({ timeoutMs: (o.pollSeconds + 10) * 1000 }) as unknown as typeof fetch, timeoutSeconds: o.pollSeconds + 15 });
    this.sendApi = new Api(o.token, { apiRoot: o.config.apiBase, fetch: guardedFetch({ timeoutMs: SEND_TIMEOUT_MS }) as unknown as typeof fetch, timeoutSeconds: SEND_TIMEOUT_MS / 1000 + 5 });
  }

  start(onPress: (press: Press) => void): void {
    this.loop ??= this.poll(onPress);
  }

  status(): BridgeStatus {
    return { ...this.state };
  }

  private ok(): void {
    this.state = { state: 'ok', error: null, last_ok_at: this.now() };
  }

  private failed(err: unknown): string {
    const why = this.o.redact(describeError(err));
    this.state = { ...this.state, state: 'failing', error: why };
    return why;
  }

  private async poll(onPress: (press: Press) => void): Promise<void> {
    let failures = 0;
    while (!this.stop.signal.aborted) {
      let updates: unknown;
      try {
        updates = await this.api.getUpdates({ offset: this.offset, timeout: this.o.pollSeconds, limit: 100, allowed_updates: ['callback_query'] }, this.stop.signal as unknown as Parameters<Api['getUpdates']>[1]);
      } catch (err) {
        if (this.stop.signal.aborted) break;
        failures++;
        const why = this.failed(err);
        if (failures === 1 || failures % 20 === 0) this.o.log?.(`telegram: polling failed (${why}); retrying`);
        await waitOrStop(backoffMs(failures), this.stop.signal);
        continue;
      }
      failures = 0;
      this.ok();
      if (!Array.isArray(updates)) {
        this.failed(new Error('getUpdates answered with something other than a list'));
        await waitOrStop(backoffMs(1), this.stop.signal);
        continue;
      }
      for (const raw of updates.slice(0, 100)) this.take(raw, onPress);
    }
  }

  /** One update: the offset always moves past a readable update_id, so a bad update is not fetched again. */
  private take(raw: unknown, onPress: (press: Press) => void): void {
    const id = (raw as { update_id?: unknown } | null)?.update_id;
    if (typeof id === 'number' && Number.isSafeInteger(id) && id >= this.offset) this.offset = id + 1;
    const u = updateSchema.safeParse(raw);
    if (!u.success || !u.data.callback_query) return;
    const q = u.data.callback_query;
    onPress({
      bridge: 'telegram',
      audience: q.message ? String(q.message.chat.id) : '',
      sender: String(q.from.id),
      token: q.data ?? null,
      card: null,
      reply: async (text) => {
        await this.sendApi.answerCallbackQuery(q.id, { text: clipText(text, ANSWER_MAX), show_alert: false }).catch(() => undefined);
      },
    });
  }

  async send(card: OutgoingCard): Promise<{ messageId: string }> {
    for (const b of card.buttons) if (Buffer.byteLength(b.token) > CALLBACK_DATA_MAX) throw new Error(`a button's token is longer than Telegram's ${CALLBACK_DATA_MAX} bytes`);
    const sent = await this.sendApi.sendMessage(this.o.config.chatId, clipText(card.text, MESSAGE_MAX), {
      reply_markup: card.buttons.length ? { inline_keyboard: [card.buttons.map((b) => ({ text: b.label, callback_data: b.token }))] } : undefined,
      link_preview_options: { is_disabled: true },
    });
    const m = sentSchema.safeParse(sent);
    if (!m.success) throw new Error('sendMessage answered without a message id');
    this.ok();
    return { messageId: String(m.data.message_id) };
  }

  async edit(messageId: string, text: string): Promise<void> {
    try {
      await this.sendApi.editMessageText(this.o.config.chatId, Number(messageId), clipText(text, MESSAGE_MAX), { reply_markup: { inline_keyboard: [] }, link_preview_options: { is_disabled: true } });
    } catch (err) {
      // Telegram refuses an edit that changes nothing; the message already says it.
      if (err instanceof GrammyError && /not modified/i.test(err.description)) return;
      throw err;
    }
  }

  async dispose(): Promise<void> {
    this.stop.abort();
    await this.loop?.catch(() => undefined);
    this.state = { ...this.state, state: 'stopped' };
  }
}

function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A failure in a sentence: the service's own words (one line, escaped, short) where it gave some. */
export function describeError(err: unknown): string {
  if (err instanceof GrammyError) return `the Bot API answered ${err.error_code}: ${oneLine(err.description, 200)}`;
  if (err instanceof HttpError) {
    // grammY's sentence names the method; the cause says what happened on the way (refused, reset, timed out, too large).
    const inner = err.error as { message?: string; cause?: { code?: string; message?: string } } | undefined;
    const why = inner?.cause?.code ?? inner?.cause?.message ?? inner?.message;
    return oneLine(`the Bot API could not be reached (${why ?? 'no answer'})`, 200);
  }
  const e = err as { message?: string; error?: { message?: string } };
  return oneLine(String(e?.error?.message ?? e?.message ?? err), 200);
}

