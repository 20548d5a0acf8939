// The history of calls as people read it: every row of tool_calls (allowed by the level, a rule or a
// grant, asked and answered, refused, stopped), with its approval, its execution outcome and its
// checkpoint, newest first. Filters and paging run in SQL so 100,000 calls page as fast as 100:
// a cursor for reading on (ctl, export), an offset under a fixed `upto` for a list that jumps.
import type { Outcome } from '../../common/approvals';
import type { DecidedBy } from '../../common/decided-by';
import { parseOrigin } from '../../common/origin';
import type { CallState } from '../../common/call-state';
import type { Class, Effect } from '../../common/domain';
import { decodeCursor, deciderGroupOf, encodeCursor, kindsOfGroup, type CallFilter, type CallPage, type CallRecord } from '../../common/history';
import { deciderOf } from './calls-repo';
import type { Db } from './db';
import { outcomeOfJoinedRow } from './outcomes-repo';

export interface CallQuery extends CallFilter {
  limit: number;
  /** Calls older than this position (a page's next_cursor). */
  cursor?: string;
  /** Skip this many matching calls (with `upto`, for a list that jumps to any row). */
  offset?: number;
  /** Only calls at or before this position (the first page's `upto`). */
  upto?: string;
  with_total?: boolean;
}

export class CursorError extends Error {
  constructor(readonly field: string) {
    super(`${field} is not a position this history gave out (expected what next_cursor or upto returned).`);
    this.name = 'CursorError';
  }
}

/** The full stored call, for the detail view. */
export interface CallHistoryDetail extends CallRecord {
  args: unknown;
  cwd: string | null;
  hash: string;
  effects: Effect[];
  explanation: string | null;
  asked: {
    id: string;
    reason: string;
    outcome: Outcome | null;
    decided_by: string | null;
    by: DecidedBy | null;
    decided_at: number | null;
    created_at: number;
    expires_at: number | null;
    note: string | null;
    grant_ids: string[];
    preview: string | null;
  } | null;
}

/** A line of the list: the command, the path or the URL, else the arguments, clipped in SQL (arguments can be large). */
const FIELD = (name: string) => `CASE WHEN json_valid(c.args_redacted) AND json_type(c.args_redacted) = 'object' THEN json_extract(c.args_redacted, '$.${name}') END`;
const SUMMARY = `substr(replace(replace(coalesce(${['command', 'path', 'url', 'question', 'message'].map(FIELD).join(', ')}, c.args_redacted), char(10), ' '), char(13), ' '), 1, 240)`;

const COLUMNS = `c.id, c.session_id, c.turn_id, c.model_call_id, c.tool, ${SUMMARY} AS summary, c.class, c.decision, c.decided_by, c.decider, c.state, c.created_at, c.updated_at, c.origin,
  a.id AS a_id, a.outcome AS a_outcome, a.decided_at AS a_decided_at,
  o.status AS x_status, o.exit_code AS x_exit_code, o.signal AS x_signal, o.duration_ms AS x_duration_ms, substr(o.error, 1, 512) AS x_error, o.recorded_at AS x_recorded_at,
  (SELECT k.id FROM checkpoints k WHERE k.call_id = c.id AND k.kind = 'before_call' ORDER BY k.created_at LIMIT 1) AS checkpoint_id`;

/** One approval per call (a call is parked at most once); the newest if that ever changes. */
const JOINS = `LEFT JOIN approvals a ON a.id = (SELECT a2.id FROM approvals a2 WHERE a2.call_id = c.id ORDER BY a2.created_at DESC LIMIT 1)
  LEFT JOIN outcomes o ON o.call_id = c.id`;

type Row = Record<string, unknown>;

export class CallHistoryRepo {
  constructor(private readonly db: Db) {}

  list(q: CallQuery): CallPage {
    const { where, params } = this.filters(q);
    const bounded = [...where];
    const boundParams = [...params];
    if (q.upto !== undefined) {
      const u = decodeCursor(q.upto);
      if (!u) throw new CursorError('upto');
      bounded.push('(c.created_at, c.id) <= (?, ?)');
      boundParams.push(u.at, u.id);
    }
    const paged = [...bounded];
    const pagedParams = [...boundParams];
    if (q.cursor !== undefined) {
      const c = decodeCursor(q.cursor);
      if (!c) throw new CursorError('cursor');
      paged.push('(c.created_at, c.id) < (?, ?)');
      pagedParams.push(c.at, c.id);
    }
    const clause = (w: string[]) => (w.length ? `WHERE ${w.join(' AND ')}` : '');
    // One more than asked says whether another page follows.
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM tool_calls c ${JOINS} ${clause(paged)} ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?`)
      .all(...pagedParams, q.limit + 1, q.offset ?? 0) as Row[];
    const more = rows.length > q.limit;
    const calls = rows.slice(0, q.limit).map(toRecord);
    const last = calls[calls.length - 1];
    let upto = q.upto ?? null;
    if (upto === null) {
      const top = this.db.prepare(`SELECT c.created_at AS at, c.id FROM tool_calls c ${clause(where)} ORDER BY c.created_at DESC, c.id DESC LIMIT 1`).get(...params) as { at: number; id: string } | undefined;
      upto = top ? encodeCursor(top.at, top.id) : null;
    }
    const total = q.with_total ? (this.db.prepare(`SELECT count(*) AS n FROM tool_calls c ${clause(bounded)}`).get(...boundParams) as { n: number }).n : null;
    return { calls, next_cursor: more && last ? encodeCursor(last.created_at, last.id) : null, upto, total };
  }

  get(id: string): CallHistoryDetail | undefined {
    const row = this.db
      .prepare(
        `SELECT ${COLUMNS}, c.args_redacted, c.cwd, c.content_hash, c.effects, c.explanation,
           a.reason AS a_reason, a.decided_by AS a_decided_by, a.decider AS a_decider, a.created_at AS a_created_at, a.expires_at AS a_expires_at, a.note AS a_note, a.grant_ids AS a_grant_ids, a.preview AS a_preview
         FROM tool_calls c ${JOINS} WHERE c.id = ?`,
      )
      .get(id) as Row | undefined;
    if (!row) return undefined;
    const base = toRecord(row);
    return {
      ...base,
      args: JSON.parse(String(row['args_redacted'])) as unknown,
      cwd: (row['cwd'] as string | null) ?? null,
      hash: String(row['content_hash']),
      effects: row['effects'] ? (JSON.parse(String(row['effects'])) as Effect[]) : [],
      explanation: (row['explanation'] as string | null) ?? null,
      asked: row['a_id']
        ? {
            id: String(row['a_id']),
            reason: String(row['a_reason']),
            outcome: (row['a_outcome'] as Outcome | null) ?? null,
            decided_by: (row['a_decided_by'] as string | null) ?? null,
            by: deciderOf({ decider: (row['a_decider'] as string | null) ?? null }),
            decided_at: (row['a_decided_at'] as number | null) ?? null,
            created_at: row['a_created_at'] as number,
            expires_at: (row['a_expires_at'] as number | null) ?? null,
            note: (row['a_note'] as string | null) ?? null,
            grant_ids: row['a_grant_ids'] ? (JSON.parse(String(row['a_grant_ids'])) as string[]) : [],
            preview: (row['a_preview'] as string | null) ?? null,
          }
        : null,
    };
  }

  private filters(f: CallFilter): { where: string[]; params: unknown[] } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (f.state?.length) {
      where.push(`c.state IN (${f.state.map(() => '?').join(', ')})`);
      params.push(...f.state);
    }
    if (f.tool) {
      where.push('c.tool = ?');
      params.push(f.tool);
    }
    if (f.class) {
      where.push('c.class = ?');
      params.push(f.class);
    }
    if (f.session_id) {
      where.push('c.session_id = ?');
      params.push(f.session_id);
    }
    if (f.decided_by) {
      // The group is read from the decider as data, never from its words.
      const kinds = kindsOfGroup(f.decided_by);
      params.push(...kinds);
      where.push(`json_extract(c.decider, '$.kind') IN (${kinds.map(() => '?').join(', ')})`);
    }
    if (f.text) {
      // instr on lower-cased text: no wildcard in what the person typed means anything.
      const needle = f.text.toLowerCase();
      where.push("(instr(lower(c.tool), ?) > 0 OR instr(lower(c.args_redacted), ?) > 0 OR instr(lower(coalesce(c.explanation, '')), ?) > 0 OR instr(lower(coalesce(c.decided_by, '')), ?) > 0)");
      params.push(needle, needle, needle, needle);
    }
    return { where, params };
  }
}

function toRecord(r: Row): CallRecord {
  const decidedBy = (r['decided_by'] as string | null) ?? null;
  const by = deciderOf({ decider: (r['decider'] as string | null) ?? null });
  return {
    id: String(r['id']),
    session_id: String(r['session_id']),
    turn_id: (r['turn_id'] as string | null) ?? null,
    tool: String(r['tool']),
    summary: String(r['summary'] ?? ''),
    class: (r['class'] as Class | null) ?? null,
    decision: (r['decision'] as CallRecord['decision']) ?? null,
    decided_by: decidedBy,
    by,
    decider: deciderGroupOf(by),
    state: r['state'] as CallState,
    created_at: r['created_at'] as number,
    updated_at: r['updated_at'] as number,
    approval: r['a_id'] ? { id: String(r['a_id']), outcome: (r['a_outcome'] as Outcome | null) ?? null, decided_at: (r['a_decided_at'] as number | null) ?? null } : null,
    execution: outcomeOfJoinedRow(r),
    checkpoint_id: (r['checkpoint_id'] as string | null) ?? null,
    model_call_id: (r['model_call_id'] as string | null) ?? null,
    origin: parseOrigin(r['origin'] as string | null),
  };
}
