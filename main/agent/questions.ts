// Questions the agent asks (ask_user) and notifications it sends (notify_user). A question is not a
// permission: no level, grant, rule or reviewer answers it; the turn waits for the user's answer, a
// dismissal, or the timeout (then the model is told to use its best judgment). A notification asks for
// nothing and never blocks.
import type { QuestionView } from '../../common/contract';
import { newId } from '../store/ids';

/** A question as every surface shows it (the contract's QuestionView). */
export type Question = QuestionView;

export type QuestionOutcome = { kind: 'answered'; answer: string } | { kind: 'dismissed' } | { kind: 'timed_out' } | { kind: 'cancelled' } | { kind: 'no_one' };

export interface Notification {
  id: string;
  session_id: string;
  message: string;
  urgency: 'info' | 'attention' | 'urgent';
  created_at: number;
}

/** The OS notification service, behind an interface (Electron's Notification in the app; a fake in tests). */
export interface Notifier {
  notify(n: { title: string; body: string; urgency: Notification['urgency'] }): void;
}

export class Questions {
  private readonly open = new Map<string, { q: Question; resolve: (o: QuestionOutcome) => void; timer: NodeJS.Timeout }>();

  constructor(
    private readonly onAsked: (q: Question) => void,
    private readonly onClosed: (q: Question, o: QuestionOutcome) => void,
    private readonly now: () => number = Date.now,
  ) {}

  ask(input: Omit<Question, 'id' | 'created_at' | 'expires_at'>, timeoutMs: number, signal: AbortSignal): Promise<QuestionOutcome> {
    const q: Question = { ...input, id: newId('q'), created_at: this.now(), expires_at: this.now() + timeoutMs };
    return new Promise<QuestionOutcome>((resolve) => {
      const finish = (o: QuestionOutcome) => {
        const entry = this.open.get(q.id);
        if (!entry) return;
        clearTimeout(entry.timer);
        this.open.delete(q.id);
        signal.removeEventListener('abort', onAbort);
        this.onClosed(q, o);
        resolve(o);
      };
      const onAbort = () => finish({ kind: 'cancelled' });
      const timer = setTimeout(() => finish({ kind: 'timed_out' }), timeoutMs);
      this.open.set(q.id, { q, resolve: finish, timer });
      signal.addEventListener('abort', onAbort, { once: true });
      this.onAsked(q);
      if (signal.aborted) onAbort();
    });
  }

  answer(id: string, answer: string): boolean {
    const e = this.open.get(id);
    if (!e) return false;
    e.resolve({ kind: 'answered', answer });
    return true;
  }

  dismiss(id: string): boolean {
    const e = this.open.get(id);
    if (!e) return false;
    e.resolve({ kind: 'dismissed' });
    return true;
  }

  pending(): Question[] {
    return [...this.open.values()].map((e) => e.q);
  }

  dispose(): void {
    for (const e of [...this.open.values()]) e.resolve({ kind: 'cancelled' });
  }
}

/** What the model is told about a question. */
export function questionResult(o: QuestionOutcome): { text: string; isError: boolean } {
  switch (o.kind) {
    case 'answered':
      return { text: `The user answered: ${o.answer}`, isError: false };
    case 'dismissed':
      return { text: 'The user dismissed the question without answering. Use your best judgment, or stop if you cannot go on safely.', isError: true };
    case 'timed_out':
      return { text: 'The user did not answer in time. Use your best judgment; do not assume they agreed to anything risky.', isError: true };
    case 'cancelled':
      return { text: 'The turn was stopped before the user answered.', isError: true };
    case 'no_one':
      return { text: 'No one can answer questions now (this turn runs unattended). Use your best judgment; do not assume they agreed to anything risky.', isError: true };
  }
}
