// What every peer end-to-end test sets up: a real Threshold daemon (`threshold serve`), a fake of the
// peer's model API speaking its real wire format, a home folder of its own where `threshold hook install`
// wrote the hook (the installer is part of what is tested), and a project folder outside /tmp (the jail
// hides /tmp, and a project the jail must open lives elsewhere).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { PendingApproval } from '../../common/approvals';
import { FakeProvider } from '../fake-provider/server';
import { ROOT, spawnCli, type CliResult } from '../support/cli';
import { startDaemon, type Daemon } from '../support/daemon';

export interface World {
  root: string;
  home: string;
  project: string;
  dataDir: string;
  daemon: Daemon;
  fake: FakeProvider;
  /** `threshold <args>` as the person would run it, against this world's data directory. */
  threshold(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  close(): Promise<void>;
}

/** A folder tree for one test file, outside /tmp. */
function testRoot(prefix: string): string {
  const base = ROOT.startsWith('/tmp/') || ROOT.startsWith('/var/tmp/') ? join(homedir(), '.cache', 'threshold-tests') : join(ROOT, '.test-tmp');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${prefix}-`));
}

/** `toml`: the config file, or a function of the folders (a config that names the project). */
export async function world(prefix: string, toml: string | ((at: { home: string; project: string }) => string)): Promise<World> {
  const root = testRoot(prefix);
  const home = join(root, 'home');
  const project = join(home, 'project');
  const dataDir = join(home, '.local', 'share', 'threshold');
  for (const d of [project, dataDir, join(home, '.config', 'threshold'), join(home, '.ssh'), join(home, 'threshold-workspace')]) mkdirSync(d, { recursive: true });
  chmodSync(dataDir, 0o700);
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PEER-TEST-SECRET\n');
  writeFileSync(join(project, 'README.md'), '# project\n');
  const config = join(home, '.config', 'threshold', 'threshold.toml');
  writeFileSync(config, typeof toml === 'function' ? toml({ home, project }) : toml);
  // The daemon's home is the test's: its jail hides this home's dot-folders, its checkpoints live in its data dir.
  const env = { HOME: home, THRESHOLD_CONFIG_DIR: join(home, '.config', 'threshold') };
  const daemon = await startDaemon(dataDir, ['--config', config, '--workspace', join(home, 'threshold-workspace'), '--no-agent', '--no-web'], env);
  const fake = await FakeProvider.start();
  return {
    root,
    home,
    project,
    dataDir,
    daemon,
    fake,
    threshold: (args, extra = {}) => spawnCli(args, { env: { ...env, ...extra }, cwd: project }),
    async close() {
      await fake.close();
      if (daemon.child.exitCode === null) await daemon.kill('SIGTERM');
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Waits for the next card, as `ctl pending --json` shows it. */
export async function nextCard(w: World, timeoutMs = 60_000): Promise<PendingApproval> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await w.threshold(['ctl', '--data-dir', w.dataDir, '--json', 'pending']);
    const list = JSON.parse(r.stdout || '[]') as PendingApproval[];
    if (list.length) return list[0]!;
    if (Date.now() > end) throw new Error(`no card within ${timeoutMs} ms:\n${w.daemon.log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a peer binary to its end (or kills it at the timeout). */
export function runPeer(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment a peer runs with: nothing of this machine's own agent settings, the test's home. */
export function peerEnv(w: World, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: w.home, LANG: 'C.UTF-8', TERM: 'dumb', ...extra };
}

/** The tool results the peer sent back to its model, as text (every protocol the fake speaks). */
export function toolResults(fake: FakeProvider): string {
  return fake.requests.map((r) => JSON.stringify(r.body)).join('\n');
}
