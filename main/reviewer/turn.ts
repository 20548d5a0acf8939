// The reviewer's per-turn context: the budget of reviews and the user's request, in an AsyncLocalStorage
// opened by a reactive turn and nothing else (main/agent/agent.ts). A gated call reached with no context
// open (an unattended turn, the control API, a timer) finds none and escalates: that asymmetry is the
// point, and opening a context anywhere else would let a reviewer approve calls nobody is watching.
import { AsyncLocalStorage } from 'node:async_hooks';

export class ReviewTurn {
  private used = 0;
  private readonly request: string[];

  constructor(
    readonly max: number,
    firstMessage: string,
  ) {
    this.request = [firstMessage];
  }

  /** The user's own follow-up, typed while the turn runs. Never text an agent or Threshold wrote. */
  addUserFollowUp(text: string): void {
    this.request.push(text);
  }

  /** The user's words, in order. */
  get userRequest(): readonly string[] {
    return this.request;
  }

  /** The next review's number, or null when the budget is spent. */
  peek(): number | null {
    return this.used < this.max ? this.used + 1 : null;
  }

  /** Spends one review; false when none is left. */
  take(): boolean {
    if (this.used >= this.max) return false;
    this.used++;
    return true;
  }
}

const storage = new AsyncLocalStorage<ReviewTurn>();

/** Runs a reactive turn with its review context open. */
export function withReviewTurn<T>(turn: ReviewTurn, fn: () => T): T {
  return storage.run(turn, fn);
}

export function currentReviewTurn(): ReviewTurn | undefined {
  return storage.getStore();
}
