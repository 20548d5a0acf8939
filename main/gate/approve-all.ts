// "Approve all for this session" as something a person can see and end. It lives on the session's row
// (sessions.approve_all_at, set by the decision that began it, main/store/call-lifecycle.ts); the gate
// answers each later non-floor ask of that session with it. Here: the view every surface lists (the
// chat's banner, Settings → Grants, `ctl approve-all`), and ending it, audited, from any of them. The
// `approve_all.started` and `approve_all.ended` events keep every open window in step.
import type { DecisionRecord } from '../../common/approvals';
import type { Redactor } from '../redact/redactor';
import type { Store } from '../store/store';
import type { CoreEventBus as EventBus } from './events';

export interface ApproveAllView {
  session_id: string;
  session_title: string | null;
  /** When it began. */
  since: number;
  /** The approval whose "Approve all for this session" began it. */
  approval_id: string | null;
  /** That approval's call as its card showed it (redacted), and who chose approve-all on it. */
  call: { tool: string; args: unknown } | null;
  started_by: string | null;
  /** Later calls it approved without asking, and when the last one was. */
  uses: number;
  last_used_at: number | null;
}

export interface ApproveAllEnded {
  session_id: string;
  approval_id: string | null;
  ended_at: number;
  /** Who ended it: a surface (desktop, web, control). */
  ended_by: string;
}

export type EndResult = { ok: true; value: ApproveAllEnded } | { ok: false; error: { code: 'not_found' | 'store_failed'; message: string } };

export class ApproveAllService {
  private readonly off: () => void;

  constructor(
    private readonly store: Store,
    private readonly events: EventBus,
    private readonly redactor: Redactor,
    private readonly now: () => number = Date.now,
  ) {
    // A person chose it on a card: every window learns at once (the banner, Grants).
    this.off = events.on('approval.decided', (d: DecisionRecord) => {
      // Chosen on a card, not a later call approve-all answered.
      if (d.outcome !== 'approve_all_session' || d.by?.kind === 'session_approve_all') return;
      const view = this.view(d.session_id);
      if (view && view.approval_id === d.id) events.emit('approve_all.started', view);
    });
  }

  list(): ApproveAllView[] {
    return this.store.sessions.listApproveAll().map((s) => this.view(s.id)).filter((v): v is ApproveAllView => v !== null);
  }

  view(sessionId: string): ApproveAllView | null {
    const s = this.store.sessions.get(sessionId);
    if (!s?.approve_all_at) return null;
    const approval = s.approve_all_approval ? this.store.approvals.get(s.approve_all_approval) : undefined;
    const uses = this.store.approvals.approveAllUses(s.id, s.approve_all_at);
    return {
      session_id: s.id,
      session_title: s.title,
      since: s.approve_all_at,
      approval_id: s.approve_all_approval,
      call: approval ? { tool: approval.tool, args: JSON.parse(approval.args_redacted) as unknown } : null,
      started_by: approval?.decided_by ?? null,
      uses: uses.count,
      last_used_at: uses.last,
    };
  }

  /** Ends it: the next ask of the session waits for a person again. Audited with who ended it. */
  end(sessionId: string, by: string): EndResult {
    const at = this.now();
    let ended: ApproveAllEnded | null = null;
    try {
      this.store.transaction(() => {
        const before = this.store.sessions.get(sessionId);
        if (!before?.approve_all_at || !this.store.sessions.endApproveAll(sessionId)) return;
        const uses = this.store.approvals.approveAllUses(sessionId, before.approve_all_at);
        ended = { session_id: sessionId, approval_id: before.approve_all_approval, ended_at: at, ended_by: by };
        this.store.audit.append({ at, kind: 'approve_all.ended', session_id: sessionId, subject: before.approve_all_approval ?? sessionId, data: this.redactor.redactRecord({ ended_by: by, since: before.approve_all_at, approved_meanwhile: uses.count }) });
      });
    } catch (err) {
      return { ok: false, error: { code: 'store_failed', message: `Approve all could not be ended (${(err as Error).message}); it is still on. Try again.` } };
    }
    if (!ended) return { ok: false, error: { code: 'not_found', message: `Session ${sessionId} is not in approve-all mode (it was ended already, or never began).` } };
    this.events.emit('approve_all.ended', ended);
    return { ok: true, value: ended };
  }

  dispose(): void {
    this.off();
  }
}
