// Who gets a place on the control socket. Connections are kept in three budgets, so that no kind of client
// can lock out another (docs/approvals.md, "Limits"):
// - opening: connected, no complete message yet. Past the budget the OLDEST goes (a client that means
//   business sends its request at once; a flood's sockets are the ones that sit), and each has a deadline
//   (connection.ts);
// - waiting: a request that waits for a person or a turn (approval.request, agent.send) or an event
//   subscription. Past the budget such a request is refused (`too_many_waiting`) and nothing starts; the
//   connection stays for quick work;
// - quick: everything else (pending, decide, history, …). Kept apart from the waiting ones, so a socket
//   full of waiting requesters never locks the approver out. Past the budget an idle one (nothing in
//   flight) makes room; only when all are busy is the new one refused (`too_many_connections`).

export interface ControlBudgets {
  /** Connections that have not sent a complete message yet. */
  maxOpening: number;
  /** Connections holding a request that waits for a decision or a turn, or an event subscription. */
  maxWaiting: number;
  /** Connections doing anything else. */
  maxQuick: number;
}

export const DEFAULT_CONTROL_BUDGETS: ControlBudgets = { maxOpening: 16, maxWaiting: 32, maxQuick: 16 };

/** How a place is taken back: the connection is answered with this refusal and closed. */
export type Close = (code: 'too_many_connections', message: string) => void;

type State = 'opening' | 'quick' | 'waiting';

export class ControlAdmission {
  /** Every connection, oldest first. */
  private readonly all = new Set<Lease>();

  constructor(readonly budgets: ControlBudgets) {}

  /** A new connection; the oldest opening ones make room when their budget is full. */
  open(close: Close): Lease {
    const opening = [...this.all].filter((l) => l.state === 'opening');
    for (const old of opening.slice(0, Math.max(0, opening.length - this.budgets.maxOpening + 1))) {
      old.close('too_many_connections', `The control socket had more than ${this.budgets.maxOpening} connections that had sent nothing yet; this one, the oldest, was closed. Send the request as soon as you connect.`);
    }
    const lease = new Lease(this, close);
    this.all.add(lease);
    return lease;
  }

  count(state: State): number {
    let n = 0;
    for (const l of this.all) if (l.state === state) n++;
    return n;
  }

  /** @internal */
  released(lease: Lease): void {
    this.all.delete(lease);
  }

  /** @internal A connection's first message: a quick place, made by closing an idle quick one if need be. */
  placeQuick(lease: Lease): boolean {
    if (this.count('quick') < this.budgets.maxQuick) return true;
    const idle = [...this.all].find((l) => l !== lease && l.state === 'quick' && l.idle());
    if (!idle) return false;
    idle.close('too_many_connections', `The control socket needed this idle connection's place (at most ${this.budgets.maxQuick} connections for quick operations); it was closed. Connect again when you need it.`);
    return true;
  }
}

export class Lease {
  state: State = 'opening';
  private inFlight = 0;
  private longInFlight = 0;
  private subscribed = false;
  private gone = false;

  constructor(
    private readonly admission: ControlAdmission,
    private readonly closeConnection: Close,
  ) {}

  /** The first complete message arrived: a quick place, or false (the connection is then refused). */
  identify(): boolean {
    if (this.state !== 'opening') return true;
    if (!this.admission.placeQuick(this)) return false;
    this.state = 'quick';
    return true;
  }

  /**
   * A request starts. A long one (it waits for a person or a turn) needs a waiting place: null when
   * there is none (the request must then be refused), else the function that ends it.
   */
  begin(long: boolean): (() => void) | null {
    if (long && !this.holdsWaiting() && this.admission.count('waiting') >= this.admission.budgets.maxWaiting) return null;
    this.inFlight++;
    if (long) this.longInFlight++;
    this.settle();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      if (long) this.longInFlight--;
      this.settle();
    };
  }

  /** An event subscription holds a waiting place for the connection's life; false when there is none. */
  subscribe(): boolean {
    if (this.subscribed) return true;
    if (!this.holdsWaiting() && this.admission.count('waiting') >= this.admission.budgets.maxWaiting) return false;
    this.subscribed = true;
    this.settle();
    return true;
  }

  /** Nothing in flight and no subscription: its place can be taken back without losing anything. */
  idle(): boolean {
    return this.inFlight === 0 && !this.subscribed;
  }

  close(code: 'too_many_connections', message: string): void {
    this.release();
    this.closeConnection(code, message);
  }

  /** The connection closed. */
  release(): void {
    if (this.gone) return;
    this.gone = true;
    this.admission.released(this);
  }

  private holdsWaiting(): boolean {
    return this.state === 'waiting';
  }

  private settle(): void {
    if (this.state === 'opening') return;
    this.state = this.longInFlight > 0 || this.subscribed ? 'waiting' : 'quick';
  }
}
