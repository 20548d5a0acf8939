// The desktop shell's connection to its core (common/desktop-channel.ts): the control socket of the data
// directory, turned into the desktop window's with the UI token, subscribed to every core event. Replies
// and events are checked against the operations table before anything reaches a window, as the web
// page checks them. Errors are values: a call on a lost connection answers `disconnected`.
import { readFileSync } from 'node:fs';
import { ATTACH_METHOD, attachResultSchema, type AttachResult } from '../../common/desktop-channel';
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
  /** Runs once the connection is gone (the core stopped, crashed, or close() was called). */
  onClose(listener: () => void): () => void;
  close(): void;
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
  client.onNotification((method, params) => {
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
    onClose: (listener) => client.onClose(listener),
    close: () => client.destroy(),
  };
}
