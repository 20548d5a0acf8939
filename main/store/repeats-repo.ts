// Repeated approvals: the same call (one content hash) approved by a person again and again, the raw
// material of grant suggestions. Read only; floors, destructive calls and calls no grant could cover
// (no proposed grant) are left out here already.
import type { ProposedGrant } from '../../common/approvals';
import type { Class } from '../../common/domain';
import type { Db } from './db';

export interface RepeatedApproval {
  hash: string;
  tool: string;
  /** The call's arguments as stored (redacted). */
  args: unknown;
  class: Class;
  cwd: string | null;
  proposed: ProposedGrant;
  count: number;
  lastAt: number;
}

export class RepeatsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Calls approved at least minCount times, one at a time (approve once, approve for session), by a person
   * on one of the given surfaces (a decider of kind human); most approved first.
   */
  repeatedApprovals(f: { minCount: number; surfaces: readonly string[]; hash?: string; limit: number }): RepeatedApproval[] {
    const surfaces = f.surfaces.length ? f.surfaces : [''];
    const rows = this.db
      .prepare(
        `SELECT a.content_hash AS hash, a.tool, a.args_redacted, a.class, a.proposed_grant, c.cwd, COUNT(*) AS n, MAX(a.decided_at) AS last_at
         FROM approvals a JOIN tool_calls c ON c.id = a.call_id
         WHERE a.status = 'decided' AND a.outcome IN ('approve_once', 'approve_session')
           AND json_extract(a.decider, '$.kind') = 'human' AND json_extract(a.decider, '$.surface') IN (${surfaces.map(() => '?').join(', ')})
           AND a.floor IS NULL AND a.class <> 'destructive' AND a.proposed_grant IS NOT NULL
           ${f.hash ? 'AND a.content_hash = ?' : ''}
         GROUP BY a.content_hash
         HAVING n >= ?
         ORDER BY n DESC, last_at DESC
         LIMIT ?`,
      )
      .all(...surfaces, ...(f.hash ? [f.hash] : []), f.minCount, f.limit) as { hash: string; tool: string; args_redacted: string; class: Class; proposed_grant: string; cwd: string | null; n: number; last_at: number }[];
    return rows.map((r) => ({ hash: r.hash, tool: r.tool, args: JSON.parse(r.args_redacted) as unknown, class: r.class, cwd: r.cwd, proposed: JSON.parse(r.proposed_grant) as ProposedGrant, count: r.n, lastAt: r.last_at }));
  }
}
