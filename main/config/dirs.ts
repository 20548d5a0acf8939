// Where Threshold keeps its config and data outside Electron (the app passes userData instead).
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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

/** The real path of a directory (symlinks resolved), or its absolute path when it does not exist. */
export function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}
