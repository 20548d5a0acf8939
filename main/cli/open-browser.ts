// `serve --open` (what `npm start` runs when Electron cannot start): opens the web UI in the default
// browser. The address carries the web token, which must not appear on a command line (any local user
// can read another's argv in /proc, and a browser started by the opener keeps it for its whole life),
// so the browser is given a page in the data directory (0700, the page 0600) that forwards to the address.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { onPathOf } from '../../node/on-path.js';

export type Opener = { ok: true; argv: string[] } | { ok: false; why: string };

export interface OpenerContext {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Whether a program is on PATH (injected for tests). */
  onPath?: (program: string) => boolean;
}

/**
 * The command that opens `target` in the user's browser, or why there is none. $BROWSER (the convention
 * xdg-open and Python's webbrowser follow) wins; then `open` on macOS, `xdg-open` in a graphical session.
 */
export function browserOpener(target: string, c: OpenerContext): Opener {
  const onPath = c.onPath ?? onPathOf(c.env);
  const browser = c.env['BROWSER']?.split(':')[0]?.trim();
  if (browser) return { ok: true, argv: [browser, target] };
  if (c.platform === 'darwin') return { ok: true, argv: ['open', target] };
  if (c.platform === 'win32') return { ok: false, why: 'opening a browser on Windows is not supported; open the address by hand' };
  if (!c.env['DISPLAY'] && !c.env['WAYLAND_DISPLAY']) return { ok: false, why: 'there is no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  if (!onPath('xdg-open')) return { ok: false, why: 'xdg-open is not installed (Debian/Ubuntu: xdg-utils)' };
  return { ok: true, argv: ['xdg-open', target] };
}

const PAGE = 'open-web-ui.html';

/** The forwarding page, private to the user (the data directory is 0700, checked at start). */
export function writeForwardingPage(dataDir: string, url: string): string {
  const file = join(dataDir, PAGE);
  const href = JSON.stringify(url).replace(/</g, '\\u003c');
  const attr = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  rmSync(file, { force: true });
  writeFileSync(
    file,
    `<!doctype html>\n<meta charset="utf-8">\n<title>Threshold</title>\n<meta http-equiv="refresh" content="0; url=${attr}">\n<script>location.replace(${href});</script>\n<p><a href="${attr}">Open Threshold</a></p>\n`,
    { mode: 0o600 },
  );
  return file;
}

export interface OpenResult {
  opened: boolean;
  /** What to tell the user. */
  message: string;
}

/** Opens the web UI at `url` in the default browser; never throws (the printed address still works). */
export async function openWebUi(url: string, dataDir: string, c: OpenerContext): Promise<OpenResult> {
  let page: string;
  try {
    page = writeForwardingPage(dataDir, url);
  } catch (err) {
    return { opened: false, message: `could not write ${join(dataDir, PAGE)} (${(err as Error).message}); open the address above in a browser` };
  }
  const opener = browserOpener(pathToFileURL(page).href, c);
  if (!opener.ok) return { opened: false, message: `not opening a browser: ${opener.why}; open the address above in one` };
  const [program, ...args] = opener.argv as [string, ...string[]];
  const exit = await new Promise<{ code: number | null; error?: string }>((resolve) => {
    // Detached and unreferenced: a browser the opener starts outlives this process, and Ctrl-C on the
    // daemon must not close it.
    const child = spawn(program, args, { stdio: 'ignore', detached: true, env: c.env });
    child.once('error', (err) => resolve({ code: null, error: err.message }));
    child.once('exit', (code) => resolve({ code }));
    child.unref();
    // $BROWSER may be the browser itself, which runs until closed: still running after a while is success.
    setTimeout(() => resolve({ code: 0 }), 3000).unref();
  });
  if (exit.error || exit.code !== 0) return { opened: false, message: `${program} failed (${exit.error ?? `exit ${exit.code}`}); open the address above in a browser` };
  return { opened: true, message: `opened the web UI in your browser (${program})` };
}
