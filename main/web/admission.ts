// Which connections the web server keeps before they sign in. A connection that has not shown the cookie
// (or the token, at /auth) is "waiting": it must finish a request's headers within `idleMs` of connecting
// or of its last answer, and only a few are kept per remote address and in all. Past a cap the OLDEST
// waiting connection goes (one without a request in flight first), never the new one: a page someone
// just opened sends its request at once, while a flood's sockets are the ones that sit. A connection
// that signed in leaves this ledger for good, so no number of waiting ones can starve it.

export interface AdmissionLimits {
  /** Waiting (not signed-in) connections kept per remote address. */
  perAddress: number;
  /** Waiting connections kept from all addresses together. */
  total: number;
  /** A waiting connection must finish its request's headers within this of connecting or of its last answer. */
  idleMs: number;
}

export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = { perAddress: 16, total: 64, idleMs: 10_000 };

export interface Closable {
  destroy(): void;
}

interface Entry {
  address: string;
  /** A request's headers arrived and its answer is not finished. */
  busy: boolean;
  timer: NodeJS.Timeout | null;
}

export type EvictionReason = 'idle' | 'per_address' | 'total';

export class ConnectionAdmission<S extends Closable> {
  /** Waiting connections, oldest first (a Map keeps insertion order). */
  private readonly waiting = new Map<S, Entry>();
  private readonly signedIn = new WeakSet<S>();

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly onEvict: (reason: EvictionReason) => void = () => undefined,
  ) {}

  /** A new connection: it waits; the oldest waiting ones make room if its address or the total is full. */
  opened(socket: S, address: string): void {
    this.makeRoom((e) => e.address === address, this.limits.perAddress - 1, 'per_address');
    this.makeRoom(() => true, this.limits.total - 1, 'total');
    const entry: Entry = { address, busy: false, timer: null };
    this.waiting.set(socket, entry);
    this.arm(socket, entry);
  }

  /** A request's headers arrived: the idle clock stops while it is answered. */
  requestStarted(socket: S): void {
    const entry = this.waiting.get(socket);
    if (!entry) return;
    entry.busy = true;
    this.disarm(entry);
  }

  /** Its answer is finished: a waiting connection's idle clock starts again. */
  requestEnded(socket: S): void {
    const entry = this.waiting.get(socket);
    if (!entry) return;
    entry.busy = false;
    this.arm(socket, entry);
  }

  /** The connection showed the cookie or the token: it is no longer counted, timed or evicted. */
  signIn(socket: S): void {
    const entry = this.waiting.get(socket);
    if (entry) this.disarm(entry);
    this.waiting.delete(socket);
    this.signedIn.add(socket);
  }

  isSignedIn(socket: S): boolean {
    return this.signedIn.has(socket);
  }

  closed(socket: S): void {
    const entry = this.waiting.get(socket);
    if (entry) this.disarm(entry);
    this.waiting.delete(socket);
  }

  /** Waiting connections now (for an address, or all). */
  count(address?: string): number {
    if (address === undefined) return this.waiting.size;
    let n = 0;
    for (const e of this.waiting.values()) if (e.address === address) n++;
    return n;
  }

  dispose(): void {
    for (const entry of this.waiting.values()) this.disarm(entry);
    this.waiting.clear();
  }

  /** Closes the oldest matching waiting connections (idle ones first) until at most `keep` remain. */
  private makeRoom(matches: (e: Entry) => boolean, keep: number, reason: EvictionReason): void {
    for (;;) {
      const candidates = [...this.waiting].filter(([, e]) => matches(e));
      if (candidates.length <= keep) return;
      const [socket] = candidates.find(([, e]) => !e.busy) ?? candidates[0]!;
      this.evict(socket, reason);
    }
  }

  private evict(socket: S, reason: EvictionReason): void {
    this.closed(socket);
    this.onEvict(reason);
    socket.destroy();
  }

  private arm(socket: S, entry: Entry): void {
    this.disarm(entry);
    entry.timer = setTimeout(() => this.evict(socket, 'idle'), this.limits.idleMs);
    entry.timer.unref();
  }

  private disarm(entry: Entry): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
  }
}
