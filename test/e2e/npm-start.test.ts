// `npm start` where Electron cannot run: it says why, starts the same UI in web mode, prints the web UI
// line and opens it in the default browser. The browser is a script standing in for the opener (the
// outside boundary); the page it is given is then opened in real Chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli';
import { fixture, launch, until, type Fixture } from './support';

interface Started {
  child: ChildProcess;
  log: () => string;
  stop(): Promise<number | null>;
}

function npmStart(f: Fixture, env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'start.js'), '--no-agent', '--config', f.config], {
    cwd: ROOT,
    // No Electron binary where ELECTRON_OVERRIDE_DIST_PATH points: the case of a machine that cannot fetch it.
    env: { ...process.env, HOME: f.home, THRESHOLD_CONFIG_DIR: join(f.home, '.config', 'threshold'), THRESHOLD_WORKSPACE: f.workspace, ELECTRON_OVERRIDE_DIST_PATH: join(f.root, 'no-electron'), DISPLAY: '', WAYLAND_DISPLAY: '', BROWSER: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    log: () => log,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const WEB_UI = /^threshold: web UI: (http:\/\/127\.0\.0\.1:\d+)\/#token=[A-Za-z0-9_-]+$/m;

describe('npm start without Electron', () => {
  let browser: Browser;
  let f: Fixture;
  beforeAll(async () => {
    browser = await launch();
    f = fixture(null);
  });
  afterAll(async () => browser?.close());

  it('says why, serves the web UI, and opens it in the browser through a private page that lands signed in', async () => {
    const opened = join(f.root, 'opened');
    const fakeBrowser = join(f.root, 'fake-browser');
    writeFileSync(fakeBrowser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(fakeBrowser, 0o755);
    const start = npmStart(f, { BROWSER: fakeBrowser, DISPLAY: ':99' });
    try {
      const origin = await until('the web UI line', () => WEB_UI.exec(start.log())?.[1], 60_000);
      // The opener writes its file before Threshold logs that it ran: wait for both.
      await until('the opener to run', () => existsSync(opened) && readFileSync(opened, 'utf8'));
      await until('the opened line', () => start.log().includes('threshold: opened the web UI in your browser'));
      const target = readFileSync(opened, 'utf8');
      const lines = start.log().split('\n');
      expect({
        why: lines.some((l) => l.startsWith('threshold: the desktop window cannot start here: no Electron binary at ') && l.endsWith('(ELECTRON_OVERRIDE_DIST_PATH).')),
        fallback: lines.includes('threshold: starting the same UI in web mode instead (threshold serve --open); Ctrl-C stops it.'),
        opened: lines.includes(`threshold: opened the web UI in your browser (${fakeBrowser})`),
        target,
        tokenInArgv: /token/.test(target),
      }).toEqual({ why: true, fallback: true, opened: true, target: `file://${join(f.dataDir, 'open-web-ui.html')}`, tokenInArgv: false });

      const page = await (await browser.newContext()).newPage();
      await page.goto(target);
      await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 20_000 });
      expect(page.url()).toEqual(`${origin}/`); // signed in, and the token left the address bar
      await page.close();
    } finally {
      expect(await start.stop()).toEqual(0);
    }
  });

  it('without a graphical session it still serves, and says to open the address by hand', async () => {
    const start = npmStart(f, {});
    try {
      await until('the web UI line', () => WEB_UI.exec(start.log()), 60_000);
      await until('the note on the browser', () => start.log().includes('threshold: not opening a browser:'));
      expect(start.log()).toContain('threshold: not opening a browser: there is no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set); open the address above in one');
    } finally {
      expect(await start.stop()).toEqual(0);
    }
  });
});
