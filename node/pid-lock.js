// @ts-check
// Node-only helpers every Threshold process shares (the core, the desktop shell, the bin/ scripts, the
// executor): plain JavaScript, so a script can load them before anything is built. Here: whether a process
// lives, and a lock file holding its owner's pid, taken over once that owner is gone.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

/** How long an empty lock file counts as one being written this instant (open, then write the pid). */
const EMPTY_LOCK_GRACE_MS = 5000;

/**
 * Whether process `pid` exists. EPERM counts as alive: it exists, it is another user's.
 * @param {number} pid
 */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

/**
 * The live process holding the lock file, or null (no file, a dead owner, an empty file left by a crash).
 * `reclaimOwn`: a file naming this very process is not a holder either (a previous owner in this process
 * that never released it).
 * @param {string} file
 * @param {{ reclaimOwn?: boolean }} [o]
 * @returns {number | null}
 */
export function pidLockHolder(file, o = {}) {
  const held = readLock(file);
  return held && held.pid !== null && isHolder(held.pid, o) ? held.pid : null;
}

/**
 * Takes the lock file (created exclusively, mode 0600, holding this process's pid): the function that
 * releases it (only while the file still names this process), or the live pid that holds it (null when
 * it could not be told: a lock being written this instant).
 * @param {string} file
 * @param {{ reclaimOwn?: boolean }} [o]
 * @returns {{ release: () => void } | { heldBy: number | null }}
 */
export function acquirePidLock(file, o = {}) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => releasePidLock(file) };
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
      const held = readLock(file);
      if (!held) continue; // released meanwhile
      if (held.pid === null ? held.ageMs <= EMPTY_LOCK_GRACE_MS : isHolder(held.pid, o)) return { heldBy: held.pid };
      rmSync(file, { force: true });
    }
  }
  return { heldBy: null };
}

/** @param {string} file */
function releasePidLock(file) {
  try {
    if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
  } catch {
    // already gone
  }
}

/** @param {number} pid @param {{ reclaimOwn?: boolean }} o */
function isHolder(pid, o) {
  return !(o.reclaimOwn && pid === process.pid) && isAlive(pid);
}

/**
 * @param {string} file
 * @returns {{ pid: number | null, ageMs: number } | null}
 */
function readLock(file) {
  try {
    const text = readFileSync(file, 'utf8').trim();
    const pid = Number(text || NaN);
    return { pid: Number.isInteger(pid) && pid > 0 ? pid : null, ageMs: Date.now() - statSync(file).mtimeMs };
  } catch {
    return null;
  }
}
