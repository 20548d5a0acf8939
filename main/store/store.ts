// The store: one SQLite database in the data directory, and the repositories over it. The audit key and
// the chain's head anchor live in keys/ beside the database (see docs/approvals.md#audit-history), so a
// copy of the database alone can neither forge history nor hide a rollback.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, tightenIfExists } from '../config/dirs';
import { ApprovalsRepo } from './approvals-repo';
import { HeadAnchor } from './audit-anchor';
import { AuditRepo, type VerifyResult } from './audit-repo';
import { CheckpointsRepo } from './checkpoints-repo';
import { CallHistoryRepo } from './call-history-repo';
import { CallsRepo } from './calls-repo';
import { openDatabaseFrom, type Db } from './db';
import { GrantsRepo } from './grants-repo';
import { HostGrantsRepo } from './host-grants-repo';
import { verifyHistory } from './history-verify';
import { OutcomesRepo } from './outcomes-repo';
import { RemoteRepo } from './remote-repo';
import { RepeatsRepo } from './repeats-repo';
import { SessionsRepo } from './sessions-repo';
import { SettingsRepo } from './settings-repo';
import { TranscriptRepo } from './transcript-repo';

export interface StoreOptions {
  /** The database file, or ':memory:'. */
  file: string;
  /** The key that chains the audit history and signs its checkpoints and anchor. */
  auditKey: Buffer;
  /** The file that anchors the chain's head outside the database (none: no anchor check). */
  anchorFile?: string;
  now?: () => number;
}

export class Store {
  readonly db: Db;
  readonly sessions: SessionsRepo;
  readonly calls: CallsRepo;
  readonly approvals: ApprovalsRepo;
  readonly grants: GrantsRepo;
  readonly outcomes: OutcomesRepo;
  readonly audit: AuditRepo;
  readonly settings: SettingsRepo;
  readonly checkpoints: CheckpointsRepo;
  readonly transcripts: TranscriptRepo;
  readonly hostGrants: HostGrantsRepo;
  /** Every call as history shows it (read only). */
  readonly history: CallHistoryRepo;
  readonly repeats: RepeatsRepo;
  /** Remote approvers' tokens, chat messages and paired phones (main/remote). */
  readonly remote: RemoteRepo;

  constructor(opts: StoreOptions) {
    const { db, fromVersion } = openDatabaseFrom(opts.file);
    this.db = db;
    this.sessions = new SessionsRepo(this.db);
    this.calls = new CallsRepo(this.db);
    this.approvals = new ApprovalsRepo(this.db);
    this.grants = new GrantsRepo(this.db);
    this.outcomes = new OutcomesRepo(this.db);
    this.audit = new AuditRepo(this.db, opts.auditKey, opts.anchorFile ? new HeadAnchor(opts.anchorFile, opts.auditKey) : null);
    this.settings = new SettingsRepo(this.db);
    this.checkpoints = new CheckpointsRepo(this.db);
    this.transcripts = new TranscriptRepo(this.db);
    this.hostGrants = new HostGrantsRepo(this.db);
    this.history = new CallHistoryRepo(this.db);
    this.repeats = new RepeatsRepo(this.db);
    this.remote = new RemoteRepo(this.db);
    this.audit.ensureKeyed(fromVersion, (opts.now ?? Date.now)());
  }

  /**
   * Runs fn in one transaction: all of its writes, audit entries included, land together or not at all.
   * The audit head anchor moves once the outermost transaction has committed.
   */
  transaction<T>(fn: () => T): T {
    const outermost = !this.db.inTransaction;
    const result = this.db.transaction(fn)();
    if (outermost) this.audit.syncAnchor();
    return result;
  }

  /** The chain (keyed, anchored), then what history shows checked against it. */
  verify(): VerifyResult {
    const chain = this.audit.verify();
    if (!chain.ok) return chain;
    const history = verifyHistory(this.db);
    if (!history.ok) return { ok: false, entries: chain.entries, broken_at: history.broken_at, reason: history.reason, layer: 'history' };
    const { ok: _ok, ...counts } = history;
    return { ...chain, history: counts };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  static inMemory(): Store {
    return new Store({ file: ':memory:', auditKey: randomBytes(32) });
  }

  /**
   * Opens (creating if needed) the store of a data directory: threshold.db, and in keys/ (mode 0700) the
   * audit key and the chain's head anchor (mode 0600).
   */
  static openDataDir(dataDir: string): Store {
    ensurePrivateDir(dataDir);
    const keys = join(dataDir, 'keys');
    ensurePrivateDir(keys, 'key directory');
    const keyFile = join(keys, 'audit.key');
    // Before keys/ existed the key sat beside the database, where a copy of the directory took it along.
    const legacyKey = join(dataDir, 'audit.key');
    if (!existsSync(keyFile) && existsSync(legacyKey)) renameSync(legacyKey, keyFile);
    const auditKey = loadOrCreateKey(keyFile);
    return new Store({ file: join(dataDir, 'threshold.db'), auditKey, anchorFile: join(keys, 'audit.head') });
  }
}

function loadOrCreateKey(file: string): Buffer {
  if (existsSync(file)) {
    tightenIfExists(file);
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new Error(`The audit key ${file} is damaged (expected 64 hex characters).`);
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  return key;
}
