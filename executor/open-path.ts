// Opening a file on the desktop (open_path): after approval, outside the jail, with the desktop's own
// opener (xdg-open on Linux, open on macOS). Which application will open it is looked up beforehand
// where the system can tell (xdg-mime, Launch Services through `open -R` is not queryable, so macOS
// shows only the type).
import { spawn, spawnSync } from 'node:child_process';

export interface OpenerInfo {
  /** The file's type, e.g. application/pdf. */
  mime: string | null;
  /** The application that will open it, e.g. org.gnome.Evince.desktop. */
  application: string | null;
}

function run(cmd: string, args: string[]): string | null {
  try {
    const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 2000 });
    return r.status === 0 ? r.stdout.trim() || null : null;
  } catch {
    return null;
  }
}

export function describeOpener(path: string, platform: NodeJS.Platform = process.platform): OpenerInfo {
  const mime = run('xdg-mime', ['query', 'filetype', path]) ?? run('file', ['--brief', '--mime-type', path]);
  if (platform !== 'linux' || !mime) return { mime, application: null };
  return { mime, application: run('xdg-mime', ['query', 'default', mime]) };
}

/** The environment a desktop opener needs: the display and session bus, nothing secret. */
const DESKTOP_ENV = /^(DISPLAY|WAYLAND_DISPLAY|XAUTHORITY|DBUS_SESSION_BUS_ADDRESS|XDG_[A-Z_]+|HOME|PATH|LANG|LC_[A-Z]+|USER|DESKTOP_SESSION)$/;

export interface OpenResult {
  ok: boolean;
  error: string | null;
}

/** Opens an already approved, already resolved path. `opener` is injectable for tests. */
export function openOnDesktop(realPath: string, opts: { opener?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<OpenResult> {
  const opener = opts.opener ?? (process.platform === 'darwin' ? ['open'] : ['xdg-open']);
  const env = Object.fromEntries(Object.entries(opts.env ?? process.env).filter(([k, v]) => v !== undefined && DESKTOP_ENV.test(k))) as NodeJS.ProcessEnv;
  return new Promise((resolve) => {
    let stderr = '';
    // The path is absolute (resolved), so it cannot be taken for an option.
    const child = spawn(opener[0]!, [...opener.slice(1), realPath], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (e) => resolve({ ok: false, error: `${opener[0]} could not start: ${e.message}` }));
    child.on('close', (code) => resolve(code === 0 ? { ok: true, error: null } : { ok: false, error: stderr.trim().split('\n')[0] || `${opener[0]} exited with ${code}` }));
  });
}
