// Which program runs the core, with which arguments (docs/install.md, "Which runtime runs the core"). The
// core holds the native modules (better-sqlite3, node-pty), so it must run on the runtime they were built
// for: in a development checkout, the Node that ran `npm ci` (bin/start.js passes its path); in a packaged
// app, Electron's own binary as Node (ELECTRON_RUN_AS_NODE), with the modules electron-builder rebuilt for
// it. Pure: the shell's command line, environment and files are passed in.
import { join } from 'node:path';
import { LAUNCHED_BY_ENV } from '../../common/desktop-channel';
import type { CoreRuntime } from '../../common/start-problems';

/** The environment variable bin/start.js sets to the Node that runs `npm start` (and ran `npm ci`). */
export const NODE_PATH_ENV = 'THRESHOLD_NODE';

export interface LaunchContext {
  packaged: boolean;
  /** The shell's own binary (Electron's process.execPath). */
  execPath: string;
  /** The app's folder: the checkout in development, resources/app.asar in a package (app.getAppPath()). */
  appPath: string;
  /** A real folder to run in (app.asar is not one): the home folder. */
  home: string;
  dataDir: string;
  /** `serve` options from the shell's command line (shellArgs). */
  serveArgs: readonly string[];
  env: NodeJS.ProcessEnv;
  /** The desktop's default workspace, unless the config or THRESHOLD_WORKSPACE names one. */
  defaultWorkspace: string;
  /** Reads a file of the app (out/cli.json in a package: which build of the command line it carries). */
  readFile: (path: string) => string;
}

export interface CoreLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  runtime: CoreRuntime;
}

export function coreLaunch(c: LaunchContext): CoreLaunch | { problem: string } {
  const serve = ['serve', '--data-dir', c.dataDir, ...c.serveArgs];
  const env: NodeJS.ProcessEnv = { ...c.env, [LAUNCHED_BY_ENV]: 'desktop', THRESHOLD_WORKSPACE: c.env['THRESHOLD_WORKSPACE'] || c.defaultWorkspace };
  // Electron's own switches mean nothing to the core.
  delete env['ELECTRON_RENDERER_URL'];
  if (!c.packaged) {
    delete env['ELECTRON_RUN_AS_NODE'];
    // Without bin/start.js (electron . by hand) the Node on PATH is the best guess; a mismatch is then reported by name.
    const node = c.env[NODE_PATH_ENV] || 'node';
    return { command: node, args: [join(c.appPath, 'bin', 'threshold.js'), ...serve], env, cwd: c.appPath, runtime: { kind: 'node', version: null } };
  }
  let entry: string;
  try {
    const manifest = JSON.parse(c.readFile(join(c.appPath, 'out', 'cli.json'))) as { entry?: unknown };
    if (typeof manifest.entry !== 'string') throw new Error('out/cli.json names no entry');
    entry = join(c.appPath, manifest.entry);
  } catch (err) {
    return { problem: `This copy of Threshold carries no core to start (${(err as Error).message}): reinstall it from a package built with npm run dist.` };
  }
  env['ELECTRON_RUN_AS_NODE'] = '1';
  return { command: c.execPath, args: [entry, ...serve], env, cwd: c.home, runtime: { kind: 'electron', version: null } };
}

const SERVE_FLAGS = new Set(['--demo', '--no-agent', '--no-web', '--unattended']);
const SERVE_OPTIONS = new Set(['--config', '--workspace', '--web-port']);

/**
 * The shell's command line (`npm start -- --demo --config F`): the data directory, and the options
 * passed on to the core's `serve`. Anything else (Chromium's own switches) is left to Electron.
 */
export function shellArgs(argv: readonly string[]): { dataDir: string | null; serveArgs: string[] } {
  let dataDir: string | null = null;
  const serveArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (SERVE_FLAGS.has(name) && inline === undefined) serveArgs.push(name);
    else if (name === '--data-dir' || SERVE_OPTIONS.has(name)) {
      const value = inline ?? argv[i + 1];
      if (inline === undefined) i++;
      if (value === undefined) continue;
      if (name === '--data-dir') dataDir = value;
      else serveArgs.push(name, value);
    }
  }
  return { dataDir, serveArgs };
}
