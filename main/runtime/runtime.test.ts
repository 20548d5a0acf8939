// The runtime root: one startRuntime builds core, agent, control and web servers; one dispose stops
// them all, kills the commands it started, and leaves the data directory free for the next start.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../test/support/cli';
import { DEFAULT_CONFIG } from '../config/load';
import { pathContextFor } from '../config/runtime';
import { ControlClient } from '../control/client';
import { commandName, descendants } from '../../executor/processes';
import { startRuntime, type Runtime } from './runtime';

// Not under /tmp: the jail hides /tmp, and the workspace must be visible inside it.
const base = join(ROOT, '.test-tmp');
mkdirSync(base, { recursive: true });
const root = mkdtempSync(join(base, 'runtime-'));
const home = join(root, 'home');
const workspace = join(home, 'project');
const dataDir = join(root, 'data');
const bundle = join(root, 'renderer');
for (const d of [workspace, bundle]) mkdirSync(d, { recursive: true });
mkdirSync(dataDir, { mode: 0o700 });
writeFileSync(join(bundle, 'index.html'), '<!doctype html>');

const started: Runtime[] = [];
afterAll(async () => {
  for (const r of started) await r.dispose();
});

function start(): Promise<Runtime> {
  return startRuntime({
    dataDir,
    config: { ...DEFAULT_CONFIG, level: 'full' },
    paths: pathContextFor(workspace, { HOME: home }, dataDir),
    version: '0.0.0-test',
    agent: { demo: true, env: {} },
    control: true,
    web: { port: 0, rendererDir: bundle, approvers: true },
    log: () => undefined,
  }).then((r) => (started.push(r), r));
}

const sleeps = () => descendants(process.pid).filter((pid) => commandName(pid) === 'sleep');

describe('the runtime root', () => {
  it('builds the core, agent, control socket and web server, and counts control as an approver', async () => {
    const r = await start();
    expect({
      model: r.agent?.modelLabel,
      socket: existsSync(r.control!.path),
      web: (await fetch(`${r.web!.origin}/`)).status,
      approvers: r.core.approvers.kinds(),
    }).toEqual({ model: 'Demo: scripted model', socket: true, web: 200, approvers: ['control'] });
    await r.dispose();
  });

  it('disposes everything: the command it runs is killed, the servers are closed, the data directory is free', async () => {
    const r = await start();
    const client = await ControlClient.connect(r.control!.path);
    const request = client.call('approval.request', { tool: 'run_command', args: { command: 'sleep 30' }, execute: true }).catch((e: Error) => e);
    for (let i = 0; i < 400 && sleeps().length === 0; i++) await new Promise((res) => setTimeout(res, 25));
    expect(sleeps().length).toBeGreaterThan(0);
    const origin = r.web!.origin;
    const socket = r.control!.path;
    await r.dispose();
    await request;
    client.close();
    expect({ sleeps: sleeps(), socket: existsSync(socket), web: await fetch(`${origin}/`).then(() => 'open', () => 'closed') }).toEqual({ sleeps: [], socket: false, web: 'closed' });
    // The lock is released: the next start on the same data directory works.
    const again = await start();
    // The command was stopped, not waited for: its recorded outcome says so.
    const executed = await again.handlers('control')['audit.list']({ kind: 'call.executed', limit: 5 });
    expect(executed.ok && executed.value.map((e) => (e.data as { status: string }).status)).toEqual(['interrupted']);
    await again.dispose();
  }, 60_000);

  it('disposes once, however often it is asked', async () => {
    const r = await start();
    await Promise.all([r.dispose(), r.dispose()]);
    await r.dispose();
  });
});
