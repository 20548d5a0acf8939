// What the core is doing that Quit would interrupt or that someone must answer, as the desktop shell
// sees it: the approvals waiting (kept in step with the events, so the badge and a notification count
// the card that just arrived), open questions and sandbox offers, turns running, commands executing.
// Refreshed from the core whenever an event says it changed.
import type { PendingApproval } from '../../common/approvals';
import type { CoreEvent, OperationName, Result } from '../../common/operations';

export interface Work {
  pending: PendingApproval[];
  questions: number;
  offers: number;
  /** Sessions with a turn running. */
  turns: number;
  /** Commands executing now (tool and summary). */
  commands: { tool: string; summary: string }[];
}

export const NO_WORK: Work = { pending: [], questions: 0, offers: 0, turns: 0, commands: [] };

/** Cards someone must answer: approvals, questions, sandbox offers. */
export function waitingCount(w: Work): number {
  return w.pending.length + w.questions + w.offers;
}

/** Whether closing the window should leave the core running. */
export function workAlive(w: Work): boolean {
  return waitingCount(w) + w.turns + w.commands.length > 0;
}

const REFRESHING_EVENTS: ReadonlySet<CoreEvent['name']> = new Set(['approval.requested', 'approval.decided', 'question.asked', 'question.closed', 'sandbox.denied', 'sandbox.decided', 'turn.started', 'turn.ended', 'call.state']);

type Invoke = (operation: OperationName, params?: unknown) => Promise<Result<unknown>>;

export class WorkMirror {
  work: Work = NO_WORK;
  private readonly listeners = new Set<(w: Work) => void>();
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly invoke: Invoke) {}

  onChange(listener: (w: Work) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Applies an event at once where it can (a card in or out), then refreshes if it changed the work. */
  apply(e: CoreEvent): void {
    if (e.name === 'approval.requested' && !this.work.pending.some((p) => p.id === e.payload.id)) this.set({ ...this.work, pending: [...this.work.pending, e.payload] });
    if (e.name === 'approval.decided') this.set({ ...this.work, pending: this.work.pending.filter((p) => p.id !== e.payload.id) });
    if (e.name === 'call.state' && e.payload.state !== 'executing' && !this.work.commands.length) return;
    if (REFRESHING_EVENTS.has(e.name)) void this.refresh();
  }

  /** Reads everything from the core; concurrent calls share one run (and one more after it). */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.read();
      } while (this.again);
    })().finally(() => (this.running = null));
    return this.running;
  }

  clear(): void {
    this.set(NO_WORK);
  }

  private async read(): Promise<void> {
    const [pending, questions, offers, agent, calls] = await Promise.all([
      this.invoke('approval.list_pending'),
      this.invoke('question.list'),
      this.invoke('sandbox.list_offers'),
      this.invoke('agent.get_info'),
      this.invoke('call.list', { state: ['executing'], limit: 50 }),
    ]);
    // A failed read keeps what was known (a core without an agent answers agent_unavailable: no turns).
    const value = <T>(r: Result<unknown>, fallback: T): T => (r.ok ? (r.value as T) : fallback);
    this.set({
      pending: value(pending, this.work.pending),
      questions: value<unknown[]>(questions, []).length,
      offers: value<unknown[]>(offers, []).length,
      turns: value<{ running: string[] }>(agent, { running: [] }).running.length,
      commands: value<{ calls: { tool: string; summary: string }[] }>(calls, { calls: [] }).calls.map((c) => ({ tool: c.tool, summary: c.summary })),
    });
  }

  private set(w: Work): void {
    this.work = w;
    for (const listener of [...this.listeners]) listener(w);
  }
}
