// Can the jail start here? Tried once with a real bubblewrap run (Linux) or a real sandbox-exec run of a
// profile with every kind of rule (macOS, ./seatbelt-jail.ts); the answer names the cause and the fix.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { probeSeatbelt } from './seatbelt-jail';
import type { JailProbe } from './types';

export type { JailProbe } from './types';


export function findBwrap(): string | null {
  for (const p of ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap']) if (existsSync(p)) return p;
  return null;
}

export function probeJail(): JailProbe {
  if (process.platform === 'darwin') return probeSeatbelt();
  if (process.platform !== 'linux') {
    return { ok: false, cause: `Threshold's jail runs on Linux (bubblewrap) and macOS (Seatbelt), not on ${process.platform}`, fix: 'run Threshold on Linux or macOS, or enable [executor] unjailed = true knowingly' };
  }
  const bwrap = findBwrap();
  if (!bwrap) return { ok: false, cause: 'bubblewrap (bwrap) is not installed', fix: 'install it: sudo apt install bubblewrap (Debian/Ubuntu), sudo dnf install bubblewrap (Fedora)' };
  const r = spawnSync(bwrap, ['--unshare-user', '--unshare-pid', '--unshare-net', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', '/bin/true'], { encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0) {
    const v = spawnSync(bwrap, ['--version'], { encoding: 'utf8' });
    return { ok: true, bwrap, version: v.stdout.trim() };
  }
  const err = (r.stderr || r.error?.message || '').trim();
  if (/user namespace|uid map|setting up uid|Operation not permitted|Permission denied/i.test(err)) {
    return {
      ok: false,
      cause: `user namespaces are restricted on this system, so bubblewrap cannot start (${err.split('\n')[0]})`,
      fix: 'on Ubuntu 24.04+: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or install an AppArmor profile that allows bwrap to create user namespaces); elsewhere check user.max_user_namespaces',
    };
  }
  return { ok: false, cause: `bubblewrap failed to start a test jail (${err.split('\n')[0] || `exit ${r.status}`})`, fix: 'run bwrap by hand to see why; see docs/executor.md' };
}
