// The macOS sandbox-exec (Seatbelt) profile for a jail spec, with the same intent as the bubblewrap
// jail: read everything but credentials, write only the workspace (and grants) for write classes, keep
// outside-jail code read-only, network only for the network class. Pure: tested as text.
import type { JailSpec } from './spec';

function quote(p: string): string {
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(spec: JailSpec): string {
  const lines = ['(version 1)', '(deny default)', '(allow process-exec)', '(allow process-fork)', '(allow signal (target same-sandbox))', '(allow sysctl-read)', '(allow mach-lookup)', '(allow ipc-posix-shm)', '(allow file-read*)'];
  for (const d of spec.hiddenDirs) lines.push(`(deny file-read* (subpath ${quote(d)}))`);
  for (const f of [...spec.hiddenFiles, ...spec.emptiedFiles]) lines.push(`(deny file-read* (literal ${quote(f)}))`);
  lines.push('(allow file-write* (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty"))');
  if (spec.class !== 'read') {
    lines.push(`(allow file-write* (subpath ${quote(spec.workspace)}))`);
    for (const p of spec.extraWritable) lines.push(`(allow file-write* (subpath ${quote(p)}))`);
    for (const p of [...spec.readOnlyInWorkspace, ...spec.absentProtected.map((x) => x.path)]) lines.push(`(deny file-write* (subpath ${quote(p)}))`);
  }
  if (spec.class === 'network') lines.push('(allow network*)');
  else lines.push('(deny network*)', '(allow network* (local unix-socket))', '(deny network-outbound (remote unix-socket))');
  return lines.join('\n') + '\n';
}

export function sandboxExecArgs(spec: JailSpec, argv: readonly string[]): string[] {
  return ['-p', seatbeltProfile(spec), ...argv];
}
