// The window's and the session's security settings, each asserted with injected fakes of Electron's
// objects (no Electron binary runs here), with the case that would get past each rule.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_SCHEME_PRIVILEGES, appResponse, createWindow, hardenSession, isAppUrl, registerAppProtocol, windowCsp, type BrowserWindowLike, type BrowserWindowOptions, type EventLike, type SessionLike } from './window';

type Listener = (event: EventLike, url?: string) => void;

function fakeWindow() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((d: { url: string }) => { action: string }) | null = null;
  const made: { options: BrowserWindowOptions | null; loaded: string | null } = { options: null, loaded: null };
  const window = {
    webContents: {
      on: (event: string, listener: (event: EventLike, url: string) => void) => listeners.set(event, listener as Listener),
      setWindowOpenHandler: (h: typeof openHandler) => void (openHandler = h),
    },
    on: () => undefined,
    loadURL: async (url: string) => void (made.loaded = url),
  };
  const create = (options: BrowserWindowOptions): BrowserWindowLike => ((made.options = options), window as unknown as BrowserWindowLike);
  /** Fires a navigation-like event; true when the window let it happen. */
  const fire = (event: string, url?: string) => {
    let prevented = false;
    listeners.get(event)!({ preventDefault: () => void (prevented = true) }, url);
    return !prevented;
  };
  return { create, made, fire, openWindow: (url: string) => openHandler!({ url }) };
}

describe('the Electron window', () => {
  it('isolates and sandboxes the renderer, without Node and with web security, and loads app://', () => {
    const w = fakeWindow();
    createWindow({ createBrowserWindow: w.create, preload: '/opt/threshold/out/preload/index.mjs' });
    expect(w.made).toEqual({
      options: {
        width: 1100,
        height: 760,
        title: 'Threshold',
        show: true,
        webPreferences: {
          preload: '/opt/threshold/out/preload/index.mjs',
          contextIsolation: true,
          sandbox: true,
          nodeIntegration: false,
          nodeIntegrationInWorker: false,
          nodeIntegrationInSubFrames: false,
          webSecurity: true,
          allowRunningInsecureContent: false,
          webviewTag: false,
          experimentalFeatures: false,
          navigateOnDragDrop: false,
          safeDialogs: true,
          spellcheck: false,
          disableBlinkFeatures: 'Auxclick',
        },
      },
      loaded: 'app://threshold/index.html',
    });
  });

  it.each([
    { name: 'a page of the app', event: 'will-navigate', url: 'app://threshold/index.html#grants', allowed: true },
    { name: 'a web page', event: 'will-navigate', url: 'https://evil.example/', allowed: false },
    { name: 'a local file', event: 'will-navigate', url: 'file:///etc/passwd', allowed: false },
    { name: 'another app:// host', event: 'will-navigate', url: 'app://evil/index.html', allowed: false },
    { name: 'a look-alike prefix', event: 'will-navigate', url: 'app://threshold.evil.example/', allowed: false },
    { name: 'a javascript: URL', event: 'will-navigate', url: 'javascript:alert(1)', allowed: false },
    { name: 'a redirect to the web', event: 'will-redirect', url: 'https://evil.example/', allowed: false },
    { name: 'a webview', event: 'will-attach-webview', url: undefined, allowed: false },
  ])('navigation to $name: allowed $allowed', ({ event, url, allowed }) => {
    const w = fakeWindow();
    createWindow({ createBrowserWindow: w.create, preload: '/p' });
    expect(w.fire(event, url)).toBe(allowed);
  });

  it.each(['https://example.com/', 'app://threshold/index.html', 'about:blank'])('denies window.open(%s)', (url) => {
    const w = fakeWindow();
    createWindow({ createBrowserWindow: w.create, preload: '/p' });
    expect(w.openWindow(url)).toEqual({ action: 'deny' });
  });

  it.each([
    { url: 'app://threshold/index.html', dev: undefined, trusted: true },
    { url: 'app://threshold.evil/index.html', dev: undefined, trusted: false },
    { url: 'file:///opt/threshold/out/renderer/index.html', dev: undefined, trusted: false },
    { url: 'http://localhost:5173/', dev: undefined, trusted: false },
    { url: 'http://localhost:5173/', dev: 'http://localhost:5173', trusted: true },
    { url: 'http://localhost:51730/', dev: 'http://localhost:5173', trusted: false },
  ])('trusts the frame $url (dev server $dev): $trusted', ({ url, dev, trusted }) => {
    expect(isAppUrl(url, dev)).toBe(trusted);
  });
});

describe('the session', () => {
  function fakeSession() {
    const s = {
      request: null as null | ((wc: unknown, permission: string, cb: (granted: boolean) => void) => void),
      check: null as null | (() => boolean),
      device: null as null | (() => boolean),
      headers: null as null | ((d: { responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void),
    };
    const session: SessionLike = {
      setPermissionRequestHandler: (h) => void (s.request = h),
      setPermissionCheckHandler: (h) => void (s.check = h),
      setDevicePermissionHandler: (h) => void (s.device = h),
      webRequest: { onHeadersReceived: (l) => void (s.headers = l) },
    };
    return { s, session };
  }

  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'hid', 'fullscreen'])('denies the permission request %s', (permission) => {
    const { s, session } = fakeSession();
    hardenSession(session);
    let granted: boolean | null = null;
    s.request!({}, permission, (g) => (granted = g));
    expect({ granted, check: s.check!(), device: s.device!() }).toEqual({ granted: false, check: false, device: false });
  });

  it("replaces a response's own CSP with the window's", () => {
    const { s, session } = fakeSession();
    hardenSession(session);
    let out: Record<string, string[]> = {};
    s.headers!({ responseHeaders: { 'content-security-policy': ["default-src *; script-src 'unsafe-inline'"], 'Content-Type': ['text/html'] } }, (r) => (out = r.responseHeaders));
    expect(out).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [windowCsp()], 'X-Content-Type-Options': ['nosniff'] });
    expect(windowCsp()).toEqual("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  });
});

describe('the app:// protocol', () => {
  let bundle: string;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-app-'));
    bundle = join(dir, 'renderer');
    mkdirSync(join(bundle, 'assets'), { recursive: true });
    writeFileSync(join(bundle, 'index.html'), '<!doctype html>');
    writeFileSync(join(bundle, 'assets', 'a.js'), 'export {}');
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    symlinkSync(join(dir, 'secret.txt'), join(bundle, 'link.txt'));
  });

  it('is registered as a standard, secure scheme that bypasses nothing', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, bypassCSP: false, stream: false } });
  });

  it('serves the bundle through the registered handler, with the CSP', async () => {
    let handler: ((r: Request) => Response | Promise<Response>) | null = null;
    registerAppProtocol({ handle: (scheme, h) => void (scheme === 'app' && (handler = h)) }, bundle);
    const r = await handler!(new Request('app://threshold/assets/a.js'));
    expect({ status: r.status, type: r.headers.get('content-type'), csp: r.headers.get('content-security-policy'), body: await r.text() }).toEqual({ status: 200, type: 'text/javascript; charset=utf-8', csp: windowCsp(), body: 'export {}' });
  });

  it.each([
    { name: 'the shell', url: 'app://threshold/', status: 200 },
    { name: 'an encoded parent directory', url: 'app://threshold/%2e%2e/secret.txt', status: 404 },
    { name: 'an encoded slash and parent', url: 'app://threshold/assets%2f..%2f..%2fsecret.txt', status: 404 },
    { name: 'a symlink out of the bundle', url: 'app://threshold/link.txt', status: 404 },
    { name: 'a directory', url: 'app://threshold/assets', status: 404 },
    { name: 'another host', url: 'app://evil/index.html', status: 404 },
    { name: 'a missing file', url: 'app://threshold/nope.js', status: 404 },
  ])('answers $name with $status', ({ url, status }) => {
    expect(appResponse(url, bundle).status).toBe(status);
  });
});
