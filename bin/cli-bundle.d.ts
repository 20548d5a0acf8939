// Types of bin/cli-bundle.js for the TypeScript that imports it (tests, the bench).
export interface CliManifest {
  id: string;
  /** The entry module, relative to the repository. */
  entry: string;
  /** When the build began (ms since the epoch): an input newer than this makes the bundle stale. */
  startedAt: number;
  /** The repository's files the bundle was built from. */
  inputs: string[];
}
export interface EnsureOptions {
  root?: string;
  log?: (line: string) => void;
  timeoutMs?: number;
  force?: boolean;
}
export const REPO_ROOT: string;
export const EXTERNAL: string[];
export function readManifest(root?: string): CliManifest | null;
export function cliStaleness(root?: string): string | null;
export function ensureCliBundle(o?: EnsureOptions): Promise<string>;
export function buildCli(root?: string): Promise<CliManifest>;
