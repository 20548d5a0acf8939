// The audit history: append-only and hash-chained. Each entry stores a SHA-256 over its canonical content
// and the previous entry's hash, so changing, removing or inserting an entry breaks the chain from there
// on. Retention removes the oldest entries only behind a checkpoint row that records (and signs) the hash
// the chain continues from, so what remains still verifies.
import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from './canonical';
import type { Db } from './db';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEntry {
  seq: number;
  at: number;
  kind: string;
  session_id: string | null;
  subject: string | null;
  data: unknown;
  prev_hash: string;
  hash: string;
}

export interface NewAuditEntry {
  at: number;
  kind: string;
  session_id?: string | null;
  subject?: string | null;
  /** Already redacted. */
  data: unknown;
}

export type VerifyResult =
  | { ok: true; entries: number; checkpoints: number; head: string }
  | { ok: false; entries: number; broken_at: number; reason: string };

function entryHash(prev: string, seq: number, at: number, kind: string, session: string | null, subject: string | null, data: string): string {
  return createHash('sha256').update(`${prev}\n${seq}\n${at}\n${kind}\n${session ?? ''}\n${subject ?? ''}\n${data}`).digest('hex');
}

interface CheckpointRow {
  id: number;
  at: number;
  upto_seq: number;
  upto_hash: string;
  removed: number;
  prev_hash: string;
  hash: string;
  signature: string;
}

export class AuditRepo {
  constructor(
    private readonly db: Db,
    /** Signs retention checkpoints; kept outside the database (see docs/approvals.md). */
    private readonly key: Buffer,
  ) {}

  /** Read inside the appending transaction: another process (the checkpoints CLI) may have appended. */
  private currentHead(): { seq: number; hash: string } {
    const last = this.db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string } | undefined;
    if (last) return last;
    const cp = this.latestCheckpoint();
    return cp ? { seq: cp.upto_seq, hash: cp.upto_hash } : { seq: 0, hash: GENESIS_HASH };
  }

  /** Appends an entry; callers run it inside the transaction of the change it records. */
  append(e: NewAuditEntry): AuditEntry {
    const head = this.currentHead();
    const seq = head.seq + 1;
    const data = canonicalJson(e.data);
    const session = e.session_id ?? null;
    const subject = e.subject ?? null;
    const hash = entryHash(head.hash, seq, e.at, e.kind, session, subject, data);
    this.db.prepare('INSERT INTO audit (seq, at, kind, session_id, subject, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(seq, e.at, e.kind, session, subject, data, head.hash, hash);
    return { seq, at: e.at, kind: e.kind, session_id: session, subject, data: e.data, prev_hash: head.hash, hash };
  }

  list(opts: { limit?: number; before?: number; kind?: string; session_id?: string } = {}): AuditEntry[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (opts.before !== undefined) {
      where.push('seq < ?');
      params.push(opts.before);
    }
    if (opts.kind) {
      where.push('kind = ?');
      params.push(opts.kind);
    }
    if (opts.session_id) {
      where.push('session_id = ?');
      params.push(opts.session_id);
    }
    params.push(opts.limit ?? 100);
    const rows = this.db.prepare(`SELECT * FROM audit ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq DESC LIMIT ?`).all(...params) as (Omit<AuditEntry, 'data'> & { data: string })[];
    return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as unknown }));
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM audit').get() as { n: number }).n;
  }

  private latestCheckpoint(): CheckpointRow | undefined {
    return this.db.prepare('SELECT * FROM audit_checkpoints ORDER BY id DESC LIMIT 1').get() as CheckpointRow | undefined;
  }

  private checkpointHash(prev: string, at: number, uptoSeq: number, uptoHash: string, removed: number): string {
    return createHash('sha256').update(`checkpoint\n${prev}\n${at}\n${uptoSeq}\n${uptoHash}\n${removed}`).digest('hex');
  }

  private sign(hash: string): string {
    return createHmac('sha256', this.key).update(hash).digest('hex');
  }

  /**
   * Retention: removes the oldest entries beyond `maxEntries` or older than `maxAgeMs`, behind a signed
   * checkpoint. Returns how many entries were removed.
   */
  retain(opts: { maxEntries?: number; maxAgeMs?: number; now: number }): number {
    return this.db.transaction(() => {
      let cutoff = 0;
      if (opts.maxEntries !== undefined) {
        const row = this.db.prepare('SELECT seq FROM audit ORDER BY seq DESC LIMIT 1 OFFSET ?').get(opts.maxEntries) as { seq: number } | undefined;
        if (row) cutoff = Math.max(cutoff, row.seq);
      }
      if (opts.maxAgeMs !== undefined) {
        const row = this.db.prepare('SELECT max(seq) AS seq FROM audit WHERE at < ?').get(opts.now - opts.maxAgeMs) as { seq: number | null };
        if (row.seq !== null) cutoff = Math.max(cutoff, row.seq);
      }
      if (cutoff === 0) return 0;
      const last = this.db.prepare('SELECT seq, hash FROM audit WHERE seq <= ? ORDER BY seq DESC LIMIT 1').get(cutoff) as { seq: number; hash: string } | undefined;
      if (!last) return 0;
      const removed = (this.db.prepare('SELECT count(*) AS n FROM audit WHERE seq <= ?').get(cutoff) as { n: number }).n;
      const prev = this.latestCheckpoint()?.hash ?? GENESIS_HASH;
      const hash = this.checkpointHash(prev, opts.now, last.seq, last.hash, removed);
      this.db
        .prepare('INSERT INTO audit_checkpoints (at, upto_seq, upto_hash, removed, prev_hash, hash, signature) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(opts.now, last.seq, last.hash, removed, prev, hash, this.sign(hash));
      this.db.prepare('DELETE FROM audit WHERE seq <= ?').run(cutoff);
      return removed;
    })();
  }

  /** Recomputes the whole chain; names the first entry (by seq) that does not verify. */
  verify(): VerifyResult {
    const checkpoints = this.db.prepare('SELECT * FROM audit_checkpoints ORDER BY id').all() as CheckpointRow[];
    let prevCp = GENESIS_HASH;
    for (const cp of checkpoints) {
      const expected = this.checkpointHash(cp.prev_hash, cp.at, cp.upto_seq, cp.upto_hash, cp.removed);
      if (cp.prev_hash !== prevCp || cp.hash !== expected || cp.signature !== this.sign(cp.hash)) {
        return { ok: false, entries: 0, broken_at: cp.upto_seq, reason: `retention checkpoint ${cp.id} does not verify` };
      }
      prevCp = cp.hash;
    }
    const last = checkpoints[checkpoints.length - 1];
    let prev = last?.upto_hash ?? GENESIS_HASH;
    let expectedSeq = (last?.upto_seq ?? 0) + 1;
    let entries = 0;
    const rows = this.db.prepare('SELECT seq, at, kind, session_id, subject, data, prev_hash, hash FROM audit ORDER BY seq').raw().iterate() as IterableIterator<[number, number, string, string | null, string | null, string, string, string]>;
    for (const [seq, at, kind, session, subject, data, prevHash, hash] of rows) {
      if (seq !== expectedSeq) return { ok: false, entries, broken_at: expectedSeq, reason: `entry ${expectedSeq} is missing` };
      if (prevHash !== prev) return { ok: false, entries, broken_at: seq, reason: `entry ${seq} does not link to the entry before it` };
      if (entryHash(prev, seq, at, kind, session, subject, data) !== hash) return { ok: false, entries, broken_at: seq, reason: `entry ${seq} was changed after it was written` };
      prev = hash;
      expectedSeq = seq + 1;
      entries++;
    }
    return { ok: true, entries, checkpoints: checkpoints.length, head: prev };
  }
}
