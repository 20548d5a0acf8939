// The desktop window as a person sees it, without Electron: the real renderer in Chromium, the real shell
// code (main/app/shell.ts) with the stand-in for Electron's objects, and a real core it starts. Only
// Electron's IPC transport is replaced: the page's window.threshold is the preload's API (one verb per
// operation of the table, plus onEvent) over Playwright's exposeFunction into the shell's ipcMain
// handlers, and what the shell sends to the window is delivered to the page's listeners in order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERBS } from '../../common/operations';
import { coreLaunch } from '../../main/app/core-launch';
import { CoreSupervisor } from '../../main/app/core-supervisor';
import { startShell, type Shell } from '../../main/app/shell';
import { isAppUrl } from '../../main/app/window';
import { ControlClient } from '../../main/control/client';
import { socketPath } from '../../main/control/socket-path';
import { resolveStatic } from '../../main/web/static';
import { ensureRendererBundle, rendererOutDir } from '../../main/web/bundle';
import { ROOT } from '../support/cli';
import { fakeElectron, type FakeElectron } from '../support/fake-electron';
import { fixture, launch, shot, type Fixture } from './support';

const ORIGIN = 'app://threshold';
const PAGE = 'http://threshold.test';

interface DesktopRig {
  f: Fixture;
  electron: FakeElectron;
  supervisor: CoreSupervisor;
  shell: Shell;
  page: Page;
  said: string[];
}

/** The page's window.threshold: the preload's shape, over exposeFunction. */
function preloadStandIn(verbs: Record<string, string>): void {
  const listeners = new Set<(e: unknown) => void>();
  const w = window as unknown as Record<string, unknown> & { __thresholdInvoke(op: string, params: unknown): Promise<unknown> };
  const api: Record<string, unknown> = { onEvent: (l: (e: unknown) => void) => (listeners.add(l), () => listeners.delete(l)) };
  for (const [verb, op] of Object.entries(verbs)) api[verb] = (params?: unknown) => w.__thresholdInvoke(op, params);
  w['threshold'] = Object.freeze(api);
  w['__thresholdEmit'] = (e: unknown) => {
    for (const l of [...listeners]) l(e);
  };
}

async function openDesktop(browser: Browser, f: Fixture, o: { env?: NodeJS.ProcessEnv; width?: number } = {}): Promise<DesktopRig> {
  const electron = fakeElectron();
  const said: string[] = [];
  const env = { ...process.env, HOME: f.home, THRESHOLD_CONFIG_DIR: join(f.home, '.config', 'threshold'), THRESHOLD_WORKSPACE: f.workspace, THRESHOLD_NODE: process.execPath, ...o.env };
  delete env['THRESHOLD_HOME'];
  const supervisor = new CoreSupervisor({
    dataDir: f.dataDir,
    launch: () => coreLaunch({ packaged: false, execPath: '/none', appPath: ROOT, home: f.home, dataDir: f.dataDir, serveArgs: ['--no-agent', '--config', f.config], env, defaultWorkspace: f.workspace, readFile: (p) => readFileSync(p, 'utf8') }),
    say: (l) => void said.push(l),
    // Long enough between a crash and the restart to look at what the window says meanwhile.
    restart: { max: 3, windowMs: 60_000, delayMs: 2_000 },
  });
  const shell = startShell({ electron, supervisor, dataDir: f.dataDir, platform: 'linux', trustedFrame: (url) => isAppUrl(url), say: (l) => void said.push(l), workPollMs: 500 });
  const context = await browser.newContext({ viewport: { width: o.width ?? 1280, height: 900 } });
  await context.route(`${PAGE}/**`, async (route) => {
    const file = resolveStatic(rendererOutDir(), new URL(route.request().url()).pathname);
    if (!file) return route.fulfill({ status: 404, body: 'Not found.' });
    await route.fulfill({ status: 200, contentType: file.type, body: readFileSync(file.file) });
  });
  await context.exposeFunction('__thresholdInvoke', (op: string, params: unknown) => electron.ipc.invoke(op, params, `${ORIGIN}/index.html`));
  await context.addInitScript(preloadStandIn, VERBS as Record<string, string>);
  const page = await context.newPage();
  // What the shell sends the window reaches the page in order (ipcRenderer's delivery).
  let chain = Promise.resolve();
  electron.window().sink = (_channel, payload) => {
    chain = chain.then(() => page.evaluate((e) => (window as unknown as { __thresholdEmit(e: unknown): void }).__thresholdEmit(e), payload as never)).catch(() => undefined);
  };
  await page.goto(`${PAGE}/index.html`);
  electron.window().loaded();
  return { f, electron, supervisor, shell, page, said };
}

async function closeDesktop(r: DesktopRig | undefined): Promise<void> {
  if (!r) return;
  await r.page.context().close();
  r.electron.app.quit();
  await r.shell.quitting;
}

describe('the desktop window and its core', () => {
  let browser: Browser;
  beforeAll(async () => {
    await ensureRendererBundle();
    browser = await launch();
  }, 240_000);
  afterAll(async () => browser?.close());

  it('says when its core crashed and that it restarts it; the card that waited is still counted once it is back', async () => {
    const f = fixture(null);
    const r = await openDesktop(browser, f);
    try {
      const status = r.page.getByRole('status').filter({ hasText: /Connected|reconnecting|Not running|Connecting/ });
      await status.filter({ hasText: 'Connected' }).waitFor({ timeout: 60_000 });
      const c = await ControlClient.connect(socketPath(f.dataDir));
      await c.call('approval.request', { tool: 'run_command', args: { command: 'touch from-the-test' }, wait: false });
      c.close();
      await r.page.getByRole('button', { name: 'Chat (1 waiting)' }).waitFor();
      process.kill(r.supervisor.core!.pid, 'SIGKILL');
      const banner = r.page.getByTestId('core-message');
      await banner.waitFor();
      const during = { status: await status.textContent(), banner: await banner.textContent() };
      await shot(r.page, 'desktop-core-restarting-1280');
      await r.page.setViewportSize({ width: 400, height: 900 });
      await shot(r.page, 'desktop-core-restarting-400');
      await r.page.setViewportSize({ width: 1280, height: 900 });
      await status.filter({ hasText: 'Connected' }).waitFor({ timeout: 60_000 });
      await r.page.getByRole('button', { name: 'Chat (1 waiting)' }).waitFor();
      expect({ during, after: { banner: await banner.count(), said: r.said } }).toEqual({
        during: { status: 'Connection lost: reconnecting…', banner: 'Threshold’s core stopped unexpectedly (signal SIGKILL); restarting it. Approvals waiting and decisions made are kept.' },
        after: { banner: 0, said: ['Threshold’s core stopped unexpectedly (signal SIGKILL); restarting it. Approvals waiting and decisions made are kept.'] },
      });
    } finally {
      await closeDesktop(r);
    }
  });

  it.each([400, 1280, 2560])('a core that cannot start: the window shows the one sentence with the fix (%i px)', async (width) => {
    const f = fixture(null);
    const r = await openDesktop(browser, f, { width, env: { NODE_OPTIONS: `--require ${join(ROOT, 'test', 'fixtures', 'desktop', 'abi-mismatch.cjs')}` } });
    try {
      const banner = r.page.getByTestId('core-message');
      await banner.waitFor({ timeout: 60_000 });
      await r.page.getByRole('status').filter({ hasText: 'Not running: see the message below.' }).waitFor();
      const text = await banner.textContent();
      // The whole sentence is on screen: nothing cut off at any width.
      const box = await banner.evaluate((el) => ({ fits: el.scrollWidth <= el.clientWidth + 1, visible: el.getBoundingClientRect().width > 0 }));
      await shot(r.page, `desktop-core-cannot-start-${width}`);
      expect({ text, box }).toEqual({ text: expect.stringMatching(/^The native module better-sqlite3 was built for another runtime \(NODE_MODULE_VERSION 150\), but the core runs on Node [\d.]+, which needs NODE_MODULE_VERSION \d+: run npm rebuild in \S+ with that Node \(it rebuilds better-sqlite3 and node-pty for it\), then start Threshold again\.$/), box: { fits: true, visible: true } });
    } finally {
      await closeDesktop(r);
    }
  });
});

