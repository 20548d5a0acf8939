// One process per data directory: a pid file (mode 0600), taken over when its owner is gone. The core
// takes it; the desktop shell only reads it, to find the core it should attach to instead of starting one.
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CoreError } from './dirs';

export function dataDirLockFile(dataDir: string): string {
  return join(dataDir, 'threshold.lock');
}

/** The live process that holds the data directory's lock (never this one), or null. */
export function dataDirHolder(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(dataDirLockFile(dataDir), 'utf8').trim();
  } catch {
    return null;
  }
  const pid = Number(text || NaN);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
}

/** Takes the lock: the function that releases it, or the pid of the live process holding it. */
export function acquireDataDirLock(dataDir: string): { release: () => void } | { heldBy: number | null } {
  const file = dataDirLockFile(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release: () => {
          try {
            if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = existsSync(file) ? dataDirHolder(dataDir) : null;
      if (holder !== null) return { heldBy: holder };
      rmSync(file, { force: true });
    }
  }
  return { heldBy: null };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data directory for this process, or says which process has it: the function that releases it. */
export function lockDataDir(dataDir: string): () => void {
  const lock = acquireDataDirLock(dataDir);
  if ('release' in lock) return lock.release;
  if (lock.heldBy !== null) throw new CoreError('data_dir_in_use', `Another Threshold (pid ${lock.heldBy}) is using ${dataDir}. Stop it first, or use another --data-dir.`);
  throw new CoreError('data_dir_in_use', `Could not take the lock on ${dataDir}.`);
}
