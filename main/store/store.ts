// The store: one SQLite database in the data directory, and the repositories over it.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApprovalsRepo } from './approvals-repo';
import { AuditRepo } from './audit-repo';
import { CheckpointsRepo } from './checkpoints-repo';
import { CallsRepo } from './calls-repo';
import { openDatabase, type Db } from './db';
import { GrantsRepo } from './grants-repo';
import { OutcomesRepo } from './outcomes-repo';
import { SessionsRepo } from './sessions-repo';
import { SettingsRepo } from './settings-repo';
import { TranscriptRepo } from './transcript-repo';

export interface StoreOptions {
  /** The database file, or ':memory:'. */
  file: string;
  /** The key that signs audit retention checkpoints. */
  auditKey: Buffer;
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

  constructor(opts: StoreOptions) {
    this.db = openDatabase(opts.file);
    this.sessions = new SessionsRepo(this.db);
    this.calls = new CallsRepo(this.db);
    this.approvals = new ApprovalsRepo(this.db);
    this.grants = new GrantsRepo(this.db);
    this.outcomes = new OutcomesRepo(this.db);
    this.audit = new AuditRepo(this.db, opts.auditKey);
    this.settings = new SettingsRepo(this.db);
    this.checkpoints = new CheckpointsRepo(this.db);
    this.transcripts = new TranscriptRepo(this.db);
  }

  /** Runs fn in one transaction: all of its writes, audit entries included, land together or not at all. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  static inMemory(): Store {
    return new Store({ file: ':memory:', auditKey: randomBytes(32) });
  }

  /** Opens (creating if needed) the store of a data directory: threshold.db and its audit key. */
  static openDataDir(dataDir: string): Store {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return new Store({ file: join(dataDir, 'threshold.db'), auditKey: loadOrCreateKey(join(dataDir, 'audit.key')) });
  }
}

function loadOrCreateKey(file: string): Buffer {
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new Error(`The audit key ${file} is damaged (expected 64 hex characters).`);
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}
