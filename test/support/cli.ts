// Runs the threshold CLI: in-process against string streams (fast), or as a real child process.
import { spawn } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { join } from 'node:path';
import { main } from '../../main/cli/index';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], opts: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await main(argv, {
    stdin: Readable.from([opts.stdin ?? '']),
    stdout,
    stderr,
    env: { HOME: '/home/user', THRESHOLD_CONFIG_DIR: '/nonexistent/threshold-config', ...opts.env },
    cwd: opts.cwd ?? '/home/user/project',
  });
  return { code, stdout: out, stderr: err };
}

/** The real command line, as other tools call it. */
export function spawnCli(argv: string[], opts: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'threshold.js'), ...argv], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.stdin ?? '');
  });
}
