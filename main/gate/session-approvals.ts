// "Approve for session" as something a person can see and take back. The approval itself is the
// record (outcome approve_session): an identical call (same content hash) in that session runs without
// asking (main/gate/gate.ts shortcut). Here: the list Settings → Grants shows as session grants, and
// revoking one, audited, after which the identical call asks again; `approval.session_revoked` keeps
// every surface in step.
import type { Redactor } from '../redact/redactor';
import type { Store } from '../store/store';
import type { DecidedBy } from '../../common/decided-by';
import { deciderOf } from '../store/calls-repo';

export interface SessionApprovalView {
  approval_id: string;
  session_id: string;
  session_title: string | null;
  tool: string;
  /** The call it covers exactly, as its card showed it (redacted). */
  args: unknown;
  decided_at: number;
  /** Who chose it (desktop, web, control), in words and as data. */
  decided_by: string | null;
  by: DecidedBy | null;
  /** Identical calls it let through since, and when the last one was. */
  uses: number;
  last_used_at: number | null;
}

export interface SessionApprovalRevoked {
  approval_id: string;
  session_id: string;
  revoked_at: number;
  revoked_by: string;
}

export type RevokeResult = { ok: true; value: SessionApprovalRevoked } | { ok: false; error: { code: 'not_found' | 'store_failed'; message: string } };

export class SessionApprovals {
  constructor(
    private readonly store: Store,
    /** Tells every surface (main/calls/record.ts broadcasts it). */
    private readonly revoked: (r: SessionApprovalRevoked) => void,
    private readonly redactor: Redactor,
    private readonly now: () => number = Date.now,
  ) {}

  list(): SessionApprovalView[] {
    return this.store.approvals.listSessionApprovals().map((a) => {
      const uses = this.store.approvals.sessionApprovalUses(a.session_id, a.id);
      return {
        approval_id: a.id,
        session_id: a.session_id,
        session_title: this.store.sessions.get(a.session_id)?.title ?? null,
        tool: a.tool,
        args: JSON.parse(a.args_redacted) as unknown,
        decided_at: a.decided_at ?? a.created_at,
        decided_by: a.decided_by,
        by: deciderOf(a),
        uses: uses.count,
        last_used_at: uses.last,
      };
    });
  }

  revoke(approvalId: string, by: string): RevokeResult {
    const at = this.now();
    let revoked: SessionApprovalRevoked | null = null;
    try {
      this.store.transaction(() => {
        const a = this.store.approvals.get(approvalId);
        if (!a || !this.store.approvals.revokeSessionApproval(approvalId, at)) return;
        revoked = { approval_id: a.id, session_id: a.session_id, revoked_at: at, revoked_by: by };
        this.store.audit.append({ at, kind: 'approval.session_revoked', session_id: a.session_id, subject: a.id, data: this.redactor.redactRecord({ revoked_by: by, tool: a.tool }) });
      });
    } catch (err) {
      return { ok: false, error: { code: 'store_failed', message: `The approval for the session could not be revoked (${(err as Error).message}); it is still in force. Try again.` } };
    }
    if (!revoked) return { ok: false, error: { code: 'not_found', message: `${approvalId} is not an approval for the session in force (it was revoked already, or is another kind).` } };
    this.revoked(revoked);
    return { ok: true, value: revoked };
  }
}
