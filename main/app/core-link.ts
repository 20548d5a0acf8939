// The desktop shell's connection to its core (common/desktop-channel.ts): the control socket of the data
// directory, turned into the desktop window's with the UI token, subscribed to every core event. Replies
// and events are checked against the operations table before anything reaches a window, as the web
// page checks them. Errors are values: a call on a lost connection answers `disconnected`. The core's
// questions before a provider key goes elsewhere arrive here too, and are answered on this connection.
import { readFileSync } from 'node:fs';
import { ATTACH_METHOD, attachResultSchema, CONFIRM_KEY_USE_NOTIFICATION, confirmKeyUseParamsSchema, KEY_USE_ANSWER_METHOD, keyUseAnswerResultSchema, type AttachResult } from '../../common/desktop-channel';
import type { KeyUseRequest } from '../../common/key-use';
import type { CoreEvent, OperationName, Result } from '../../common/operations';
import { resultSchema } from '../../common/operations';
import { checkReply, parseEvent } from '../../common/web-protocol';
import { z } from 'zod';
import { ControlClient, RemoteError } from '../control/client';
import { socketPath } from '../control/socket-path';
import { webTokenPath } from '../web/token';

export interface CoreLink {
  readonly info: AttachResult;
  /** Runs one UI operation on the core as the desktop surface; never throws. */
  invoke(operation: OperationName, params?: unknown): Promise<Result<unknown>>;
  onEvent(listener: (event: CoreEvent) => void): () => void;
  /**
   * The core asks before a provider key goes to another endpoint (common/desktop-channel.ts). One
   * listener answers each question; with none, or a question that does not parse, the answer is "no".
   */
  onKeyUseQuestion(listener: (question: KeyUseQuestion) => void): () => void;
  /** Runs once the connection is gone (the core stopped, crashed, or close() was called). */
  onClose(listener: () => void): () => void;
  close(): void;
}

/** One question of the core, as the shell answers it. */
export interface KeyUseQuestion {
  request: KeyUseRequest;
  /** Aborted once the core no longer waits: its time ran out, or the connection is gone. */
  signal: AbortSignal;
  /** Sends the person's answer (once); false when the core no longer took it. Never throws. */
  answer(send: boolean): Promise<boolean>;
}

const anyResult = resultSchema(z.unknown());

export class AttachError extends Error {
  constructor(
    readonly code: 'no_socket' | 'no_token' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

/** Connects to the core serving `dataDir` and attaches as the desktop. */
export async function attachToCore(dataDir: string): Promise<CoreLink> {
  let token: string;
  try {
    token = readFileSync(webTokenPath(dataDir), 'utf8').trim();
  } catch (err) {
    throw new AttachError('no_token', `The core has not written its UI token yet (${(err as Error).message}).`);
  }
  let client: ControlClient;
  try {
    client = await ControlClient.connect(socketPath(dataDir));
  } catch (err) {
    throw new AttachError('no_socket', (err as Error).message);
  }
  let info: AttachResult;
  try {
    info = attachResultSchema.parse(await client.call(ATTACH_METHOD, { token }));
    await client.call('events.subscribe');
  } catch (err) {
    client.destroy();
    throw new AttachError('refused', err instanceof RemoteError ? err.error.message : (err as Error).message);
  }
  return linkOver(client, info);
}

function linkOver(client: ControlClient, info: AttachResult): CoreLink {
  const listeners = new Set<(event: CoreEvent) => void>();
  let askPerson: ((question: KeyUseQuestion) => void) | null = null;
  const gone = new AbortController();
  client.onClose(() => gone.abort());
  const keyUseQuestion = (params: unknown) => {
    const parsed = confirmKeyUseParamsSchema.safeParse(params);
    // A question that does not parse cannot be shown; its id may be unreadable, so the core's time runs out (no key).
    if (!parsed.success) return;
    const { id, request, timeout_ms } = parsed.data;
    let answered = false;
    const answer = async (send: boolean): Promise<boolean> => {
      if (answered) return false;
      answered = true;
      try {
        keyUseAnswerResultSchema.parse(await client.call(KEY_USE_ANSWER_METHOD, { id, send }));
        return true;
      } catch {
        return false;
      }
    };
    if (!askPerson) return void answer(false);
    askPerson({ request, signal: AbortSignal.any([gone.signal, AbortSignal.timeout(timeout_ms)]), answer });
  };
  client.onNotification((method, params) => {
    if (method === CONFIRM_KEY_USE_NOTIFICATION) return keyUseQuestion(params);
    if (method !== 'event') return;
    const event = parseEvent({ event: params });
    if (event) for (const listener of [...listeners]) listener(event);
  });
  return {
    info,
    async invoke(operation, params) {
      let answer: unknown;
      try {
        answer = await client.call(operation, params);
      } catch (err) {
        if (err instanceof RemoteError) return { ok: false, error: { code: String(err.error.data?.code ?? 'internal_error'), message: err.error.message } };
        return { ok: false, error: { code: 'disconnected', message: 'The connection to Threshold’s core was lost; it is being restarted.' } };
      }
      const result = anyResult.safeParse(answer);
      if (!result.success) return { ok: false, error: { code: 'invalid_reply', message: `Threshold’s core answered ${operation} with something that is not a result.` } };
      return checkReply(operation, result.data as Result<unknown>);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onKeyUseQuestion(listener) {
      askPerson = listener;
      return () => void (askPerson === listener && (askPerson = null));
    },
    onClose: (listener) => client.onClose(listener),
    close: () => client.destroy(),
  };
}
