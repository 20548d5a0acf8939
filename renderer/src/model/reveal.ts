// When a card offers Reveal: its arguments as shown hold a redaction mark, and the call still waits in
// the running Threshold (an orphan's original arguments were never kept, so there is nothing to reveal).
import type { PendingApproval } from '../../../common/approvals';

export const REDACTION_MARK = '[REDACTED:';

export function holdsRedaction(args: unknown): boolean {
  return (JSON.stringify(args ?? null) ?? '').includes(REDACTION_MARK);
}

export function offersReveal(p: Pick<PendingApproval, 'args' | 'orphan'>): boolean {
  return !p.orphan && holdsRedaction(p.args);
}
