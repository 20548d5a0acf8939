import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { browserOpener, openWebUi, writeForwardingPage, type Opener, type OpenerContext } from './open-browser';

const linux = (env: NodeJS.ProcessEnv, onPath: (p: string) => boolean = (p) => p === 'xdg-open'): OpenerContext => ({ platform: 'linux', env, onPath });

describe('which command opens the browser', () => {
  it.each<[string, OpenerContext, Opener]>([
    ['$BROWSER wins everywhere', { platform: 'darwin', env: { BROWSER: 'firefox' }, onPath: () => false }, { ok: true, argv: ['firefox', 'file:///x.html'] }],
    ['$BROWSER as a list takes its first entry', linux({ BROWSER: 'chromium:firefox' }), { ok: true, argv: ['chromium', 'file:///x.html'] }],
    ['macOS uses open', { platform: 'darwin', env: {}, onPath: () => false }, { ok: true, argv: ['open', 'file:///x.html'] }],
    ['Linux with X uses xdg-open', linux({ DISPLAY: ':0' }), { ok: true, argv: ['xdg-open', 'file:///x.html'] }],
    ['Linux with Wayland uses xdg-open', linux({ WAYLAND_DISPLAY: 'wayland-0' }), { ok: true, argv: ['xdg-open', 'file:///x.html'] }],
    ['Linux without a graphical session opens nothing', linux({}), { ok: false, why: 'there is no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set)' }],
    ['Linux without xdg-open names the package', linux({ DISPLAY: ':0' }, () => false), { ok: false, why: 'xdg-open is not installed (Debian/Ubuntu: xdg-utils)' }],
    ['Windows opens nothing', { platform: 'win32', env: {}, onPath: () => true }, { ok: false, why: 'opening a browser on Windows is not supported; open the address by hand' }],
  ])('%s', (_, ctx, expected) => {
    expect(browserOpener('file:///x.html', ctx)).toEqual(expected);
  });
});

describe('the forwarding page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threshold-open-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is private to the user and forwards to the address, which is never markup', () => {
    const url = 'http://127.0.0.1:1234/#token=a"b<c&d';
    const file = writeForwardingPage(dir, url);
    const text = readFileSync(file, 'utf8');
    expect({
      mode: statSync(file).mode & 0o777,
      refresh: text.includes('content="0; url=http://127.0.0.1:1234/#token=a&quot;b&lt;c&amp;d"'),
      script: text.includes('location.replace("http://127.0.0.1:1234/#token=a\\"b\\u003cc&d")'),
      rawAngle: text.includes('b<c'),
    }).toEqual({ mode: 0o600, refresh: true, script: true, rawAngle: false });
  });

  it.each<[string, NodeJS.ProcessEnv, { opened: boolean; message: string }]>([
    ['an opener that fails is reported, not thrown', { BROWSER: 'false' }, { opened: false, message: 'false failed (exit 1); open the address above in a browser' }],
    ['an opener that is missing is reported, not thrown', { BROWSER: '/nonexistent/browser' }, { opened: false, message: '/nonexistent/browser failed (spawn /nonexistent/browser ENOENT); open the address above in a browser' }],
    ['an opener that succeeds is named', { BROWSER: 'true', PATH: process.env['PATH'] }, { opened: true, message: 'opened the web UI in your browser (true)' }],
  ])('%s', async (_, env, expected) => {
    expect(await openWebUi('http://127.0.0.1:1/#token=t', dir, { platform: 'linux', env: { PATH: process.env['PATH'], ...env } })).toEqual(expected);
  });
});
