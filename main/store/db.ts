// Opening the database: refuse a newer schema without touching its content, then WAL, foreign keys, a busy
// timeout, and the numbered migrations. The file is created 0600 before SQLite sees it; SQLite gives its
// -wal and -shm files the database's mode, and older, looser ones are tightened.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { ensurePrivateFile, tightenIfExists } from '../config/dirs';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';

export type Db = Database.Database;

export class StoreError extends Error {
  constructor(
    readonly code: 'newer_schema' | 'cannot_open' | 'migration_failed',
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export function openDatabase(file: string): Db {
  return openDatabaseFrom(file).db;
}

/** Opens like openDatabase, and says which schema version the file was at before this open migrated it. */
export function openDatabaseFrom(file: string): { db: Db; fromVersion: number } {
  const onDisk = file !== ':memory:';
  if (onDisk && existsSync(file)) {
    // Read the version without writing anything: a newer database must be left exactly as it is.
    let version: number;
    try {
      const probe = new Database(file, { readonly: true, fileMustExist: true });
      version = probe.pragma('user_version', { simple: true }) as number;
      probe.close();
    } catch (err) {
      throw new StoreError('cannot_open', `Cannot open the database ${file}: ${(err as Error).message}`);
    }
    if (version > SCHEMA_VERSION) {
      throw new StoreError(
        'newer_schema',
        `The database ${file} was written by a newer version of Threshold (schema ${version}; this version knows up to ${SCHEMA_VERSION}). It was left untouched; use the newer version, or move the file away to start fresh.`,
      );
    }
  }
  let db: Db;
  try {
    if (onDisk) {
      ensurePrivateFile(file);
      for (const side of SIDE_FILES) tightenIfExists(file + side);
    }
    db = new Database(file);
  } catch (err) {
    throw new StoreError('cannot_open', `Cannot open the database ${file}: ${(err as Error).message}`);
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (onDisk) for (const side of SIDE_FILES) tightenIfExists(file + side);
  const fromVersion = migrate(db);
  return { db, fromVersion };
}

const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;


/** Applies the migrations the file lacks; returns the version it was at (0 for a new one). */
function migrate(db: Db): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    try {
      db.transaction(() => {
        db.exec(m.sql);
        db.pragma(`user_version = ${m.version}`);
      })();
    } catch (err) {
      throw new StoreError('migration_failed', `Migration ${m.version} (${m.name}) failed: ${(err as Error).message}`);
    }
  }
  return current;
}
