// What `ctl history` and `ctl pending` show comes from the approvals, outcomes and tool_calls tables,
// which are not chained themselves. Once the chain verifies, every such row must agree with the audit
// entry that recorded it: an edited, swapped, inserted or orphaned row is named. Rows whose entries
// retention removed cannot be checked and are counted as unverifiable.
import { canonicalJson } from './canonical';
import type { Db } from './db';

export type HistoryCheck =
  | { ok: true; approvals: number; outcomes: number; calls: number; unverifiable: number }
  | { ok: false; broken_at: number; reason: string };

interface Entry {
  seq: number;
  at: number;
  data: Record<string, unknown>;
}

class Mismatch extends Error {
  constructor(
    readonly seq: number,
    message: string,
  ) {
    super(message);
  }
}

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);
const show = (v: unknown) => {
  const s = canonicalJson(v ?? null);
  return s.length > 60 ? s.slice(0, 59) + '…' : s;
};

export function verifyHistory(db: Db): HistoryCheck {
  const lookup = db.prepare('SELECT seq, at, data FROM audit WHERE subject = ? AND kind = ? ORDER BY seq LIMIT 1');
  const anyEntry = db.prepare('SELECT 1 FROM audit WHERE subject = ? LIMIT 1');
  const entry = (subject: string, kind: string): Entry | null => {
    const r = lookup.get(subject, kind) as { seq: number; at: number; data: string } | undefined;
    return r ? { seq: r.seq, at: r.at, data: JSON.parse(r.data) as Record<string, unknown> } : null;
  };
  // Entries older than the oldest one kept were removed by retention: rows from before then cannot be checked.
  const retained = db.prepare('SELECT 1 FROM audit_checkpoints LIMIT 1').get() !== undefined;
  const oldestKept = retained ? ((db.prepare('SELECT min(at) AS at FROM audit').get() as { at: number | null }).at ?? Infinity) : -Infinity;
  let unverifiable = 0;
  const missing = (what: string, at: number | null): false => {
    if (at !== null && at < oldestKept) {
      unverifiable++;
      return false;
    }
    throw new Mismatch(0, `${what} has no audit entry: the row was inserted, or its entry removed, outside Threshold`);
  };
  /** Each [field shown, value in the table, key in the entry's data]; a key the entry lacks is not compared. */
  const compare = (what: string, e: Entry, fields: [string, unknown, string | null][]) => {
    for (const [name, value, key] of fields) {
      const recorded = key === null ? e.at : e.data[key];
      if (key !== null && !(key in e.data)) continue;
      if (!same(value, recorded)) throw new Mismatch(e.seq, `${what}: its ${name} in the table (${show(value)}) is not what audit entry ${e.seq} recorded (${show(recorded)})`);
    }
  };

  let approvals = 0;
  let outcomes = 0;
  let calls = 0;
  try {
    const approvalRows = db.prepare('SELECT id, call_id, tool, args_redacted, content_hash, class, reason, created_at, expires_at, status, outcome, decided_at, decided_by, note, grant_ids FROM approvals').iterate() as IterableIterator<Record<string, unknown>>;
    for (const r of approvalRows) {
      const what = `approval ${String(r['id'])}`;
      const args = JSON.parse(String(r['args_redacted'])) as unknown;
      const requested = entry(String(r['id']), 'approval.requested');
      if (requested) {
        compare(what, requested, [
          ['call', r['call_id'], 'call_id'],
          ['tool', r['tool'], 'tool'],
          ['content hash', r['content_hash'], 'hash'],
          ['arguments', args, 'args'],
          ['class', r['class'], 'class'],
          ['reason', r['reason'], 'reason'],
          ['expiry', r['expires_at'], 'expires_at'],
          ['time asked', r['created_at'], null],
        ]);
      } else if (r['status'] === 'pending') missing(`pending ${what}`, r['created_at'] as number);
      if (r['status'] === 'decided') {
        const decided = entry(String(r['id']), 'approval.decided');
        if (!decided) missing(`decided ${what}`, r['decided_at'] as number);
        else {
          compare(what, decided, [
            ['call', r['call_id'], 'call_id'],
            ['outcome', r['outcome'], 'outcome'],
            ['decider', r['decided_by'], 'decided_by'],
            ['tool', r['tool'], 'tool'],
            ['content hash', r['content_hash'], 'hash'],
            ['arguments', args, 'args'],
            ['note', r['note'], 'note'],
            ['grants', r['grant_ids'] ? (JSON.parse(String(r['grant_ids'])) as unknown) : [], 'grant_ids'],
            ['time decided', r['decided_at'], null],
          ]);
        }
      }
      approvals++;
    }

    const outcomeRows = db.prepare('SELECT call_id, status, exit_code, signal, duration_ms, error, recorded_at FROM outcomes').iterate() as IterableIterator<Record<string, unknown>>;
    for (const r of outcomeRows) {
      const what = `the outcome of call ${String(r['call_id'])}`;
      const e = entry(String(r['call_id']), 'call.executed');
      if (!e) missing(what, r['recorded_at'] as number);
      else {
        compare(what, e, [
          ['status', r['status'], 'status'],
          ['exit code', r['exit_code'], 'exit_code'],
          ['signal', r['signal'], 'signal'],
          ['duration', r['duration_ms'], 'duration_ms'],
          ['error', r['error'], 'error'],
          ['time', r['recorded_at'], 'recorded_at'],
        ]);
      }
      outcomes++;
    }

    // A call the policy decided (no approval) is recorded by call.decided; one still being classified has
    // nothing to compare yet.
    const callRows = db
      .prepare("SELECT c.id, c.tool, c.decision, c.decided_by, c.class, c.state, c.created_at, EXISTS (SELECT 1 FROM approvals a WHERE a.call_id = c.id) AS asked FROM tool_calls c")
      .iterate() as IterableIterator<Record<string, unknown>>;
    for (const r of callRows) {
      const what = `call ${String(r['id'])}`;
      const e = entry(String(r['id']), 'call.decided');
      // A call a restart ended is recorded as decided by the restart, in the entry that ended it.
      const ended = entry(String(r['id']), 'call.executed');
      const endedByRestart = ended?.data['recovered'] === true;
      if (endedByRestart) compare(what, ended!, [['decider', r['decided_by'], 'decided_by']]);
      if (e) {
        compare(what, e, [
          ['tool', r['tool'], 'tool'],
          ['decision', r['decision'], 'decision'],
          // An ask answered by an earlier approval is recorded with that approval as its decider.
          ...(r['decision'] === 'ask' || endedByRestart ? [] : [['decider', r['decided_by'], 'decided_by'] as [string, unknown, string]]),
          ['class', r['class'], 'class'],
        ]);
      } else if (!r['asked'] && r['state'] !== 'classifying' && anyEntry.get(String(r['id'])) === undefined) missing(what, r['created_at'] as number);
      calls++;
    }
  } catch (err) {
    if (err instanceof Mismatch) return { ok: false, broken_at: err.seq, reason: err.message };
    throw err;
  }
  return { ok: true, approvals, outcomes, calls, unverifiable };
}
