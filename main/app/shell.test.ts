// The desktop shell with a stand-in for Electron (test/support/fake-electron.ts) and real cores: each
// core is launched through a stand-in binary (a shell script that records its argv and environment, then
// execs the real Node on them), so what is checked is the command the shell would give Electron's or
// Node's binary, and the core that answers is the real `threshold serve`.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ensureCliBundle } from '../../bin/cli-bundle.js';
import { CORE_STATUS_SIGNAL, EVENT_CHANNEL, isCoreStatusSignal } from '../../common/contract';
import { ATTACH_METHOD, CONFIRM_KEY_USE_NOTIFICATION, KEY_USE_ANSWER_METHOD, KEY_USE_TIMEOUT_ENV, type ConfirmKeyUseParams } from '../../common/desktop-channel';
import type { Result } from '../../common/operations';
import { isAlive } from '../../node/pid-lock.js';
import { ControlClient } from '../control/client';
import { socketPath } from '../control/socket-path';
import { FakeProvider } from '../../test/fake-provider/server';
import { startDaemon, type Daemon } from '../../test/support/daemon';
import { fakeElectron, type FakeElectron } from '../../test/support/fake-electron';
import { ROOT } from '../../test/support/cli';
import { rawClient } from '../../test/support/raw-control-client';
import { webTokenPath } from '../web/token';
import { coreLaunch } from './core-launch';
import { attachToCore, type CoreLink } from './core-link';
import { CoreSupervisor } from './core-supervisor';
import { startShell, type Shell } from './shell';
import { isAppUrl } from './window';
import { processesWith } from '../../test/support/processes';

const BASE = join(ROOT, '.test-tmp');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'desktop');

interface Fixture {
  root: string;
  home: string;
  workspace: string;
  dataDir: string;
  config: string;
  records: string;
}

const roots: string[] = [];

function fixture(config = ''): Fixture {
  mkdirSync(BASE, { recursive: true });
  const root = mkdtempSync(join(BASE, 'shell-'));
  roots.push(root);
  const home = join(root, 'home');
  const workspace = join(home, 'project');
  const records = join(root, 'launches');
  for (const d of [workspace, records]) mkdirSync(d, { recursive: true });
  const f = { root, home, workspace, dataDir: join(root, 'data'), config: join(root, 'threshold.toml'), records };
  writeFileSync(f.config, config);
  return f;
}

/** A stand-in binary: records argv and environment under `records`, then execs the real Node on the same argv. */
function standIn(f: Fixture, name: string): string {
  const file = join(f.root, name);
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' "$@" > ${q(f.records)}/"$$".argv\nenv > ${q(f.records)}/"$$".env\nexec ${q(process.execPath)} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

interface Launch {
  pid: number;
  argv: string[];
  env: Record<string, string>;
}

function launches(f: Fixture): Launch[] {
  return readdirSync(f.records)
    .filter((n) => n.endsWith('.argv'))
    .map((n) => {
      const pid = Number(n.replace('.argv', ''));
      const env = Object.fromEntries(
        readFileSync(join(f.records, `${pid}.env`), 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      return { pid, argv: readFileSync(join(f.records, n), 'utf8').replace(/\n$/, '').split('\n'), env };
    })
    .sort((a, b) => a.pid - b.pid);
}

async function until<T>(what: string, probe: () => T | null | undefined | false | Promise<T | null | undefined | false>, ms = 45_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Rig {
  f: Fixture;
  electron: FakeElectron;
  supervisor: CoreSupervisor;
  shell: Shell;
  /** The shell's own terminal lines. */
  said: string[];
  /** The core's output, as passed through to the terminal. */
  output: () => string;
  /** Calls the link made, by operation (the core's side of the relay). */
  reached: string[];
  ready(): Promise<void>;
  quit(): Promise<string>;
}

const rigs: Rig[] = [];
/** The reads of one refresh of the shell's work (main/app/work.ts), sent together. */
const WORK_READS = ['approval.list_pending', 'question.list', 'sandbox.list_offers', 'agent.get_info', 'call.list'];
const strays: ChildProcess[] = [];
const daemons: Daemon[] = [];

function startRig(f: Fixture, o: { packaged?: boolean; node?: string; serveArgs?: string[]; env?: NodeJS.ProcessEnv; readyTimeoutMs?: number } = {}): Rig {
  const electron = fakeElectron();
  const said: string[] = [];
  const output: string[] = [];
  const reached: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: f.home, THRESHOLD_CONFIG_DIR: join(f.home, '.config', 'threshold'), THRESHOLD_WORKSPACE: f.workspace, THRESHOLD_NODE: o.node ?? standIn(f, 'node'), ...o.env };
  delete env['THRESHOLD_HOME'];
  const execPath = o.packaged ? standIn(f, 'electron') : '/nonexistent/electron';
  const supervisor = new CoreSupervisor({
    dataDir: f.dataDir,
    launch: () =>
      coreLaunch({
        packaged: !!o.packaged,
        execPath,
        appPath: ROOT,
        home: f.home,
        dataDir: f.dataDir,
        serveArgs: o.serveArgs ?? ['--no-agent', '--config', f.config],
        env,
        defaultWorkspace: join(f.home, 'Documents', 'Threshold'),
        readFile: (p) => readFileSync(p, 'utf8'),
      }),
    say: (line) => void said.push(line),
    output: (chunk) => void output.push(chunk),
    // Counts what reaches the core, to prove a refused payload never left the shell.
    attach: async (dir) => {
      const link = await attachToCore(dir);
      return { ...link, info: link.info, invoke: (op, params) => (reached.push(op), link.invoke(op, params)) } satisfies CoreLink;
    },
    readyTimeoutMs: o.readyTimeoutMs ?? 60_000,
    stopTimeoutMs: 15_000,
    restart: { max: 3, windowMs: 60_000, delayMs: 100 },
  });
  const shell = startShell({ electron, supervisor, dataDir: f.dataDir, platform: 'linux', trustedFrame: (url) => isAppUrl(url), say: (line) => void said.push(line), workPollMs: 300 });
  const rig: Rig = {
    f,
    electron,
    supervisor,
    shell,
    said,
    output: () => output.join(''),
    reached,
    ready: async () => void (await until('the core to answer or fail', () => ['open', 'stopped'].includes(supervisor.status.state))),
    quit: async () => {
      electron.app.quit();
      return shell.quitting;
    },
  };
  rigs.push(rig);
  return rig;
}

/** What the window's page would get from one IPC call. */
const ipc = (r: Rig, channel: string, payload?: unknown, url?: string) => r.electron.ipc.invoke(channel, payload, url) as Promise<Result<unknown>>;

/** The status signals the window received, in order. */
const statuses = (r: Rig) => r.electron.window().sent.filter((s) => s.channel === EVENT_CHANNEL && isCoreStatusSignal(s.payload)).map((s) => (s.payload as { payload: { state: string; message: string | null } }).payload);

async function control(f: Fixture): Promise<ControlClient> {
  return ControlClient.connect(socketPath(f.dataDir));
}

/** Parks a write-class command as an approval card (over the control socket, as a script would). */
async function parkCard(f: Fixture, command = 'touch made-by-test'): Promise<{ approval_id: string; hash: string }> {
  const c = await control(f);
  try {
    return await c.call<{ approval_id: string; hash: string }>('approval.request', { tool: 'run_command', args: { command }, wait: false });
  } finally {
    c.close();
  }
}

beforeAll(async () => {
  // The core runs from the command line's bundle: build it once here, not inside a test's time.
  await ensureCliBundle();
}, 240_000);

afterEach(async () => {
  for (const r of rigs.splice(0)) {
    if (!r.electron.app.quitted) await r.quit().catch(() => undefined);
    for (const l of launches(r.f)) if (isAlive(l.pid)) process.kill(l.pid, 'SIGKILL');
  }
  for (const d of daemons.splice(0)) await d.kill('SIGTERM');
  for (const c of strays.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
}, 60_000);

// Only this file's folders: other test files keep theirs in the same place at the same time.
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('launching the core', () => {
  it('in a development checkout runs bin/threshold.js serve on the Node that ran npm ci, for the shared data directory', async () => {
    const f = fixture();
    const r = startRig(f);
    await r.ready();
    const [l] = launches(f);
    expect({ state: r.supervisor.status, launches: launches(f).length, argv: l?.argv, launchedBy: l?.env['THRESHOLD_LAUNCHED_BY'], runAsNode: l?.env['ELECTRON_RUN_AS_NODE'] ?? null, owned: r.supervisor.core }).toEqual({
      state: { state: 'open', message: null },
      launches: 1,
      argv: [join(ROOT, 'bin', 'threshold.js'), 'serve', '--data-dir', f.dataDir, '--no-agent', '--config', f.config],
      launchedBy: 'desktop',
      runAsNode: null,
      owned: { pid: l!.pid, owned: true },
    });
    // The window's calls reach that core, as the desktop surface.
    expect(await ipc(r, 'app.get_info')).toEqual({ ok: true, value: { name: 'Threshold', version: expect.any(String), runtime: 'electron' } });
    expect(await ipc(r, 'settings.get').then((s) => (s.ok ? (s.value as { approvers: string[] }).approvers.includes('desktop') : s))).toBe(true);
  });

  it('in a packaged app runs the bundled command line on Electron’s own binary as Node (ELECTRON_RUN_AS_NODE)', async () => {
    const f = fixture();
    const r = startRig(f, { packaged: true });
    await r.ready();
    const [l] = launches(f);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'out', 'cli.json'), 'utf8')) as { entry: string };
    expect({ state: r.supervisor.status.state, argv0: l?.argv[0], rest: l?.argv.slice(1), runAsNode: l?.env['ELECTRON_RUN_AS_NODE'], cwd: readlinkSync(`/proc/${l!.pid}/cwd`) }).toEqual({
      state: 'open',
      argv0: join(ROOT, manifest.entry),
      rest: ['serve', '--data-dir', f.dataDir, '--no-agent', '--config', f.config],
      runAsNode: '1',
      cwd: f.home,
    });
    expect(await ipc(r, 'approval.list_pending')).toEqual({ ok: true, value: [] });
  });

  it.each([
    ['development, started by npm start', { packaged: false, env: { THRESHOLD_NODE: '/opt/node/bin/node' } }, { command: '/opt/node/bin/node', args: ['/app/bin/threshold.js', 'serve', '--data-dir', '/d', '--demo'], runAsNode: undefined, cwd: '/app' }],
    ['development, Electron started by hand (the Node on PATH)', { packaged: false, env: {} }, { command: 'node', args: ['/app/bin/threshold.js', 'serve', '--data-dir', '/d', '--demo'], runAsNode: undefined, cwd: '/app' }],
    ['development, a stray ELECTRON_RUN_AS_NODE is dropped', { packaged: false, env: { THRESHOLD_NODE: '/n', ELECTRON_RUN_AS_NODE: '1' } }, { command: '/n', args: ['/app/bin/threshold.js', 'serve', '--data-dir', '/d', '--demo'], runAsNode: undefined, cwd: '/app' }],
    ['packaged', { packaged: true, env: { THRESHOLD_NODE: '/n' } }, { command: '/opt/Threshold/threshold', args: ['/app/out/cli-x/threshold.mjs', 'serve', '--data-dir', '/d', '--demo'], runAsNode: '1', cwd: '/home/u' }],
  ] as const)('the launch command (%s)', (_name, c, expected) => {
    const launch = coreLaunch({ packaged: c.packaged, execPath: '/opt/Threshold/threshold', appPath: '/app', home: '/home/u', dataDir: '/d', serveArgs: ['--demo'], env: c.env, defaultWorkspace: '/home/u/Documents/Threshold', readFile: () => '{"entry":"out/cli-x/threshold.mjs"}' });
    if ('problem' in launch) throw new Error(launch.problem);
    expect({ command: launch.command, args: launch.args, runAsNode: launch.env['ELECTRON_RUN_AS_NODE'], cwd: launch.cwd, launchedBy: launch.env['THRESHOLD_LAUNCHED_BY'], workspace: launch.env['THRESHOLD_WORKSPACE'] }).toEqual({ ...expected, launchedBy: 'desktop', workspace: '/home/u/Documents/Threshold' });
  });

  it('a package without the core says so in one sentence', () => {
    const launch = coreLaunch({ packaged: true, execPath: '/x', appPath: '/app', home: '/h', dataDir: '/d', serveArgs: [], env: {}, defaultWorkspace: '/w', readFile: () => { throw new Error('ENOENT: /app/out/cli.json'); } });
    expect(launch).toEqual({ problem: 'This copy of Threshold carries no core to start (ENOENT: /app/out/cli.json): reinstall it from a package built with npm run dist.' });
  });
});

describe('attaching', () => {
  it('a start finds the core `threshold serve` already runs for the data directory, attaches, and Quit leaves it running', async () => {
    const f = fixture();
    const daemon = await startDaemon(f.dataDir, ['--no-agent', '--config', f.config, '--workspace', f.workspace], { HOME: f.home, THRESHOLD_LAUNCHED_BY: '' });
    daemons.push(daemon);
    const r = startRig(f);
    await r.ready();
    const card = await parkCard(f);
    await until('the card on the tray', () => r.electron.tray().tooltip === 'Threshold — 1 waiting');
    const decided = await ipc(r, 'approval.decide', { id: card.approval_id, hash: card.hash, outcome: 'skip' });
    const summary = await r.quit();
    expect({
      launches: launches(f).length,
      core: r.supervisor.core,
      decidedBy: decided.ok ? (decided.value as { decided_by: string }).decided_by : decided,
      summary,
      daemonAlive: daemon.child.exitCode === null && isAlive(daemon.child.pid!),
      quitLabel: r.electron.tray().labels().at(-1),
    }).toEqual({
      launches: 0,
      core: { pid: daemon.child.pid, owned: false },
      decidedBy: 'desktop',
      summary: `Threshold quit; the core serving ${f.dataDir} (pid ${daemon.child.pid}) was started outside the desktop app and keeps running.`,
      daemonAlive: true,
      quitLabel: 'Quit Threshold',
    });
  });

  it('a core another desktop start left running (the shell went away) is adopted: Quit stops it', async () => {
    const f = fixture();
    const node = standIn(f, 'node');
    const orphan = spawn(node, [join(ROOT, 'bin', 'threshold.js'), 'serve', '--data-dir', f.dataDir, '--no-agent', '--config', f.config], { env: { ...process.env, HOME: f.home, THRESHOLD_LAUNCHED_BY: 'desktop', THRESHOLD_WORKSPACE: f.workspace }, stdio: 'ignore', detached: true });
    strays.push(orphan);
    await until('the orphaned core', () => existsSync(socketPath(f.dataDir)) && existsSync(webTokenPath(f.dataDir)));
    const r = startRig(f, { node });
    await r.ready();
    const exited = new Promise((resolve) => orphan.once('exit', resolve));
    const summary = await r.quit();
    await exited;
    expect({ launchesByTheShell: r.supervisor.launches, owned: r.supervisor.core?.owned, summary, alive: isAlive(orphan.pid!) }).toEqual({ launchesByTheShell: 0, owned: true, summary: 'Threshold quit: nothing was running.', alive: false });
  });

  it('a live process that holds the data directory but never answers: one sentence naming it and the fix', async () => {
    const f = fixture();
    mkdirSync(f.dataDir, { mode: 0o700 });
    const squatter = spawn('sleep', ['120'], { stdio: 'ignore' });
    strays.push(squatter);
    writeFileSync(join(f.dataDir, 'threshold.lock'), String(squatter.pid), { mode: 0o600 });
    const r = startRig(f, { readyTimeoutMs: 1500 });
    await r.ready();
    const sentence = `Another Threshold (pid ${squatter.pid}) holds ${f.dataDir} but does not answer on its control socket: stop it (kill ${squatter.pid}), then start Threshold again.`;
    expect({ status: r.supervisor.status, said: r.said, launches: launches(f).length, call: await ipc(r, 'approval.list_pending'), window: statuses(r).at(-1) }).toEqual({
      status: { state: 'stopped', message: sentence },
      said: [sentence],
      launches: 0,
      call: { ok: false, error: { code: 'core_unavailable', message: sentence } },
      window: { state: 'stopped', message: sentence },
    });
  });
});

describe('closing the window', () => {
  it('with a card waiting leaves the core running, counts it on the tray and the badge, and says so; once nothing waits the app goes', async () => {
    const f = fixture();
    const r = startRig(f);
    await r.ready();
    const first = await parkCard(f, 'touch first');
    await until('the first card counted', () => r.electron.tray().tooltip === 'Threshold — 1 waiting');
    r.electron.window().close();
    const pid = r.supervisor.core!.pid;
    const afterClose = { quitted: r.electron.app.quitted, coreAlive: isAlive(pid), tooltip: r.electron.tray().tooltip, badge: r.electron.app.badge, notices: r.electron.notifications.map((n) => n.options) };
    // A card that arrives while no window is open is notified, and clicking the notification opens a window on it.
    const second = await parkCard(f, 'touch second');
    await until('the second card counted', () => r.electron.tray().tooltip === 'Threshold — 2 waiting');
    const notice = r.electron.notifications.at(-1)!;
    notice.click();
    const reopened = r.electron.windows().length;
    const shown = r.electron.window().sent.find((s) => (s.payload as { name?: string }).name === 'ui.show_approval')?.payload;
    r.electron.window().close();
    const c = await control(f);
    for (const card of [first, second]) await c.call('approval.decide', { id: card.approval_id, hash: card.hash, outcome: 'deny' });
    c.close();
    const summary = await until('the app to quit once nothing waits', () => r.electron.app.quitted && r.shell.quitting);
    expect({ afterClose, secondNotice: notice.options, reopened, shown, summary, coreAlive: isAlive(pid) }).toEqual({
      afterClose: { quitted: false, coreAlive: true, tooltip: 'Threshold — 1 waiting', badge: 1, notices: [{ title: 'Threshold keeps running: 1 waiting', body: 'Open it from the tray icon to answer; Quit there stops everything.' }] },
      secondNotice: { title: 'Threshold: approval needed (2 waiting)', body: 'run_command · class Write · session control' },
      reopened: 1,
      shown: { name: 'ui.show_approval', payload: { id: second.approval_id } },
      summary: 'Threshold quit: nothing was running.',
      coreAlive: false,
    });
  });

  it('with nothing waiting or running quits, and the core it started stops', async () => {
    const f = fixture();
    const r = startRig(f);
    await r.ready();
    const pid = r.supervisor.core!.pid;
    r.electron.window().close();
    expect(await until('quit', () => r.electron.app.quitted && r.shell.quitting)).toBe('Threshold quit: nothing was running.');
    expect({ alive: isAlive(pid), notices: r.electron.notifications.length, trayGone: r.electron.tray().destroyed }).toEqual({ alive: false, notices: 0, trayGone: true });
  });
});

describe('a turn', () => {
  it('keeps the core while it runs after the window closes; its notify_user is an OS notification; Quit stops it and says so', async () => {
    const fake = await FakeProvider.start();
    try {
      // The model notifies, then never answers again: the turn stays running until something stops it.
      fake.enqueue({ toolCalls: [{ name: 'notify_user', args: { message: 'Halfway there', urgency: 'info' } }] }, { hang: true });
      const f = fixture(`[provider]\nkind = "openai-compatible"\nbase_url = "${fake.url}/v1"\nmodel = "fake-model"\n`);
      const r = startRig(f, { serveArgs: ['--config', f.config] });
      await r.ready();
      const sent = await ipc(r, 'agent.send', { message: 'Tell me when you are halfway.' });
      await until('the notification', () => r.electron.notifications.some((n) => n.options.body === 'Halfway there'));
      await until('the turn on the tray', () => r.electron.tray().tooltip === 'Threshold — 1 turn running');
      r.electron.window().close();
      const pid = r.supervisor.core!.pid;
      const kept = { quitted: r.electron.app.quitted, alive: isAlive(pid), notice: r.electron.notifications.at(-1)?.options, quitLabel: r.electron.tray().labels().at(-1) };
      r.electron.tray().click('Quit Threshold');
      const summary = await r.shell.quitting;
      expect({ sent: sent.ok, agentNotice: r.electron.notifications.find((n) => n.options.body === 'Halfway there')?.options, kept, summary, alive: isAlive(pid) }).toEqual({
        sent: true,
        agentNotice: { title: 'Threshold', body: 'Halfway there' },
        kept: { quitted: false, alive: true, notice: { title: 'Threshold keeps running: 1 turn running', body: 'Open it from the tray icon to answer; Quit there stops everything.' }, quitLabel: 'Quit Threshold (stops 1 turn)' },
        summary: 'Threshold quit: it stopped 1 turn.',
        alive: false,
      });
    } finally {
      await fake.close();
    }
  });
});

describe('Quit', () => {
  it('with a jailed command running stops everything: the core, the command and its jail are gone, and it says what it stopped', async () => {
    const f = fixture();
    const r = startRig(f);
    await r.ready();
    const marker = `sleep ${900_000 + Math.floor(Math.random() * 99_999)}`;
    const c = await control(f);
    const running = c.call('approval.request', { tool: 'run_command', args: { command: marker }, execute: true }).catch((err: Error) => err);
    await until('the jailed command to run', () => processesWith(marker).length > 0 && r.electron.tray().tooltip === 'Threshold — 1 command running');
    const jailed = processesWith(marker);
    const inBwrap = jailed.some((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bwrap'));
    const quitLabel = r.electron.tray().labels().at(-1);
    const pid = r.supervisor.core!.pid;
    r.electron.tray().click('Quit Threshold');
    const summary = await r.shell.quitting;
    await running;
    c.close();
    expect({
      quitLabel,
      jailedBefore: inBwrap,
      summary,
      quitted: r.electron.app.quitted,
      core: isAlive(pid),
      left: processesWith(marker),
      launchesAlive: launches(f).filter((l) => isAlive(l.pid)).length,
      notice: r.electron.notifications.at(-1)?.options,
      socket: existsSync(socketPath(f.dataDir)),
      lock: existsSync(join(f.dataDir, 'threshold.lock')),
    }).toEqual({
      quitLabel: 'Quit Threshold (stops 1 running command)',
      jailedBefore: true,
      summary: 'Threshold quit: it stopped 1 running command.',
      quitted: true,
      core: false,
      left: [],
      launchesAlive: 0,
      notice: { title: 'Threshold quit', body: 'Threshold quit: it stopped 1 running command.' },
      socket: false,
      lock: false,
    });
  });
});

describe('a core that crashes', () => {
  it('is restarted; the window is told, and the card that waited survives and can be decided there', async () => {
    const f = fixture();
    const r = startRig(f);
    await r.ready();
    const card = await parkCard(f);
    await until('the card counted', () => r.electron.tray().tooltip === 'Threshold — 1 waiting');
    const first = r.supervisor.core!.pid;
    process.kill(first, 'SIGKILL');
    await until('a new core', () => r.supervisor.status.state === 'open' && r.supervisor.core && r.supervisor.core.pid !== first);
    const pending = await ipc(r, 'approval.list_pending');
    const decided = await ipc(r, 'approval.decide', { id: card.approval_id, hash: card.hash, outcome: 'approve_once' });
    expect({
      launches: launches(f).length,
      window: statuses(r).map((s) => s.state),
      told: statuses(r).find((s) => s.state === 'restarting')?.message,
      said: r.said,
      pending: pending.ok ? (pending.value as { id: string; orphan: boolean }[]).map((p) => ({ id: p.id, orphan: p.orphan })) : pending,
      decided: decided.ok ? { outcome: (decided.value as { outcome: string }).outcome, by: (decided.value as { decided_by: string }).decided_by } : decided,
      tooltip: await until('the tray to count it gone', () => r.electron.tray().tooltip === 'Threshold' && r.electron.tray().tooltip),
    }).toEqual({
      launches: 2,
      window: ['open', 'restarting', 'open'],
      told: 'Threshold’s core stopped unexpectedly (signal SIGKILL); restarting it. Approvals waiting and decisions made are kept.',
      said: ['Threshold’s core stopped unexpectedly (signal SIGKILL); restarting it. Approvals waiting and decisions made are kept.'],
      pending: [{ id: card.approval_id, orphan: true }],
      decided: { outcome: 'approve_once', by: 'desktop' },
      tooltip: 'Threshold',
    });
    expect(statuses(r).at(-1)).toEqual({ state: 'open', message: null });
  });

  it('again and again is not restarted for ever: one sentence, and the tray offers to start it again', async () => {
    const f = fixture();
    const r = startRig(f);
    await r.ready();
    for (let i = 0; i < 4; i++) {
      await until('a core', () => r.supervisor.status.state === 'open' && r.supervisor.core);
      process.kill(r.supervisor.core!.pid, 'SIGKILL');
      await until('the loss noticed', () => r.supervisor.status.state !== 'open');
    }
    await until('given up', () => r.supervisor.status.state === 'stopped');
    expect({ status: r.supervisor.status, tray: r.electron.tray().labels() }).toEqual({
      status: { state: 'stopped', message: 'Threshold’s core stopped 4 times within 60 s (last: signal SIGKILL): see the terminal for why, then choose Start the core again in the tray menu.' },
      tray: ['Open Threshold', 'Threshold’s core stopped 4 times within 60 s (last: signal SIGKILL): see the terminal for why, then choose Start the core again in the tray menu.', 'Start the core again', '—', 'Quit Threshold'],
    });
    r.electron.tray().click('Start the core again');
    await until('started again', () => r.supervisor.status.state === 'open');
    expect(launches(f).length).toBe(5);
  });
});

describe('the IPC relay', () => {
  let r: Rig;
  const hash = 'a'.repeat(64);
  beforeAll(async () => {
    // One core for the table below (its rig is not cleaned up between these cases).
    r = startRig(fixture());
    rigs.splice(rigs.indexOf(r), 1);
    await r.ready();
  });
  afterAll(async () => {
    await r.quit();
  });

  /**
   * What the relay sent among the operations that reached the core: the shell's own refresh of its work
   * (main/app/work.ts: five reads in one tick, on a timer and on events) can land in between under load,
   * so each refresh, counted by its `question.list` (which no case here sends), is taken out whole.
   */
  const sentByRelay = (ops: string[]): string[] => {
    const refreshes = ops.filter((op) => op === 'question.list').length;
    const left = new Map(WORK_READS.map((op) => [op, refreshes]));
    return ops.filter((op) => {
      const n = left.get(op) ?? 0;
      if (n === 0) return true;
      left.set(op, n - 1);
      return false;
    });
  };

  it.each([
    ['a payload the table refuses is refused by the shell, and never sent', 'approval.decide', { id: 'ap_1', hash: 'nothex', outcome: 'approve_once' }, undefined, { ok: false, error: { code: 'invalid_params', message: 'Invalid params for approval.decide: hash: hash must be the 64-character content hash shown with the approval.' } }],
    ['an extra field is refused (strict objects)', 'approval.decide', { id: 'ap_1', hash, outcome: 'approve_once', admin: true }, undefined, { ok: false, error: { code: 'invalid_params', message: 'Invalid params for approval.decide: params: Unrecognized key: "admin".' } }],
    ['an outcome only a policy may choose is refused', 'approval.decide', { id: 'ap_1', hash, outcome: 'expired' }, undefined, { ok: false, error: { code: 'invalid_params', message: expect.stringMatching(/^Invalid params for approval.decide: outcome: /) } }],
    ['a frame that is not the app’s window is refused, and nothing is sent', 'approval.list_pending', undefined, 'https://evil.example/', { ok: false, error: { code: 'untrusted_sender', message: 'Refused: approval.list_pending was called from a frame that is not Threshold\'s window (https://evil.example/).' } }],
    ['a file:// frame is refused too', 'settings.set_level', { level: 'full' }, 'file:///tmp/x.html', { ok: false, error: { code: 'untrusted_sender', message: "Refused: settings.set_level was called from a frame that is not Threshold's window (file:///tmp/x.html)." } }],
  ])('%s', async (_name, channel, payload, url, expected) => {
    const before = r.reached.length;
    expect(await ipc(r, channel, payload, url)).toEqual(expected);
    expect(sentByRelay(r.reached.slice(before))).toEqual([]);
  });

  it('a valid payload reaches the core, which answers with its own error value', async () => {
    const before = r.reached.length;
    expect(await ipc(r, 'approval.decide', { id: 'ap_missing', hash, outcome: 'skip' })).toEqual({ ok: false, error: { code: 'not_found', message: expect.stringContaining('ap_missing') } });
    expect(sentByRelay(r.reached.slice(before))).toEqual(['approval.decide']);
  });

  it('operations the window may not use have no channel at all', () => {
    expect(['approval.request', 'approval.record_outcome', 'approval.list_follow_ups', ATTACH_METHOD, 'events.subscribe'].filter((c) => r.electron.ipc.handlers.has(c))).toEqual([]);
  });

  it('the core checks the same schema again: the same bad payload sent straight down the desktop channel gets the same error', async () => {
    const link = await attachToCore(r.f.dataDir);
    try {
      expect(await link.invoke('approval.decide', { id: 'ap_1', hash: 'nothex', outcome: 'approve_once' })).toEqual({ ok: false, error: { code: 'invalid_params', message: 'Invalid params for approval.decide: hash: hash must be the 64-character content hash shown with the approval.' } });
    } finally {
      link.close();
    }
  });

  it.each([
    ['a wrong token', { token: 'x'.repeat(43) }, 'Refused: that is not this data directory’s UI token.'],
    ['no token', {}, 'Invalid params for desktop.attach: token: Invalid input: expected string, received undefined.'],
  ])('a control connection with %s does not become the window’s (the card’s Reveal stays closed to it)', async (_name, params, message) => {
    const c = await control(r.f);
    try {
      await expect(c.call(ATTACH_METHOD, params)).rejects.toMatchObject({ message });
      await expect(c.call('approval.reveal', { id: 'ap_1' })).rejects.toMatchObject({ message: 'There is no method "approval.reveal".' });
    } finally {
      c.close();
    }
  });
});

describe('the desktop channel, tried the way a script on the same machine would', () => {
  let f: Fixture;
  let daemon: Daemon;
  let card: { approval_id: string; hash: string };
  beforeAll(async () => {
    f = fixture();
    daemon = await startDaemon(f.dataDir, ['--no-agent', '--config', f.config, '--workspace', f.workspace], { HOME: f.home });
    card = await parkCard(f, 'curl -H "Authorization: Bearer sk-live-0123456789abcdef" https://example.com');
  }, 60_000);
  afterAll(async () => daemon?.kill('SIGTERM'));
  const token = () => readFileSync(webTokenPath(f.dataDir), 'utf8').trim();
  const request = (id: number, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

  it.each([
    ['a wrong token in a batch, then Reveal in the same batch', () => [request(1, ATTACH_METHOD, { token: 'x'.repeat(43) }), request(2, 'approval.reveal', { id: card.approval_id })]],
    ['the token with a byte changed', () => [request(1, ATTACH_METHOD, { token: token().slice(0, -1) + (token().endsWith('A') ? 'B' : 'A') })]],
    ['the token with something added', () => [request(1, ATTACH_METHOD, { token: token() + 'x' })]],
    ['the token and an extra field', () => [request(1, ATTACH_METHOD, { token: token(), surface: 'desktop' })]],
    ['the token as a number', () => [request(1, ATTACH_METHOD, { token: 42 })]],
  ])('%s: the connection stays a control connection (no Reveal)', async (_name, batch) => {
    const c = await rawClient(socketPath(f.dataDir));
    try {
      c.write(JSON.stringify(batch()) + '\n');
      const answers = (await c.next()) as unknown as { id: number; error?: { data?: { code?: string } } }[];
      c.write(JSON.stringify(request(9, 'approval.reveal', { id: card.approval_id })) + '\n');
      const reveal = (await c.next()) as { error?: { data?: { code?: string } } };
      expect({ attach: answers[0]?.error?.data?.code, reveal: reveal.error?.data?.code }).toEqual({ attach: expect.stringMatching(/^(unauthorized|invalid_params)$/), reveal: 'method_not_found' });
    } finally {
      c.close();
    }
  });

  it('with the token it becomes the window’s: Reveal shows the original command, a second attach is refused, and its decision is recorded as the desktop’s', async () => {
    const c = await rawClient(socketPath(f.dataDir));
    try {
      c.write(JSON.stringify(request(1, ATTACH_METHOD, { token: token() })) + '\n');
      const attached = (await c.next()) as { result?: { launched_by?: string } };
      c.write(JSON.stringify([request(2, 'approval.reveal', { id: card.approval_id }), request(3, ATTACH_METHOD, { token: token() }), request(4, 'approval.request', { tool: 'run_command', args: { command: 'true' } })]) + '\n');
      const [reveal, again, control] = (await c.next()) as unknown as { result?: { ok: boolean; value?: { args: unknown }; error?: { code: string } }; error?: { data?: { code?: string } } }[];
      c.write(JSON.stringify(request(5, 'approval.decide', { id: card.approval_id, hash: card.hash, outcome: 'deny' })) + '\n');
      const decided = (await c.next()) as { result?: { ok: boolean; value?: { decided_by: string } } };
      expect({
        launchedBy: attached.result?.launched_by,
        reveal: reveal?.result,
        again: again?.error?.data?.code,
        control: control?.result,
        decidedBy: decided.result?.value?.decided_by,
      }).toEqual({
        launchedBy: 'desktop',
        reveal: { ok: true, value: { args: { command: 'curl -H "Authorization: Bearer sk-live-0123456789abcdef" https://example.com' } } },
        again: 'invalid_request',
        // The control API's own operations are not the window's: an error value, never run.
        control: { ok: false, error: { code: 'unknown_operation', message: 'There is no operation "approval.request" for the window.' } },
        decidedBy: 'desktop',
      });
    } finally {
      c.close();
    }
  });
});

describe('the OS keychain', () => {
  it('stores the key from the window, hands it to the core over the channel (never on a command line), and again to a restarted core', async () => {
    const f = fixture('[provider]\nkind = "openai-compatible"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\napi_key_env = "THRESHOLD_TEST_UNSET_KEY"\n');
    const r = startRig(f, { serveArgs: ['--config', f.config] });
    await r.ready();
    const key = 'sk-test-0123456789abcdef';
    const stored = await ipc(r, 'settings.set_api_key', { key });
    const source = async () => ((await ipc(r, 'model.get')) as { ok: true; value: { key_source: string; key_storable: boolean } }).value;
    const first = await source();
    const file = readFileSync(join(f.dataDir, 'provider-key.enc'), 'utf8');
    process.kill(r.supervisor.core!.pid, 'SIGKILL');
    await until('a new core', () => r.supervisor.status.state === 'open' && launches(f).length === 2);
    const afterRestart = await source();
    const everywhere = launches(f).flatMap((l) => [...l.argv, ...Object.values(l.env)]);
    expect({ stored, first, file, afterRestart, inArgvOrEnv: everywhere.some((v) => v.includes(key)), inOutput: r.output().includes(key) }).toEqual({
      stored: { ok: true, value: { stored: true } },
      first: expect.objectContaining({ key_source: 'keychain', key_storable: true }),
      file: `enc:${[...key].reverse().join('')}`,
      afterRestart: expect.objectContaining({ key_source: 'keychain' }),
      inArgvOrEnv: false,
      inOutput: false,
    });
  });
});

describe("the OS keychain for chat bridges' tokens", () => {
  it('stores a Telegram token from the window, hands it to the core over the channel, and again to a restarted core; never on a command line', async () => {
    const f = fixture('[remote.telegram]\napi_base = "http://127.0.0.1:9"\nbot_token_env = "THRESHOLD_TEST_UNSET_TG"\nchat_id = 42\n');
    const r = startRig(f, { serveArgs: ['--config', f.config] });
    await r.ready();
    const token = '123456:TEST-shell-token-abcdefghijklmn';
    const stored = await ipc(r, 'remote.set_token', { bridge: 'telegram', token });
    const source = async () => ((await ipc(r, 'remote.status')) as { ok: true; value: { bridges: { token_source: string; state: string }[] } }).value.bridges[0];
    await until('the bridge to start with the token', async () => (await source())?.state !== 'not_started');
    const first = await source();
    process.kill(r.supervisor.core!.pid, 'SIGKILL');
    await until('a new core', () => r.supervisor.status.state === 'open' && launches(f).length === 2);
    await until('the token handed again', async () => (await source())?.token_source === 'keychain');
    const everywhere = launches(f).flatMap((l) => [...l.argv, ...Object.values(l.env)]);
    expect({ stored, first: first?.token_source, file: readFileSync(join(f.dataDir, 'telegram-token.enc'), 'utf8'), inArgvOrEnv: everywhere.some((v) => v.includes(token)), inOutput: r.output().includes(token) }).toEqual({
      stored: { ok: true, value: { stored: true } },
      first: 'keychain',
      file: `enc:${[...token].reverse().join('')}`,
      inArgvOrEnv: false,
      inOutput: false,
    });
  });
});

describe('start-up that never dead-ends', () => {
  it('a native module built for another runtime: one sentence naming the fix, in the window and on the terminal', async () => {
    const f = fixture();
    const r = startRig(f, { env: { NODE_OPTIONS: `--require ${join(FIXTURES, 'abi-mismatch.cjs')}` } });
    await r.ready();
    // node_modules may be a link to another checkout's: the sentence names the folder that holds the module.
    const modulesRoot = dirname(realpathSync(join(ROOT, 'node_modules')));
    const sentence = `The native module better-sqlite3 was built for another runtime (NODE_MODULE_VERSION 150), but the core runs on Node ${process.versions.node}, which needs NODE_MODULE_VERSION ${process.versions.modules}: run npm rebuild in ${modulesRoot} with that Node (it rebuilds better-sqlite3 and node-pty for it), then start Threshold again.`;
    r.electron.window().loaded();
    expect({
      status: r.supervisor.status,
      terminal: r.output().split('\n').filter((l) => l.includes('NODE_MODULE_VERSION')),
      shellSaid: r.said,
      window: statuses(r).at(-1),
      call: await ipc(r, 'app.get_info'),
    }).toEqual({
      status: { state: 'stopped', message: sentence },
      terminal: [`threshold: ${sentence}`],
      shellSaid: [],
      window: { state: 'stopped', message: sentence },
      call: { ok: false, error: { code: 'core_unavailable', message: sentence } },
    });
  });

  it('a runtime that is not there: one sentence naming the fix', async () => {
    const f = fixture();
    const r = startRig(f, { node: join(f.root, 'no-such-node') });
    await r.ready();
    const sentence = `The core could not start (${join(f.root, 'no-such-node')}: ENOENT): start Threshold with npm start in its checkout, which runs the core on the Node that ran npm ci, or set THRESHOLD_NODE to that Node.`;
    expect({ status: r.supervisor.status, said: r.said, window: statuses(r).at(-1) }).toEqual({ status: { state: 'stopped', message: sentence }, said: [sentence], window: { state: 'stopped', message: sentence } });
  });

  it('a jail that cannot start: the core runs, and one sentence with the fix is on the terminal and in the window', async () => {
    const f = fixture();
    const r = startRig(f, { env: { NODE_OPTIONS: `--require ${join(FIXTURES, 'userns-restricted.cjs')}` } });
    await r.ready();
    r.electron.window().loaded();
    const terminal = r.output().split('\n').filter((l) => l.includes('jail cannot start'));
    expect({ state: r.supervisor.status.state, terminal, window: statuses(r).at(-1) }).toEqual({
      state: 'open',
      terminal: [
        'threshold: the jail cannot start: user namespaces are restricted on this system, so bubblewrap cannot start (bwrap: setting up uid map: Permission denied); fix: on Ubuntu 24.04+: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or install an AppArmor profile that allows bwrap to create user namespaces); elsewhere check user.max_user_namespaces. Commands cannot run until then.',
      ],
      window: {
        state: 'open',
        message:
          'Commands cannot run: user namespaces are restricted on this system, so bubblewrap cannot start (bwrap: setting up uid map: Permission denied). Fix: on Ubuntu 24.04+: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or install an AppArmor profile that allows bwrap to create user namespaces); elsewhere check user.max_user_namespaces.',
      },
    });
  });
});

it('the status signal is the one the page understands', () => {
  expect(isCoreStatusSignal({ name: CORE_STATUS_SIGNAL, payload: { state: 'stopped', message: 'x' } })).toBe(true);
});

describe('moving the API key to another address: the core asks the window, the person answers', () => {
  // One core with the agent. The key is entered in the window (so it is kept for provider A, the one the
  // window shows); provider B is another address. Both are fake providers that record every header.
  const KEY = 'sk-desktop-0123456789abcdefXYZ';
  const QUESTION_MS = 3_000;
  let a: FakeProvider;
  let b: FakeProvider;
  let r: Rig;
  let web: { call(op: string, params?: unknown): Promise<Result<Record<string, unknown>>>; close(): void };
  const at = (p: FakeProvider) => ({ kind: 'openai-compatible' as const, base_url: `${p.url}/v1`, model: 'fake-model' });
  /** What a provider received: one entry per request, whether it carried the key. */
  const keysAt = (p: FakeProvider) => p.requests.map((q) => JSON.stringify(q.headers).includes(KEY));
  const token = () => readFileSync(webTokenPath(r.f.dataDir), 'utf8').trim();

  beforeAll(async () => {
    [a, b] = await Promise.all([FakeProvider.start(), FakeProvider.start()]);
    const f = fixture(`[provider]\nkind = "openai-compatible"\nbase_url = "${a.url}/v1"\nmodel = "fake-model"\napi_key_env = "THRESHOLD_TEST_UNSET_KEY"\n`);
    r = startRig(f, { serveArgs: ['--config', f.config], env: { [KEY_USE_TIMEOUT_ENV]: String(QUESTION_MS) } });
    rigs.splice(rigs.indexOf(r), 1);
    await r.ready();
    expect(await ipc(r, 'settings.set_api_key', { key: KEY })).toEqual({ ok: true, value: { stored: true } });
    web = await webPage(r);
  }, 120_000);
  afterAll(async () => {
    web?.close();
    await r?.quit();
    await Promise.all([a?.close(), b?.close()]);
  });
  const clients: ControlClient[] = [];
  const connect = async () => {
    const c = await control(r.f);
    clients.push(c);
    return c;
  };
  afterEach(() => {
    r.electron.keyAnswer = null;
    a.requests.length = 0;
    b.requests.length = 0;
    for (const c of clients.splice(0)) c.destroy();
  });

  it('the control case: a test of the provider the key is kept for sends it without asking', async () => {
    const tested = await ipc(r, 'model.test', at(a));
    expect({ sent: tested.ok && (tested.value as { key_sent: boolean }).key_sent, a: keysAt(a), dialogs: r.electron.keyDialogs.length }).toEqual({ sent: true, a: [true], dialogs: 0 });
  });

  it.each([
    { name: 'the person confirms: the other address receives the key, once', answer: true, sent: true, outcome: 'send' },
    { name: 'the person refuses: the other address gets the test without the key', answer: false, sent: false, outcome: 'refuse' },
    { name: 'nobody answers in time: the dialog closes and no key is sent', answer: null, sent: false, outcome: 'closed' },
  ])('testing another address, $name', async ({ answer, sent, outcome }) => {
    r.electron.keyAnswer = answer;
    const before = r.electron.keyDialogs.length;
    const tested = await ipc(r, 'model.test', at(b));
    const dialogs = r.electron.keyDialogs.slice(before);
    expect({
      sent: tested.ok && (tested.value as { key_sent: boolean }).key_sent,
      b: keysAt(b),
      a: keysAt(a),
      dialogs: dialogs.map((d) => ({ request: d.request, onTheWindow: d.parent === r.electron.window(), outcome: d.outcome })),
    }).toEqual({
      sent,
      b: [sent],
      a: [],
      dialogs: [{ request: { purpose: 'test', source: 'the OS keychain', from: { kind: 'openai-compatible', base_url: `${a.url}/v1` }, to: { kind: 'openai-compatible', base_url: `${b.url}/v1` } }, onTheWindow: true, outcome }],
    });
    // A test moves nothing: the key is still kept for A, and the next test of B asks again.
    const model = await ipc(r, 'model.get');
    expect(model.ok && (model.value as { base_url: string; key_applies: boolean })).toEqual(expect.objectContaining({ base_url: `${a.url}/v1`, key_applies: true }));
  });

  it('while the question is open, the window’s other calls are still answered', async () => {
    const testing = ipc(r, 'model.test', at(b));
    const dialog = await until('the dialog', () => r.electron.keyDialogs.find((d) => d.outcome === null));
    const meanwhile = await ipc(r, 'approval.list_pending');
    const stillAsking = dialog.outcome === null;
    dialog.click(false);
    const tested = await testing;
    expect({ meanwhile, stillAsking, sent: tested.ok && (tested.value as { key_sent: boolean }).key_sent, b: keysAt(b) }).toEqual({ meanwhile: { ok: true, value: [] }, stillAsking: true, sent: false, b: [false] });
  });

  it('saving another address, the person refuses: it is saved, and neither the save nor the tests after it send the key there', async () => {
    r.electron.keyAnswer = false;
    const saved = await ipc(r, 'model.set', at(b));
    const tested = await ipc(r, 'model.test');
    const back = await ipc(r, 'model.set', at(a));
    expect({
      applies: saved.ok && (saved.value as { key_applies: boolean }).key_applies,
      sent: tested.ok && (tested.value as { key_sent: boolean }).key_sent,
      b: keysAt(b),
      asked: r.electron.keyDialogs.slice(-2).map((d) => [d.request.purpose, d.outcome]),
      backApplies: back.ok && (back.value as { key_applies: boolean }).key_applies,
    }).toEqual({ applies: false, sent: false, b: [false], asked: [['save', 'refuse'], ['test', 'refuse']], backApplies: true });
  });

  it('saving another address, the person confirms: the binding moves there (no more questions), and the first address no longer gets the key', async () => {
    r.electron.keyAnswer = true;
    const saved = await ipc(r, 'model.set', at(b));
    const before = r.electron.keyDialogs.length;
    r.electron.keyAnswer = false;
    const inForce = await ipc(r, 'model.test');
    const first = await ipc(r, 'model.test', at(a));
    const asked = r.electron.keyDialogs.slice(before).map((d) => [d.request.purpose, d.request.from.base_url, d.request.to.base_url, d.outcome]);
    // Back to A, moved by the person again.
    r.electron.keyAnswer = true;
    const back = await ipc(r, 'model.set', at(a));
    expect({
      applies: saved.ok && (saved.value as { key_applies: boolean }).key_applies,
      inForce: inForce.ok && (inForce.value as { key_sent: boolean }).key_sent,
      first: first.ok && (first.value as { key_sent: boolean }).key_sent,
      b: keysAt(b),
      a: keysAt(a),
      asked,
      backApplies: back.ok && (back.value as { key_applies: boolean }).key_applies,
    }).toEqual({
      applies: true,
      inForce: true,
      first: false,
      b: [true],
      a: [false],
      asked: [['test', `${b.url}/v1`, `${a.url}/v1`, 'refuse']],
      backApplies: true,
    });
  });

  /** A connection of a script that read the UI token: attached as the desktop, collecting the questions it is asked. */
  async function attachedScript(): Promise<{ c: ControlClient; question(): Promise<ConfirmKeyUseParams> }> {
    const c = await connect();
    const asked: ConfirmKeyUseParams[] = [];
    c.onNotification((method, params) => void (method === CONFIRM_KEY_USE_NOTIFICATION && asked.push(params as ConfirmKeyUseParams)));
    await c.call(ATTACH_METHOD, { token: token() });
    return { c, question: () => until('a question on the script’s connection', () => asked.shift()) };
  }
  const code = (p: Promise<unknown>) => p.then(() => 'answered', (err: { code?: string }) => err.code ?? String(err));

  it.each([
    { name: 'another attached connection, with the id', forge: async (id: string) => (await attachedScript()).c.call(KEY_USE_ANSWER_METHOD, { id, send: true }), refused: 'not_found' },
    { name: 'a control connection that did not attach, with the id', forge: async (id: string) => (await connect()).call(KEY_USE_ANSWER_METHOD, { id, send: true }), refused: 'method_not_found' },
    { name: 'a control connection that tried a wrong token first', forge: async (id: string) => { const c = await connect(); await c.call(ATTACH_METHOD, { token: 'x'.repeat(43) }).catch(() => undefined); return c.call(KEY_USE_ANSWER_METHOD, { id, send: true }); }, refused: 'method_not_found' },
    { name: 'the asked connection, for an id never asked', forge: async (_id: string, asked: ControlClient) => asked.call(KEY_USE_ANSWER_METHOD, { id: 'kq_00000000-0000-4000-8000-000000000000', send: true }), refused: 'not_found' },
    { name: 'the asked connection, with "yes" for send', forge: async (id: string, asked: ControlClient) => asked.call(KEY_USE_ANSWER_METHOD, { id, send: 'yes' }), refused: 'invalid_params' },
    { name: 'the asked connection, with an extra field', forge: async (id: string, asked: ControlClient) => asked.call(KEY_USE_ANSWER_METHOD, { id, send: true, surface: 'desktop' }), refused: 'invalid_params' },
    { name: 'the web page, with the id', forge: async (id: string) => web.call(KEY_USE_ANSWER_METHOD, { id, send: true }).then((res) => { if (!res.ok) throw res.error; }), refused: 'unknown_operation' },
  ])('an answer from $name is refused and moves nothing: the question still waits, and no key is sent', async ({ forge, refused }) => {
    const script = await attachedScript();
    const testing = script.c.call<Result<{ key_sent: boolean }>>('model.test', at(b));
    const { id } = await script.question();
    const forged = await code(forge(id, script.c));
    // The question still waits for its own connection: its "no" is taken.
    const own = await script.c.call(KEY_USE_ANSWER_METHOD, { id, send: false });
    const tested = await testing;
    expect({ forged, own, sent: tested.ok && tested.value.key_sent, b: keysAt(b), windowAsked: r.electron.keyDialogs.filter((d) => d.outcome === null).length }).toEqual({ forged: refused, own: { id, send: false }, sent: false, b: [false], windowAsked: 0 });
  });

  it('a second answer for the same id is refused: the key went once', async () => {
    const script = await attachedScript();
    const testing = script.c.call<Result<{ key_sent: boolean }>>('model.test', at(b));
    const { id } = await script.question();
    const first = await script.c.call(KEY_USE_ANSWER_METHOD, { id, send: true });
    const again = await code(script.c.call(KEY_USE_ANSWER_METHOD, { id, send: true }));
    const tested = await testing;
    const later = await code(script.c.call(KEY_USE_ANSWER_METHOD, { id, send: true }));
    expect({ first, again, later, sent: tested.ok && tested.value.key_sent, b: keysAt(b) }).toEqual({ first: { id, send: true }, again: 'not_found', later: 'not_found', sent: true, b: [true] });
  });

  it('an answer after the time ran out is refused, and the test went without the key', async () => {
    const script = await attachedScript();
    const testing = script.c.call<Result<{ key_sent: boolean }>>('model.test', at(b));
    const { id, timeout_ms } = await script.question();
    const tested = await testing;
    const late = await code(script.c.call(KEY_USE_ANSWER_METHOD, { id, send: true }));
    expect({ timeout_ms, late, sent: tested.ok && tested.value.key_sent, b: keysAt(b) }).toEqual({ timeout_ms: QUESTION_MS, late: 'not_found', sent: false, b: [false] });
  });

  it('a connection that closes mid-question sends no key', async () => {
    const script = await attachedScript();
    void script.c.call('model.test', at(b)).catch(() => undefined);
    await script.question();
    script.c.destroy();
    await until('the test to reach B', () => b.requests.length > 0, 10_000);
    expect(keysAt(b)).toEqual([false]);
  });

  it('the web page’s own test of another address asks nobody and sends no key', async () => {
    const before = r.electron.keyDialogs.length;
    const tested = await web.call('model.test', at(b));
    expect({ sent: tested.ok && tested.value['key_sent'], b: keysAt(b), dialogs: r.electron.keyDialogs.length - before }).toEqual({ sent: false, b: [false], dialogs: 0 });
  });

  it('the window’s page has no channel to answer or to be asked on', () => {
    expect([KEY_USE_ANSWER_METHOD, CONFIRM_KEY_USE_NOTIFICATION].filter((c) => r.electron.ipc.handlers.has(c))).toEqual([]);
  });

  // Last: it takes the shell's connection away (the shell attaches again).
  it('the shell’s connection drops mid-question: the dialog closes and no key is sent', async () => {
    const testing = ipc(r, 'model.test', at(b));
    const dialog = await until('the dialog', () => r.electron.keyDialogs.find((d) => d.outcome === null));
    r.supervisor.link!.close();
    const tested = await testing;
    await until('the test to reach B', () => b.requests.length > 0, 10_000);
    expect({ outcome: dialog.outcome, tested: tested.ok ? tested.value : tested.error.code, b: keysAt(b) }).toEqual({ outcome: 'closed', tested: 'disconnected', b: [false] });
    await until('the shell attached again', () => r.supervisor.status.state === 'open');
  });
});

/** A browser page's socket to the core's web server (signed in with the UI token, as the page is). */
async function webPage(r: Rig): Promise<{ call(op: string, params?: unknown): Promise<Result<Record<string, unknown>>>; close(): void }> {
  const url = await until('the web UI line', () => /web UI: (http:\/\/127\.0\.0\.1:\d+)\//.exec(r.output())?.[1]);
  const token = readFileSync(webTokenPath(r.f.dataDir), 'utf8').trim();
  const auth = await fetch(`${url}/auth`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  const cookie = auth.headers.get('set-cookie')!.split(';')[0]!;
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { Cookie: cookie }, origin: url });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 0;
  return {
    call: (op, params) => {
      const id = ++next;
      return new Promise((resolve) => {
        const onMessage = (data: WebSocket.RawData) => {
          const m = JSON.parse(String(data)) as { id?: number; result?: Result<Record<string, unknown>> };
          if (m.id !== id) return;
          ws.off('message', onMessage);
          resolve(m.result!);
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify({ id, op, ...(params === undefined ? {} : { params }) }));
      });
    },
    close: () => ws.close(),
  };
}
