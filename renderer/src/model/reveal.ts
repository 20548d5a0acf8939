// When a card offers Reveal: what it shows of the arguments holds a redaction mark, and the call still
// waits in the running Threshold (an orphan's original arguments were never kept, so there is nothing to
// reveal). A file write's card shows the gate's diff, not its arguments, so Reveal would change nothing.
import { previewWasCut, type PendingApproval } from '../../../common/approvals';

export const REDACTION_MARK = '[REDACTED:';

export function holdsRedaction(args: unknown): boolean {
  return (JSON.stringify(args ?? null) ?? '').includes(REDACTION_MARK);
}

export function offersReveal(p: Pick<PendingApproval, 'args' | 'orphan' | 'tool' | 'preview'>): boolean {
  const showsDiff = (p.tool === 'write_file' || p.tool === 'edit_file') && !!p.preview && !previewWasCut(p.preview);
  return !p.orphan && !showsDiff && holdsRedaction(p.args);
}
