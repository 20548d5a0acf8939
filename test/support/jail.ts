// A fake home and workspace for jail tests: credentials to steal, a control socket to reach, a data
// directory to edit. Nothing here touches the real home.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface JailFixture {
  root: string;
  home: string;
  workspace: string;
  outside: string;
  dataDir: string;
  configDir: string;
  socketPath: string;
  secret: string;
  server: Server;
  /** Writes a file at this path under the fake home (its folders made as needed); returns the full path. */
  put(rel: string, text: string): string;
  /** Whether the host socket server saw a connection. */
  connections: () => number;
  close(): Promise<void>;
}

export async function jailFixture(): Promise<JailFixture> {
  // Not under /tmp: inside the jail /tmp is private, and "outside the workspace" must be visible (read-only)
  // for the tests to mean something. The checkout itself may live under /tmp (CI), so use the home folder then.
  const repo = join(import.meta.dirname, '..', '..');
  const base = repo.startsWith('/tmp/') || repo.startsWith('/var/tmp/') ? join(homedir(), '.cache', 'threshold-tests') : join(repo, '.test-tmp');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, 'jail-'));
  const home = join(root, 'home');
  const workspace = join(home, 'project');
  const outside = join(home, 'outside');
  const dataDir = join(home, '.local', 'share', 'threshold');
  const configDir = join(home, '.config', 'threshold');
  const secret = 'THRESHOLD-TEST-SECRET-' + Math.random().toString(36).slice(2);
  for (const d of [workspace, outside, dataDir, configDir, join(home, '.ssh'), join(home, '.aws'), join(workspace, '.git', 'hooks')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), secret);
  writeFileSync(join(home, '.aws', 'credentials'), secret);
  writeFileSync(join(configDir, 'threshold.toml'), '[autonomy]\nlevel = "supervised"\n');
  writeFileSync(join(dataDir, 'threshold.db'), secret);
  writeFileSync(join(workspace, '.env'), `API_KEY=${secret}`);
  writeFileSync(join(workspace, '.git', 'config'), '[core]\n');
  writeFileSync(join(workspace, 'README.md'), '# project\n');
  writeFileSync(join(outside, 'keep.txt'), 'outside\n');
  symlinkSync(outside, join(workspace, 'link-out'));
  const socketPath = join(dataDir, 'control.sock');
  let connections = 0;
  const server = createServer((s) => {
    connections++;
    s.end('hello from the host\n');
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
  return {
    root,
    home,
    workspace,
    outside,
    dataDir,
    configDir,
    socketPath,
    put: (rel: string, text: string) => {
      const p = join(home, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, text);
      return p;
    },
    secret,
    server,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) =>
        server.close(() => {
          rmSync(root, { recursive: true, force: true });
          r();
        }),
      ),
  };
}
