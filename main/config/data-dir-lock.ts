// One process per data directory: a pid file (mode 0600), taken over when its owner is gone. The core
// takes it; the desktop shell only reads it, to find the core it should attach to instead of starting one.
import { join } from 'node:path';
import { acquirePidLock, pidLockHolder } from '../../node/pid-lock.js';
import { CoreError } from './dirs';

export function dataDirLockFile(dataDir: string): string {
  return join(dataDir, 'threshold.lock');
}

/** The live process that holds the data directory's lock (never this one), or null. */
export function dataDirHolder(dataDir: string): number | null {
  return pidLockHolder(dataDirLockFile(dataDir), { reclaimOwn: true });
}

/** Takes the data directory for this process, or says which process has it: the function that releases it. */
export function lockDataDir(dataDir: string): () => void {
  // A lock naming this process is a previous core of it that was never disposed: taken over.
  const lock = acquirePidLock(dataDirLockFile(dataDir), { reclaimOwn: true });
  if ('release' in lock) return lock.release;
  if (lock.heldBy !== null) throw new CoreError('data_dir_in_use', `Another Threshold (pid ${lock.heldBy}) is using ${dataDir}. Stop it first, or use another --data-dir.`);
  throw new CoreError('data_dir_in_use', `Could not take the lock on ${dataDir}.`);
}
