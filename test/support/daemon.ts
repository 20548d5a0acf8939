// A real `threshold serve` process, for tests that kill and restart it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ControlClient } from '../../main/control/client';
import { ROOT } from './cli';

export interface Daemon {
  child: ChildProcess;
  log: () => string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function startDaemon(dataDir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Daemon> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'threshold.js'), 'serve', '--data-dir', dataDir, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
