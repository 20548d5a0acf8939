// The audit history: append-only and chained under a key. Each entry stores an HMAC-SHA-256, keyed with
// the audit key (kept outside the database), over its canonical content and the previous entry's hash:
// changing, removing or inserting an entry breaks the chain from there on, and without the key nobody
// can compute a chain that verifies. The head is anchored outside the database (audit-anchor.ts), so a
// removed tail or an older copy is detected too. Chains written before the key (schema < KEYED_AUDIT_SCHEMA) keep their
// plain SHA-256 entries, sealed by an `audit.rekeyed` entry whose HMAC covers them. Retention removes
// the oldest entries only behind a signed checkpoint row recording the hash the chain continues from.
import { createHash, createHmac } from 'node:crypto';
import type { Redacted } from '../redact/redactor';
import type { AnchoredHead, HeadAnchor } from './audit-anchor';
import { canonicalJson } from './canonical';
import type { Db } from './db';
import { KEYED_AUDIT_SCHEMA } from './migrations';

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
  /** Redacted (Redactor.redactRecord); it can never be cleaned up later, the chain forbids it. */
  data: Redacted<unknown>;
}

/** Which check found the problem: the chain itself, the head anchored outside it, or history vs chain. */
export type VerifyLayer = 'chain' | 'anchor' | 'history';

export type VerifyResult =
  | {
      ok: true;
      entries: number;
      checkpoints: number;
      head: string;
      /** The anchored head it was checked against (null for a store without an anchor file). */
      anchor: { seq: number; hash: string } | null;
      /** What `ctl history` shows, checked against the chain (filled in by Store.verify). */
      history?: { approvals: number; outcomes: number; calls: number; unverifiable: number };
    }
  | { ok: false; entries: number; broken_at: number; reason: string; layer: VerifyLayer };

type Key = Buffer | null;

/** HMAC-SHA-256 under the key; plain SHA-256 (key null) only for entries written before the chain was keyed. */
function entryHash(key: Key, prev: string, seq: number, at: number, kind: string, session: string | null, subject: string | null, data: string): string {
  const h = key ? createHmac('sha256', key) : createHash('sha256');
  return h.update(`${prev}\n${seq}\n${at}\n${kind}\n${session ?? ''}\n${subject ?? ''}\n${data}`).digest('hex');
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

interface KeyingRow {
  keyed_from: number;
  at: number;
  mac: string;
}

export class AuditRepo {
  constructor(
    private readonly db: Db,
    /** Keys the chain and signs retention checkpoints and the anchor; kept outside the database. */
    private readonly key: Buffer,
    /** The head kept outside the database (none for an in-memory store). */
    private readonly anchor: HeadAnchor | null = null,
  ) {}

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('hex');
  }

  private keyingMac(keyedFrom: number, at: number): string {
    return this.mac(`keyed-from\n${keyedFrom}\n${at}`);
  }

  private keying(): KeyingRow | undefined {
    return this.db.prepare('SELECT keyed_from, at, mac FROM audit_keying WHERE id = 1').get() as KeyingRow | undefined;
  }

  /**
   * Run once per open, after the migrations. A new database is keyed from its first entry; a chain from
   * before the key (the database was below KEYED_AUDIT_SCHEMA when this open began) is sealed with an
   * `audit.rekeyed` entry and keyed from there. A database already at that schema without its keying record was
   * altered: it is left as it is, and verify says so.
   */
  ensureKeyed(migratedFrom: number, now: number): void {
    let created = false;
    this.db
      .transaction(() => {
        if (this.keying() || migratedFrom >= KEYED_AUDIT_SCHEMA) return;
        const head = this.currentHead();
        const legacy = this.count();
        const keyedFrom = head.seq + 1;
        this.db.prepare('INSERT INTO audit_keying (id, keyed_from, at, mac) VALUES (1, ?, ?, ?)').run(keyedFrom, now, this.keyingMac(keyedFrom, now));
        if (head.seq > 0) {
          // The store's own record (counts, a hash and a fixed sentence): nothing in it needs redacting.
          this.write({
            at: now,
            kind: 'audit.rekeyed',
            data: { legacy_entries: legacy, legacy_head: head.hash, reason: 'From here on the chain is keyed (HMAC-SHA-256); the entries before were hashed without a key and are sealed by this one.' },
          });
        }
        created = true;
      })
      .immediate();
    if (created && this.anchor && this.anchor.read().state === 'missing') this.writeAnchor();
  }

  /** Read inside the appending transaction: another process (the checkpoints CLI) may have appended. */
  private currentHead(): { seq: number; hash: string } {
    const last = this.db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string } | undefined;
    if (last) return last;
    const cp = this.latestCheckpoint();
    return cp ? { seq: cp.upto_seq, hash: cp.upto_hash } : { seq: 0, hash: GENESIS_HASH };
  }

  /** Appends an entry; callers run it inside the transaction of the change it records. */
  append(e: NewAuditEntry): AuditEntry {
    return this.write(e);
  }

  private write(e: Omit<NewAuditEntry, 'data'> & { data: unknown }): AuditEntry {
    const head = this.currentHead();
    const seq = head.seq + 1;
    const data = canonicalJson(e.data);
    const session = e.session_id ?? null;
    const subject = e.subject ?? null;
    const hash = entryHash(this.key, head.hash, seq, e.at, e.kind, session, subject, data);
    this.db.prepare('INSERT INTO audit (seq, at, kind, session_id, subject, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(seq, e.at, e.kind, session, subject, data, head.hash, hash);
    // Outside a transaction the entry is committed already; inside one, Store.transaction anchors after commit.
    if (!this.db.inTransaction) this.syncAnchor();
    return { seq, at: e.at, kind: e.kind, session_id: session, subject, data: e.data, prev_hash: head.hash, hash };
  }

  /**
   * Moves the anchor to the committed head. It only moves forward, and only from a head this chain still
   * holds: after a rollback or a removed tail the old anchor stays, so verify keeps reporting it.
   */
  syncAnchor(): void {
    if (!this.anchor) return;
    try {
      const current = this.anchor.read();
      if (current.state !== 'ok') return;
      const head = this.currentHead();
      if (head.seq <= current.head.seq || !this.holds(current.head)) return;
      this.anchor.write({ seq: head.seq, hash: head.hash, keyed_from: current.head.keyed_from });
    } catch (err) {
      process.emitWarning(`Threshold could not update the audit head anchor ${this.anchor.file}: ${(err as Error).message}`);
    }
  }

  private writeAnchor(): void {
    const head = this.currentHead();
    this.anchor?.write({ seq: head.seq, hash: head.hash, keyed_from: this.keying()?.keyed_from ?? 1 });
  }

  /** Whether the anchored entry is still part of this database's chain. */
  private holds(a: AnchoredHead): boolean {
    if (a.seq === 0) return a.hash === GENESIS_HASH;
    const row = this.db.prepare('SELECT hash FROM audit WHERE seq = ?').get(a.seq) as { hash: string } | undefined;
    if (row) return row.hash === a.hash;
    const cp = this.latestCheckpoint();
    if (cp && cp.upto_seq === a.seq) return cp.upto_hash === a.hash;
    return !!cp && cp.upto_seq > a.seq;
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

  /** Every entry about these subjects (a call, its approval, its checkpoint), oldest first. */
  bySubjects(subjects: readonly string[], limit = 200): AuditEntry[] {
    if (subjects.length === 0) return [];
    const marks = subjects.map(() => '?').join(', ');
    const rows = this.db.prepare(`SELECT * FROM audit WHERE subject IN (${marks}) ORDER BY seq LIMIT ?`).all(...subjects, limit) as (Omit<AuditEntry, 'data'> & { data: string })[];
    return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as unknown }));
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM audit').get() as { n: number }).n;
  }

  /** The oldest entry still stored (older ones were removed by retention), or null. */
  oldestSeq(): number | null {
    return (this.db.prepare('SELECT min(seq) AS s FROM audit').get() as { s: number | null }).s;
  }

  private latestCheckpoint(): CheckpointRow | undefined {
    return this.db.prepare('SELECT * FROM audit_checkpoints ORDER BY id DESC LIMIT 1').get() as CheckpointRow | undefined;
  }

  private checkpointHash(prev: string, at: number, uptoSeq: number, uptoHash: string, removed: number): string {
    return createHash('sha256').update(`checkpoint\n${prev}\n${at}\n${uptoSeq}\n${uptoHash}\n${removed}`).digest('hex');
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
        .run(opts.now, last.seq, last.hash, removed, prev, hash, this.mac(hash));
      this.db.prepare('DELETE FROM audit WHERE seq <= ?').run(cutoff);
      return removed;
    })();
  }

  /**
   * Recomputes the whole chain under the key, then compares its head with the anchor. Names the first
   * entry (by seq) that does not verify.
   */
  verify(): VerifyResult {
    const fail = (broken_at: number, reason: string, entries = 0, layer: VerifyLayer = 'chain'): VerifyResult => ({ ok: false, entries, broken_at, reason, layer });
    const keying = this.keying();
    if (!keying) return fail(0, 'the record of where the keyed chain starts (audit_keying) is missing: the database was altered');
    if (keying.mac !== this.keyingMac(keying.keyed_from, keying.at)) {
      return fail(keying.keyed_from, 'the record of where the keyed chain starts does not verify: it was altered, or this is not the audit key the history was written with');
    }
    const checkpoints = this.db.prepare('SELECT * FROM audit_checkpoints ORDER BY id').all() as CheckpointRow[];
    let prevCp = GENESIS_HASH;
    for (const cp of checkpoints) {
      const expected = this.checkpointHash(cp.prev_hash, cp.at, cp.upto_seq, cp.upto_hash, cp.removed);
      if (cp.prev_hash !== prevCp || cp.hash !== expected || cp.signature !== this.mac(cp.hash)) {
        return fail(cp.upto_seq, `retention checkpoint ${cp.id} does not verify`);
      }
      prevCp = cp.hash;
    }
    const anchor = this.anchor?.read() ?? null;
    const anchored = anchor?.state === 'ok' ? anchor.head : null;
    const last = checkpoints[checkpoints.length - 1];
    let prev = last?.upto_hash ?? GENESIS_HASH;
    let expectedSeq = (last?.upto_seq ?? 0) + 1;
    let entries = 0;
    let hashAtAnchor: string | null = anchored && anchored.seq === expectedSeq - 1 ? prev : null;
    const rows = this.db.prepare('SELECT seq, at, kind, session_id, subject, data, prev_hash, hash FROM audit ORDER BY seq').raw().iterate() as IterableIterator<[number, number, string, string | null, string | null, string, string, string]>;
    for (const [seq, at, kind, session, subject, data, prevHash, hash] of rows) {
      if (seq !== expectedSeq) return fail(expectedSeq, `entry ${expectedSeq} is missing`, entries);
      if (prevHash !== prev) return fail(seq, `entry ${seq} does not link to the entry before it`, entries);
      const keyed = seq >= keying.keyed_from;
      if (entryHash(keyed ? this.key : null, prev, seq, at, kind, session, subject, data) !== hash) {
        return fail(seq, `entry ${seq} was changed after it was written (or written without the audit key)`, entries);
      }
      if (keyed && seq === keying.keyed_from && seq > 1 && kind !== 'audit.rekeyed') return fail(seq, `entry ${seq} should be the audit.rekeyed entry that seals the unkeyed chain`, entries);
      if (anchored && seq === anchored.seq) hashAtAnchor = hash;
      prev = hash;
      expectedSeq = seq + 1;
      entries++;
    }
    const headSeq = expectedSeq - 1;
    if (anchor) {
      const where = this.anchor!.file;
      if (anchor.state === 'missing') return fail(headSeq, `the head anchor ${where} is missing, so a removed tail or an older copy of the database cannot be ruled out`, entries, 'anchor');
      if (anchor.state === 'forged') return fail(headSeq, `the head anchor ${where} does not verify: ${anchor.why}`, entries, 'anchor');
      const a = anchor.head;
      if (a.keyed_from !== keying.keyed_from) return fail(a.keyed_from, 'the chain is keyed from another entry than the anchor records: the database was replaced', entries, 'anchor');
      if (a.seq > headSeq) {
        return fail(headSeq + 1, `entries ${headSeq + 1}–${a.seq} are missing: the newest entries were removed, or the database was replaced by an older copy (the anchor records ${a.seq} entries)`, entries, 'anchor');
      }
      // Anchored entries removed by retention cannot be compared; every other one must be the anchored one.
      if (hashAtAnchor !== null && hashAtAnchor !== a.hash) {
        return fail(a.seq, `entry ${a.seq} is not the entry that was anchored: the database was replaced by another copy`, entries, 'anchor');
      }
    }
    return { ok: true, entries, checkpoints: checkpoints.length, head: prev, anchor: anchored ? { seq: anchored.seq, hash: anchored.hash } : null };
  }
}
