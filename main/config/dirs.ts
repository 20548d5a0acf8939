// Where Threshold keeps its config and data (the desktop app too: it shares the data folder with serve), and the
// rule for what it keeps there: its own directories (mode 0700) and files (mode 0600), never someone
// else's. A data directory another user owns or can read is refused: its owner could set the level to
// `full`, read the history, or swap the database.
import { chmodSync, closeSync, existsSync, fstatSync, fchmodSync, mkdirSync, openSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export interface AppDirs {
  configDir: string;
  dataDir: string;
}

export function defaultDirs(env: NodeJS.ProcessEnv = process.env): AppDirs {
  const home = homedir();
  const configDir = env['THRESHOLD_CONFIG_DIR'] || join(env['XDG_CONFIG_HOME'] || join(home, '.config'), 'threshold');
  const dataDir = env['THRESHOLD_HOME'] || join(env['XDG_DATA_HOME'] || join(home, '.local', 'share'), 'threshold');
  return { configDir, dataDir };
}

/** --data-dir, else THRESHOLD_HOME, else the default data folder (the same for serve, ctl and the desktop app). */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const dir = flag ?? env['THRESHOLD_HOME'] ?? defaultDirs(env).dataDir;
  return isAbsolute(dir) ? dir : resolve(dir);
}

/** The real path of a directory (symlinks resolved), or its absolute path when it does not exist. */
export function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/** A directory or file Threshold will not use: whose it is or who can open it is wrong. */
export class UnsafePathError extends Error {
  readonly code = 'unsafe_data_dir';
  constructor(message: string) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

const myUid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/** Bits that let the group or others in: read, write or traverse. */
const OPEN_TO_OTHERS = 0o077;

/**
 * Creates `dir` (mode 0700) or checks the existing one: it must be a directory, owned by the running
 * user, and closed to everyone else. `what` names it in the error ("data directory").
 */
export function ensurePrivateDir(dir: string, what = 'data directory'): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UnsafePathError(`The ${what} ${dir} is not a directory; use another --data-dir.`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new UnsafePathError(`Cannot create the ${what} ${dir}: ${(err as Error).message}`);
  }
  const st = statSync(dir);
  const uid = myUid();
  if (uid !== null && st.uid !== uid) {
    throw new UnsafePathError(
      `The ${what} ${dir} belongs to another user (uid ${st.uid}; you are ${uid}): its owner could change what Threshold lets run (the level, grants) or rewrite its history. Use a directory of your own: --data-dir DIR.`,
    );
  }
  if ((st.mode & OPEN_TO_OTHERS) !== 0) {
    const mode = (st.mode & 0o777).toString(8).padStart(3, '0');
    const harm = (st.mode & 0o022) !== 0 ? 'is writable by other users' : 'is open to other users';
    throw new UnsafePathError(`The ${what} ${dir} ${harm} (mode ${mode}): they could read the history or change the database. Run: chmod 700 ${dir}`);
  }
}

/**
 * Makes sure `file` exists with mode 0600 and is the running user's, tightening a looser mode left by an
 * older version. Created files never pass through a wider mode.
 */
export function ensurePrivateFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'a', 0o600);
  } catch (err) {
    throw new UnsafePathError(`Cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    tighten(fd, file);
  } finally {
    closeSync(fd);
  }
}

/** Tightens `file` to 0600 when it exists (SQLite's -wal and -shm files take the database's mode). */
export function tightenIfExists(file: string): void {
  if (!existsSync(file)) return;
  const st = statSync(file);
  const uid = myUid();
  if (uid !== null && st.uid !== uid) throw new UnsafePathError(`${file} belongs to another user (uid ${st.uid}); move it away or use another --data-dir.`);
  if ((st.mode & OPEN_TO_OTHERS) !== 0) chmodSync(file, 0o600);
}

function tighten(fd: number, file: string): void {
  const st = fstatSync(fd);
  const uid = myUid();
  if (uid !== null && st.uid !== uid) throw new UnsafePathError(`${file} belongs to another user (uid ${st.uid}); move it away or use another --data-dir.`);
  if ((st.mode & OPEN_TO_OTHERS) !== 0) fchmodSync(fd, 0o600);
}

/** A data directory the core cannot use (unsafe, or another process's): its code and a sentence with the fix. */
export class CoreError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The data directory must be the running user's and closed to others (mode 0700): whoever can write it
 * could set the level or swap the database, whoever can read it reads the history, and the control
 * socket's safety depends on it. Refused by name with the fix.
 */
export function checkDataDir(dataDir: string): void {
  try {
    ensurePrivateDir(dataDir);
  } catch (err) {
    if (err instanceof UnsafePathError) throw new CoreError(err.code, err.message);
    throw err;
  }
}
