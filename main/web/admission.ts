// Which connections the web server keeps before they sign in. A connection that has not shown the cookie
// (or the token, at /auth) is "waiting": it must finish a request's headers within `idleMs` of connecting
// or of its last answer, and only a few are kept per remote address (checked `sweepMs` after it goes
// over) and in all (checked at once). Past a cap the connections that never finished a request go
// first, then idle ones, then busy ones, oldest first within each: a page someone just opened sends its
// request at once and is served, while a flood's sockets are the ones that sit. A connection that signed
// in leaves this ledger for good, so no number of waiting ones can close it or keep it out.

export interface AdmissionLimits {
  /** Waiting (not signed-in) connections kept per remote address. */
  perAddress: number;
  /** Waiting connections kept from all addresses together (enforced as each one connects). */
  total: number;
  /** How soon after an address goes over its cap its extra connections are closed. */
  sweepMs: number;
  /** A waiting connection must finish its request's headers within this of connecting or of its last answer. */
  idleMs: number;
}

export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = { perAddress: 16, total: 256, idleMs: 10_000, sweepMs: 100 };

export interface Closable {
  destroy(): void;
}

interface Entry {
  address: string;
  /** A request's headers arrived and its answer is not finished. */
  busy: boolean;
  /** It finished a request's headers at least once. */
  served: boolean;
  timer: NodeJS.Timeout | null;
}

/** Who goes first: never served, then idle, then busy. */
const rank = (e: Entry) => (e.busy ? 2 : e.served ? 1 : 0);

export type EvictionReason = 'idle' | 'per_address' | 'total';

export class ConnectionAdmission<S extends Closable> {
  /** Waiting connections, oldest first (a Map keeps insertion order). */
  private readonly waiting = new Map<S, Entry>();
  private readonly signedIn = new WeakSet<S>();
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly onEvict: (reason: EvictionReason) => void = () => undefined,
  ) {}

  /** A new connection: it waits; others make room at once if the total is full, soon if its address is. */
  opened(socket: S, address: string): void {
    if (this.waiting.size >= this.limits.total) this.makeRoom(() => true, this.limits.total - 1, 'total');
    const entry: Entry = { address, busy: false, served: false, timer: null };
    this.waiting.set(socket, entry);
    this.arm(socket, entry);
    if (this.count(address) > this.limits.perAddress && !this.sweepTimer) {
      // Not at once: the connection that just came gets the time to send its request and be served.
      this.sweepTimer = setTimeout(() => this.sweep(), this.limits.sweepMs);
      this.sweepTimer.unref();
    }
  }

  /** A request's headers arrived: the idle clock stops while it is answered. */
  requestStarted(socket: S): void {
    const entry = this.waiting.get(socket);
    if (!entry) return;
    entry.busy = true;
    entry.served = true;
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
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
  }

  /** Brings every address back to its cap. */
  private sweep(): void {
    this.sweepTimer = null;
    for (const address of new Set([...this.waiting.values()].map((e) => e.address))) this.makeRoom((e) => e.address === address, this.limits.perAddress, 'per_address');
  }

  /** Closes matching waiting connections, in the order of `rank` and then age, until at most `keep` remain. */
  private makeRoom(matches: (e: Entry) => boolean, keep: number, reason: EvictionReason): void {
    let count = 0;
    for (const e of this.waiting.values()) if (matches(e)) count++;
    for (; count > keep; count--) {
      // The first of the lowest rank: the map is oldest first.
      let pick: [S, Entry] | null = null;
      for (const item of this.waiting) {
        if (!matches(item[1])) continue;
        if (!pick || rank(item[1]) < rank(pick[1])) pick = item;
        if (rank(pick[1]) === 0) break;
      }
      this.evict(pick![0], reason);
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
