// The API key questions of one attached desktop connection (common/desktop-channel.ts): the core asks the
// shell with a notification on that connection and waits for its answer there. Fails closed: the answer
// counts only from this connection, once per id, within the time given; the time running out or the
// connection closing answers "do not send".
import { randomUUID } from 'node:crypto';
import { CONFIRM_KEY_USE_NOTIFICATION, KEY_USE_TIMEOUT_MS } from '../../common/desktop-channel';
import type { KeyUseRequest } from '../../common/key-use';

interface Open {
  resolve: (send: boolean) => void;
  timer: NodeJS.Timeout;
}

export class KeyUseQuestions {
  private readonly open = new Map<string, Open>();
  private closed = false;

  constructor(
    /** Writes one line to this connection. */
    private readonly notify: (text: string) => void,
    private readonly timeoutMs = KEY_USE_TIMEOUT_MS,
  ) {}

  /** Asks the shell; resolves true only for its "send" answer to this question. */
  ask(request: KeyUseRequest): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    // Random, so a question cannot be answered by guessing its id (and ids never repeat).
    const id = `kq_${randomUUID()}`;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => this.settle(id, false), this.timeoutMs);
      timer.unref();
      this.open.set(id, { resolve, timer });
      this.notify(JSON.stringify({ jsonrpc: '2.0', method: CONFIRM_KEY_USE_NOTIFICATION, params: { id, request, timeout_ms: this.timeoutMs } }));
    });
  }

  /** The shell's answer; false when no question waits under this id (answered, expired or never asked here). */
  answer(id: string, send: boolean): boolean {
    return this.settle(id, send);
  }

  /** How many questions wait for an answer. */
  get waiting(): number {
    return this.open.size;
  }

  /** The connection closed: every open question is answered "do not send", and no new one is asked. */
  close(): void {
    this.closed = true;
    for (const id of [...this.open.keys()]) this.settle(id, false);
  }

  private settle(id: string, send: boolean): boolean {
    const q = this.open.get(id);
    if (!q) return false;
    this.open.delete(id);
    clearTimeout(q.timer);
    q.resolve(send);
    return true;
  }
}
