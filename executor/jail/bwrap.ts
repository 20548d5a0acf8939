// The bubblewrap command line for a jail spec. Pure: tested as argv, without spawning.
import { awaitBridgeArgv } from '../egress/bridge';
import type { JailSpec } from './spec';

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
  for (const d of spec.hiddenDirs) a.push('--tmpfs', d, '--remount-ro', d);
  for (const f of spec.hiddenFiles) a.push('--ro-bind', spec.unreadableFile, f);
  for (const f of spec.emptiedFiles) a.push('--ro-bind', '/dev/null', f);
  a.push('--clearenv');
  for (const [k, v] of Object.entries(spec.env).sort(([x], [y]) => (x < y ? -1 : 1))) a.push('--setenv', k, v);
  a.push('--chdir', spec.cwd);
  if (spec.seccompFd !== undefined) a.push('--seccomp', String(spec.seccompFd));
  a.push('--', ...(spec.class === 'network' ? awaitBridgeArgv(argv) : argv));
  return a;
}
