// Where a running Threshold finds its config, data and paths; shared by the CLI, the daemon and the app.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PathContext } from '../policy/paths';
import { defaultDirs } from './dirs';
export { resolveDataDir } from './dirs';
import type { ThresholdConfig } from './load';
import type { ManagedPolicy } from './managed';

export function pathContextFor(workspace: string, env: NodeJS.ProcessEnv, dataDir?: string): PathContext {
  const dirs = defaultDirs(env);
  const home = env['HOME'] || homedir();
  const ctx: PathContext = { home: home.replace(/\/+$/, '') || '/', workspace, appDirs: [dirs.configDir, dataDir ?? dirs.dataDir] };
  // macOS's default filesystem finds /bin/rm for `RM`: the classifier must judge it as rm.
  if (process.platform === 'darwin') ctx.caseInsensitiveNames = true;
  return ctx;
}

/**
 * --config FILE, else THRESHOLD_CONFIG, else the default file (which may be absent); with the managed
 * policy attached. A file that would loosen the managed policy is an error naming both files.
 */
export async function loadConfigFor(configFile: string | undefined, env: NodeJS.ProcessEnv, paths: PathContext, opts: { managedSystemPath?: string } = {}): Promise<ThresholdConfig> {
  // Loaded here, not above: `threshold ctl` needs this file's paths, not the validator and the classifier.
  const [{ loadManagedPolicy }, layers, { ConfigError }] = await Promise.all([import('./managed'), import('./layers'), import('./load')]);
  const managed = loadManagedPolicy(env, opts.managedSystemPath);
  const config = await loadUserConfig(configFile, env, paths);
  const problem = layers.looseningProblems(layers.fileLayerOfConfig(config), managed)[0];
  if (problem) throw new ConfigError(config.file ?? '(defaults)', problem[0], problem[1]);
  return withManaged(config, managed);
}

async function loadUserConfig(configFile: string | undefined, env: NodeJS.ProcessEnv, paths: PathContext): Promise<ThresholdConfig> {
  const { loadConfigFile } = await import('./load');
  if (configFile) return loadConfigFile(resolve(configFile), { required: true, paths });
  const fromEnv = env['THRESHOLD_CONFIG'];
  if (fromEnv) return loadConfigFile(resolve(fromEnv), { required: true, paths });
  return loadConfigFile(join(defaultDirs(env).configDir, 'threshold.toml'), { required: false, paths });
}

/** Attaches the managed policy (loadConfigFor has refused a user config that would loosen it). */
function withManaged(config: ThresholdConfig, managed: ManagedPolicy | null): ThresholdConfig {
  return { ...config, managed };
}

