// The web mode's wire protocol (docs/web-mode.md): the messages on the one WebSocket between the browser
// bridge and `threshold serve`. Operation names, params, results and event payloads are the operations
// table's (common/operations.ts); this file only frames them.
import { z } from 'zod';
import { EVENT_NAMES, EVENTS, OPERATIONS, errorValueSchema, resolveOperation, type CoreEvent, type OperationName, type Result } from './operations';

export const WS_PATH = '/ws';
export const AUTH_PATH = '/auth';
/** The cookie the token is exchanged for (HttpOnly, SameSite=Strict, Path=/). */
export const COOKIE_NAME = 'threshold_web';
/** A larger message is answered with `message_too_large`; the connection stays open. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Client → server: one operation call. `id` is the client's, echoed in the reply. */
export const clientMessageSchema = z.strictObject({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  op: z.string().min(1).max(100),
  params: z.unknown().optional(),
});

const resultValue = z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: errorValueSchema })]);

/** Server → client: the answer to one call. `id` is null only when the message had no usable id. */
export const replyMessageSchema = z.object({ id: z.number().int().positive().nullable(), result: resultValue });
export type ReplyMessage = { id: number | null; result: Result<unknown> };

/** Server → client: a core event. */
export const eventMessageSchema = z.object({ event: z.object({ name: z.enum(EVENT_NAMES), payload: z.unknown() }) });
export type EventMessage = { event: CoreEvent };
export type ServerMessage = ReplyMessage | EventMessage;

/** Checks an event's payload against its schema (the client does this before it trusts a push). */
export function parseEvent(message: unknown): CoreEvent | null {
  const framed = eventMessageSchema.safeParse(message);
  if (!framed.success) return null;
  const payload = EVENTS[framed.data.event.name].safeParse(framed.data.event.payload);
  return payload.success ? ({ name: framed.data.event.name, payload: payload.data } as CoreEvent) : null;
}

/** Checks a successful reply's value against the operation's result schema. */
export function checkReply(op: string, result: Result<unknown>): Result<unknown> {
  if (!result.ok) return result;
  const name = resolveOperation(op, 'ui') as OperationName | null;
  if (!name) return result;
  const parsed = OPERATIONS[name].result.safeParse(result.value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: { code: 'invalid_reply', message: `Threshold answered ${op} with a value of the wrong shape: ${parsed.error.issues[0]?.path.join('.') || 'value'}: ${parsed.error.issues[0]?.message}.` } };
}
