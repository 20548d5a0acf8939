// Where a running Threshold finds its config, data and paths; shared by the CLI, the daemon and the app.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { PathContext } from '../policy/paths';
import { defaultDirs } from './dirs';
import type { ThresholdConfig } from './load';

export function pathContextFor(workspace: string, env: NodeJS.ProcessEnv, dataDir?: string): PathContext {
  const dirs = defaultDirs(env);
  const home = env['HOME'] || homedir();
  const ctx: PathContext = { home: home.replace(/\/+$/, '') || '/', workspace, appDirs: [dirs.configDir, dataDir ?? dirs.dataDir] };
  // macOS's default filesystem finds /bin/rm for `RM`: the classifier must judge it as rm.
  if (process.platform === 'darwin') ctx.caseInsensitiveNames = true;
  return ctx;
}

/** --config FILE, else THRESHOLD_CONFIG, else the default file (which may be absent). */
export async function loadConfigFor(configFile: string | undefined, env: NodeJS.ProcessEnv, paths: PathContext): Promise<ThresholdConfig> {
  // Loaded here, not above: `threshold ctl` needs this file's paths, not the validator and the classifier.
  const { loadConfigFile } = await import('./load');
  if (configFile) return loadConfigFile(resolve(configFile), { required: true, paths });
  const fromEnv = env['THRESHOLD_CONFIG'];
  if (fromEnv) return loadConfigFile(resolve(fromEnv), { required: true, paths });
  return loadConfigFile(join(defaultDirs(env).configDir, 'threshold.toml'), { required: false, paths });
}

/** --data-dir, else THRESHOLD_HOME, else the default data folder. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const dir = flag ?? env['THRESHOLD_HOME'] ?? defaultDirs(env).dataDir;
  return isAbsolute(dir) ? dir : resolve(dir);
}
