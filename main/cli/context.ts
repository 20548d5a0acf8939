// What every CLI command needs: the path context, the config, the parsed options.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { defaultDirs, realDir } from '../config/dirs';

export { realDir };
import { loadConfigFile, type ThresholdConfig } from '../config/load';
import type { PathContext } from '../policy/paths';

export class UsageError extends Error {}

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}


export function pathContextFor(workspace: string, env: NodeJS.ProcessEnv, dataDir?: string): PathContext {
  const dirs = defaultDirs(env);
  const home = env['HOME'] || homedir();
  return { home: home.replace(/\/+$/, '') || '/', workspace, appDirs: [dirs.configDir, dataDir ?? dirs.dataDir] };
}

export async function loadCliConfig(configFile: string | undefined, env: NodeJS.ProcessEnv, paths: PathContext): Promise<ThresholdConfig> {
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
