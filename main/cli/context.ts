// What every CLI command shares: its I/O and the usage error.
export { realDir } from '../config/dirs';
export { loadConfigFor as loadCliConfig, pathContextFor, resolveDataDir } from '../config/runtime';

export { UsageError } from './usage-error';

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}
