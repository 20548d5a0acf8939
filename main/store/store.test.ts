import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../redact/redactor';
import { SCHEMA_VERSION } from './migrations';
import { OutcomeAlreadyRecorded } from './outcomes-repo';
import { Store } from './store';

const redactor = new Redactor({ home: '/home/user' });
const stores: Store[] = [];
const open = (s: Store) => (stores.push(s), s);
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'threshold-store-'));
}

describe('opening the database', () => {
  it('creates the schema with WAL and foreign keys', () => {
    const s = open(Store.openDataDir(tempDir()));
    expect({ journal: s.db.pragma('journal_mode', { simple: true }), fk: s.db.pragma('foreign_keys', { simple: true }), version: s.db.pragma('user_version', { simple: true }) }).toEqual({ journal: 'wal', fk: 1, version: SCHEMA_VERSION });
  });

  it('refuses a database written by a newer version and leaves it untouched', () => {
    const dir = tempDir();
    const file = join(dir, 'threshold.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const before = readFileSync(file);
    const mtime = statSync(file).mtimeMs;
    expect(() => Store.openDataDir(dir)).toThrow(/written by a newer version of Threshold .* left untouched/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });

  it('keeps its data across reopening', () => {
    const dir = tempDir();
    const a = Store.openDataDir(dir);
    a.settings.set('level', 'full', 1);
    a.close();
    const b = open(Store.openDataDir(dir));
    expect(b.settings.get('level')).toBe('full');
  });
});

describe('execution outcomes are write-once', () => {
  it('refuses a second write', () => {
    const s = open(Store.inMemory());
    s.sessions.ensure('s1', 1);
    s.calls.insert({ id: 'c1', session_id: 's1', turn_id: null, tool: 'run_command', args_redacted: redactor.redactTextSync('{}'), content_hash: 'h', cwd: null, class: 'write', effects: '[]', decision: 'ask', decider: { kind: 'level', level: 'supervised' }, explanation: redactor.redactTextSync(''), state: 'executing', created_at: 1 });
    const outcome = { status: 'succeeded' as const, exit_code: 0, signal: null, duration_ms: 5, error: null, recorded_at: 2 };
    s.outcomes.record('c1', outcome);
    expect(() => s.outcomes.record('c1', { ...outcome, exit_code: 1 })).toThrow(OutcomeAlreadyRecorded);
    expect(() => s.db.prepare("UPDATE outcomes SET exit_code = 9 WHERE call_id = 'c1'").run()).toThrow(/already recorded/);
    expect(s.outcomes.get('c1')).toEqual(outcome);
  });
});

describe('the audit chain', () => {
  function filled(n: number): Store {
    const s = open(Store.inMemory());
    s.transaction(() => {
      for (let i = 1; i <= n; i++) s.audit.append({ at: i * 1000, kind: 'test.entry', subject: `e${i}`, data: redactor.redactRecord({ i, text: `entry ${i}` }) });
    });
    return s;
  }

  it('verifies an untouched chain', () => {
    expect(filled(20).audit.verify()).toMatchObject({ ok: true, entries: 20 });
  });

  it.each([
    { name: 'a changed entry', tamper: (db: Database.Database) => db.prepare("UPDATE audit SET data = '{\"i\":7,\"text\":\"edited\"}' WHERE seq = 7").run(), broken_at: 7 },
    { name: 'a removed entry', tamper: (db: Database.Database) => db.prepare('DELETE FROM audit WHERE seq = 5').run(), broken_at: 5 },
    { name: 'an entry re-hashed in place (the next link breaks)', tamper: (db: Database.Database) => db.prepare("UPDATE audit SET hash = '" + 'f'.repeat(64) + "' WHERE seq = 9").run(), broken_at: 9 },
    { name: 'an inserted entry', tamper: (db: Database.Database) => db.prepare("UPDATE audit SET seq = seq + 100 WHERE seq >= 12").run(), broken_at: 12 },
  ])('names the first broken entry after $name', ({ tamper, broken_at }) => {
    const s = filled(20);
    s.db.exec('DROP TRIGGER audit_append_only');
    tamper(s.db);
    expect(s.audit.verify()).toMatchObject({ ok: false, broken_at });
  });

  it('refuses updates through SQL while the trigger stands', () => {
    const s = filled(3);
    expect(() => s.db.prepare("UPDATE audit SET kind = 'x' WHERE seq = 1").run()).toThrow(/append-only/);
  });

  it('retention keeps the chain verifiable behind a signed checkpoint', () => {
    const s = filled(50);
    expect(s.audit.retain({ maxEntries: 10, now: 100_000 })).toBe(40);
    s.transaction(() => s.audit.append({ at: 200_000, kind: 'test.entry', data: redactor.redactRecord({ after: true }) }));
    expect(s.audit.verify()).toMatchObject({ ok: true, entries: 11, checkpoints: 1 });
  });

  it('retention by age removes what is older than the limit', () => {
    const s = filled(10);
    expect(s.audit.retain({ maxAgeMs: 4500, now: 10_000 })).toBe(5);
    expect(s.audit.verify()).toMatchObject({ ok: true, entries: 5 });
  });

  it('detects a forged checkpoint', () => {
    const s = filled(30);
    s.audit.retain({ maxEntries: 5, now: 1 });
    s.db.prepare('UPDATE audit_checkpoints SET removed = 1').run();
    expect(s.audit.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/checkpoint/) });
  });

  it('rolls the head back with a failed transaction', () => {
    const s = filled(2);
    expect(() =>
      s.transaction(() => {
        s.audit.append({ at: 1, kind: 'x', data: redactor.redactRecord({}) });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    s.transaction(() => s.audit.append({ at: 2, kind: 'y', data: redactor.redactRecord({}) }));
    expect(s.audit.verify()).toMatchObject({ ok: true, entries: 3 });
  });
});
