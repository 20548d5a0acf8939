// The bubblewrap command line for a jail spec. Pure: tested as argv, without spawning.
import { PLACEHOLDER_FD_BASE } from '../containment';
import { awaitBridgeArgv } from '../egress/bridge';
import type { HomeView } from './home-view';
import type { JailSpec } from './spec';

/** How many empty files the command line copies from descriptors (fds 4, 5, …, each on /dev/null). */
export function placeholderFileCount(spec: JailSpec): number {
  return spec.homeView?.ops.filter((o) => o.op === 'file').length ?? 0;
}

function octal(mode: number): string {
  return mode.toString(8).padStart(4, '0');
}

/** The home folder's view: one tmpfs, what stays visible bound back, the hidden entries created on it. */
function homeViewArgs(v: HomeView): string[] {
  const a = ['--perms', octal(v.mode), '--tmpfs', v.home];
  let fd = PLACEHOLDER_FD_BASE;
  for (const o of v.ops) {
    // -try: an entry removed since planning is simply not there (a failed bind would stop the jail).
    if (o.op === 'bind') a.push('--ro-bind-try', o.path, o.path);
    else if (o.op === 'dir') a.push('--perms', octal(o.mode), '--dir', o.path);
    else if (o.op === 'file') a.push('--perms', '0000', '--file', String(fd++), o.path);
    else a.push('--symlink', o.target, o.path);
  }
  return a;
}

export function bwrapArgs(spec: JailSpec, argv: readonly string[]): string[] {
  const a: string[] = [];
  a.push('--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  // Every class gets its own, empty network namespace; a network-class call's only way out is the egress
  // proxy, bridged into that namespace once it exists (executor/egress/bridge.ts).
  a.push('--unshare-net');
  // No capabilities, even when Threshold runs as root (bwrap keeps them for root otherwise): without
  // CAP_SYS_ADMIN the hiding mounts cannot be unmounted, without CAP_DAC_OVERRIDE modes hold.
  a.push('--cap-drop', 'ALL', '--disable-userns', '--die-with-parent', '--new-session');
  // Read-only root; fresh /dev, /proc (this PID namespace only), private /tmp; /run hidden (host sockets).
  a.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp', '--tmpfs', '/run', '--tmpfs', '/dev/shm');
  // The home folder's view comes before the workspace (which may live in it) and is made read-only last,
  // once every mount point in it exists.
  if (spec.homeView) a.push(...homeViewArgs(spec.homeView));
  const covered = new Set(spec.homeView?.covered ?? []);
  // The workspace is mounted explicitly (it may live under /tmp, which is private): writable unless read.
  if (spec.class === 'read') a.push('--ro-bind', spec.workspace, spec.workspace);
  else {
    a.push('--bind', spec.workspace, spec.workspace);
    for (const p of spec.extraWritable) a.push('--bind', p, p);
    // Code that would later run outside the jail stays read-only inside the writable workspace.
    for (const p of spec.readOnlyInWorkspace) a.push('--ro-bind', p, p);
    for (const p of spec.absentProtected) {
      if (p.dir) a.push('--tmpfs', p.path, '--remount-ro', p.path);
      else a.push('--ro-bind', spec.emptyFile, p.path);
    }
  }
  for (const d of spec.hiddenDirs) if (!covered.has(d)) a.push('--tmpfs', d, '--remount-ro', d);
  for (const f of spec.hiddenFiles) if (!covered.has(f)) a.push('--ro-bind', spec.unreadableFile, f);
  for (const f of spec.emptiedFiles) if (!covered.has(f)) a.push('--ro-bind', '/dev/null', f);
  if (spec.homeView) a.push('--remount-ro', spec.homeView.home);
  a.push('--clearenv');
  for (const [k, v] of Object.entries(spec.env).sort(([x], [y]) => (x < y ? -1 : 1))) a.push('--setenv', k, v);
  a.push('--chdir', spec.cwd);
  if (spec.seccompFd !== undefined) a.push('--seccomp', String(spec.seccompFd));
  a.push('--', ...(spec.class === 'network' ? awaitBridgeArgv(argv) : argv));
  return a;
}
