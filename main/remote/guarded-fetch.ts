// Every reply from a chat service is untrusted input: a fetch that reads at most `maxBytes` of it, gives
// up after `timeoutMs`, and refuses JSON nested deeper than MAX_NESTING before anyone parses it. A huge,
// endless or deeply nested reply becomes an error value for the bridge's loop, never memory or a stack
// overflow in the core.
import { jsonTextDepth, MAX_NESTING } from '../../common/nesting';

export const MAX_REPLY_BYTES = 1024 * 1024;

export class ReplyRefused extends Error {}

export interface GuardOptions {
  maxBytes?: number;
  /** Added to the request's own wait (a long poll's timeout). */
  timeoutMs: number;
}

/** Something with addEventListener('abort') and `aborted`: the native AbortSignal or a polyfill's (grammY passes one). */
type SignalLike = { aborted: boolean; addEventListener(type: 'abort', fn: () => void): void; removeEventListener?(type: 'abort', fn: () => void): void };

export function guardedFetch(o: GuardOptions, base: typeof fetch = fetch) {
  const maxBytes = o.maxBytes ?? MAX_REPLY_BYTES;
  return async (url: string | URL, init: (Omit<RequestInit, 'signal'> & { signal?: SignalLike | null }) = {}): Promise<Response> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new ReplyRefused(`no answer within ${Math.round(o.timeoutMs / 1000)} s`)), o.timeoutMs);
    const outer = init.signal ?? null;
    const onAbort = () => controller.abort(new ReplyRefused('stopped'));
    if (outer?.aborted) onAbort();
    outer?.addEventListener('abort', onAbort);
    try {
      const res = await base(url, { ...init, signal: controller.signal, redirect: 'error' });
      const declared = Number(res.headers.get('content-length') ?? NaN);
      if (declared > maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw new ReplyRefused(`the reply is ${declared} bytes, more than the ${maxBytes} Threshold reads`);
      }
      const text = await readCapped(res, maxBytes);
      if (jsonTextDepth(text, MAX_NESTING) > MAX_NESTING) throw new ReplyRefused(`the reply nests deeper than ${MAX_NESTING} levels`);
      return new Response(text, { status: res.status, statusText: res.statusText, headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' } });
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener?.('abort', onAbort);
    }
  };
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ReplyRefused(`the reply is longer than the ${maxBytes} bytes Threshold reads`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
