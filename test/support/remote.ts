// A real runtime (store in a data directory, the gate, the jail, the remote approvers) with chat bridges
// pointed at the loopback fakes, for the remote approvals' end-to-end tests and benchmark.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../main/config/load';
import { pathContextFor } from '../../main/config/runtime';
import { REMOTE_OFF, type RemoteConfig } from '../../main/config/remote-settings';
import { startRuntime, type Runtime } from '../../main/runtime/runtime';
import { ROOT } from './cli';

export interface RemoteBench {
  runtime: Runtime;
  /** Pass as `root` to start again on the same data directory. */
  root: string;
  workspace: string;
  dataDir: string;
  log: string[];
  /** Submits a command to the gate (with execute: it runs in the jail once approved); resolves once it is decided and run. */
  submit(command: string, opts?: { sessionId?: string; execute?: boolean; unattended?: boolean }): Promise<Record<string, unknown>>;
  /** The next pending approval whose command is `command`. */
  pendingFor(command: string): Promise<{ id: string; hash: string }>;
  close(): Promise<void>;
}

export async function remoteBench(remote: Partial<RemoteConfig>, opts: { ttlSeconds?: number; env?: NodeJS.ProcessEnv; root?: string } = {}): Promise<RemoteBench> {
  // Not under /tmp: the jail hides /tmp, and the workspace must be visible inside it.
  const base = join(ROOT, '.test-tmp');
  mkdirSync(base, { recursive: true });
  // The same root again: the same data directory (a restart).
  const again = opts.root !== undefined;
  const root = opts.root ?? mkdtempSync(join(base, 'remote-'));
  const home = join(root, 'home');
  const workspace = join(home, 'project');
  const dataDir = join(root, 'data');
  if (!again) {
    mkdirSync(workspace, { recursive: true });
    mkdirSync(dataDir, { mode: 0o700 });
  }
  const log: string[] = [];
  const runtime = await startRuntime({
    dataDir,
    config: { ...DEFAULT_CONFIG, approvalTtlSeconds: opts.ttlSeconds ?? 600, remote: { ...REMOTE_OFF, pollSeconds: 1, ...remote } },
    paths: pathContextFor(workspace, { HOME: home }, dataDir),
    version: '0.0.0-test',
    agent: null,
    control: false,
    web: null,
    env: opts.env ?? {},
    log: (line) => log.push(line),
  });
  const control = runtime.handlers('control');
  let turn = 0;
  return {
    runtime,
    root,
    workspace,
    dataDir,
    log,
    submit: async (command, o = {}) => {
      const r = await control['approval.request']({ tool: 'run_command', args: { command }, session_id: o.sessionId ?? 'remote-test', turn_id: `t${++turn}`, cwd: workspace, execute: o.execute ?? false, unattended: o.unattended });
      if (!r.ok) throw new Error(r.error.message);
      return r.value as Record<string, unknown>;
    },
    pendingFor: async (command) => {
      for (let i = 0; i < 500; i++) {
        const p = runtime.core.gate.listPending().find((a) => String((a.args as { command?: string }).command).includes(command));
        if (p) return { id: p.id, hash: p.hash };
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(`no card for ${command}`);
    },
    close: () => runtime.dispose(),
  };
}
