// A real `threshold serve` process, for tests that kill and restart it. It is started with the command the
// desktop shell would use for it (main/app/core-launch.ts, as in a development checkout), so the web-mode
// suites run against the core the desktop app would start.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { coreLaunch, NODE_PATH_ENV } from '../../main/app/core-launch';
import { ControlClient } from '../../main/control/client';
import { ROOT } from './cli';

export interface Daemon {
  child: ChildProcess;
  log: () => string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function startDaemon(dataDir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Daemon> {
  const launch = coreLaunch({
    packaged: false,
    execPath: process.execPath,
    appPath: ROOT,
    home: ROOT,
    dataDir,
    serveArgs: args,
    env: { ...process.env, [NODE_PATH_ENV]: process.execPath },
    // Where serve ran before (its working folder) when a test names no workspace.
    defaultWorkspace: process.env['THRESHOLD_WORKSPACE'] ?? ROOT,
    readFile: () => '',
  });
  if ('problem' in launch) throw new Error(launch.problem);
  const child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: { ...launch.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const socket = join(dataDir, 'control.sock');
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`threshold serve exited early:\n${log}`);
    if (existsSync(socket)) {
      try {
        const c = await ControlClient.connect(socket);
        c.close();
        break;
      } catch {
        // not yet listening
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    log: () => log,
    async kill(signal) {
      child.kill(signal);
      await exited;
    },
  };
}

export interface WebUi {
  /** The printed address, with the token in the fragment. */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  token: string;
}

/** Waits for the daemon's `threshold: web UI: …` line and reads the address, port and token from it. */
export async function webUiOf(daemon: Daemon, timeoutMs = 60_000): Promise<WebUi> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const m = /threshold: web UI: (http:\/\/127\.0\.0\.1:(\d+))\/#token=([A-Za-z0-9_-]+)\n/.exec(daemon.log());
    if (m) return { url: `${m[1]}/#token=${m[3]}`, origin: m[1]!, port: Number(m[2]), token: m[3]! };
    if (daemon.child.exitCode !== null || /web UI unavailable/.test(daemon.log()) || Date.now() > end) throw new Error(`no web UI line from threshold serve:\n${daemon.log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
