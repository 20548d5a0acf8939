// The Electron window and its session, hardened: an isolated, sandboxed renderer without Node, served
// from an app:// protocol (never file://) with a strict CSP; no navigation away, no new windows, no
// webviews, every permission request denied. Electron's objects are injected (WindowDeps), so each
// setting is asserted in unit tests with fakes; index.ts passes the real ones.
import { readFileSync } from 'node:fs';
import { resolveStatic } from '../web/static';

export const APP_SCHEME = 'app';
export const APP_HOST = 'threshold';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/** Privileges for app:// (registered before the app is ready): a standard, secure origin, no CORS bypass. */
export const APP_SCHEME_PRIVILEGES = { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, bypassCSP: false, stream: false } } as const;

/** The window's CSP: only the app's own files; it talks to the main process over IPC, never the network. */
export function windowCsp(devUrl?: string): string {
  // The dev server (npm run dev) needs its own origin, its HMR socket and React Refresh's inline preamble.
  const dev = devUrl ? new URL(devUrl) : null;
  return [
    "default-src 'self'",
    dev ? `script-src 'self' 'unsafe-inline' ${dev.origin}` : "script-src 'self'",
    dev ? `style-src 'self' 'unsafe-inline' ${dev.origin}` : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    dev ? `connect-src 'self' ${dev.origin} ws://${dev.host}` : "connect-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const WEB_PREFERENCES = {
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
  // Middle-click would open links in new windows (denied anyway by the window-open handler).
  disableBlinkFeatures: 'Auxclick',
} as const;

// ── the slices of Electron this module uses ─────────────────────────────────────────────────────────

export interface EventLike {
  preventDefault(): void;
}

export interface WebContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: EventLike, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: EventLike) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface BrowserWindowLike {
  webContents: WebContentsLike;
  on(event: 'closed', listener: () => void): unknown;
  loadURL(url: string): Promise<void>;
}

export type BrowserWindowOptions = {
  width: number;
  height: number;
  title: string;
  show: boolean;
  webPreferences: typeof WEB_PREFERENCES & { preload: string };
};

export interface SessionLike {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  setDevicePermissionHandler?(handler: () => boolean): void;
  webRequest: { onHeadersReceived(listener: (details: { responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders: Record<string, string[]> }) => void) => void): void };
}

export interface ProtocolLike {
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
}

export interface WindowDeps {
  createBrowserWindow: (options: BrowserWindowOptions) => BrowserWindowLike;
  preload: string;
  /** The dev server's address (npm run dev); absent in a build. */
  devUrl?: string;
}

/** Whether a frame URL is the app's own renderer (IPC refuses every other sender). */
export function isAppUrl(url: string, devUrl?: string): boolean {
  if (devUrl && url.startsWith(new URL(devUrl).origin + '/')) return true;
  return url.startsWith(APP_ORIGIN + '/');
}

/** Opens the window; navigation away, new windows and webviews are refused. */
export function createWindow(deps: WindowDeps): BrowserWindowLike {
  const window = deps.createBrowserWindow({ width: 1100, height: 760, title: 'Threshold', show: true, webPreferences: { ...WEB_PREFERENCES, preload: deps.preload } });
  const contents = window.webContents;
  const stay = (event: EventLike, url: string) => {
    if (!isAppUrl(url, deps.devUrl)) event.preventDefault();
  };
  contents.on('will-navigate', stay);
  contents.on('will-redirect', stay);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // Links the model wrote never open a window (nor a browser) by themselves.
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  void window.loadURL(deps.devUrl ?? APP_URL);
  return window;
}

/** Denies every permission (camera, microphone, notifications from the page, geolocation, devices…) and sets the CSP on every response. */
export function hardenSession(session: SessionLike, devUrl?: string): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler?.(() => false);
  const csp = windowCsp(devUrl);
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = Object.fromEntries(Object.entries(details.responseHeaders ?? {}).filter(([k]) => k.toLowerCase() !== 'content-security-policy'));
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [csp], 'X-Content-Type-Options': ['nosniff'] } });
  });
}

/** Serves out/renderer at app://threshold/ with the window's CSP; anything outside the bundle is not found. */
export function registerAppProtocol(protocol: ProtocolLike, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => appResponse(request.url, rendererDir));
}

export function appResponse(url: string, rendererDir: string): Response {
  const headers = { 'Content-Security-Policy': windowCsp(), 'X-Content-Type-Options': 'nosniff' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return new Response('Not found.', { status: 404, headers });
  }
  const file = parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST ? resolveStatic(rendererDir, parsed.pathname) : null;
  if (!file) return new Response('Not found.', { status: 404, headers });
  return new Response(readFileSync(file.file), { status: 200, headers: { ...headers, 'Content-Type': file.type } });
}
