// Recognises when the jail, not the task, made a command fail: a write to a read-only location, a read
// of a path the jail hides, or a network call without a network. Detected from what the command printed.
import { posix } from 'node:path';
import type { JailClass, JailViolation } from './types';

const QUOTED = /['"‘’`]([^'"‘’`\n]+)['"‘’`]/;
// EBUSY: in the jail, a read-only bind is a mount point, so deleting or renaming it fails this way.
const EROFS = /Read-only file system|EROFS|\[Errno 30\]|Device or resource busy|EBUSY|\[Errno 16\]/;
const NETWORK = /Could not resolve host|Temporary failure in name resolution|Name or service not known|Network is unreachable|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|nodename nor servname|Failed to establish a new connection|Network unreachable|No address associated with hostname|could not resolve|ENETUNREACH/i;
const HOST = /(?:host|resolve)\s*:?\s*['"]?([a-z0-9.-]+\.[a-z]{2,})['"]?/i;

export interface DenialContext {
  class: JailClass;
  /** Where the command ran, for relative paths in messages. */
  cwd: string;
  /** What the jail hid in this run: a failed read of one of them (or inside one) is the jail's doing. */
  hidden?: { dirs: readonly string[]; files: readonly string[] };
  /** The jail refuses with EPERM ("Operation not permitted"), reads and writes alike (macOS's Seatbelt). */
  eperm?: boolean;
}

const EPERM = /Operation not permitted|EPERM|\[Errno 1\]/;

const READ_FAILED = /Permission denied|No such file or directory|EACCES|ENOENT|\[Errno (2|13)\]|cannot open|can't open|not found/i;

function isHidden(path: string, hidden: NonNullable<DenialContext['hidden']>): boolean {
  return hidden.files.includes(path) || hidden.dirs.some((d) => path === d || path.startsWith(d + '/'));
}

/** Every path-like word of a line: quoted strings and words with a slash, resolved against cwd. */
function pathsIn(line: string, cwd: string): string[] {
  const out = new Set<string>();
  for (const m of line.matchAll(/['"‘’`]([^'"‘’`\n]+)['"‘’`]/g)) out.add(posix.resolve(cwd, m[1]!));
  for (const m of line.matchAll(/(?:^|[\s:=(])((?:~|\.{1,2})?\/?[^\s:'"‘’`()]*[^\s:'"‘’`().,;])/g)) {
    const w = m[1]!;
    if (w.includes('/') || w.startsWith('.')) out.add(posix.resolve(cwd, w));
  }
  return [...out];
}

export function detectViolations(output: string, ctx: DenialContext): JailViolation[] {
  const out: JailViolation[] = [];
  const seen = new Set<string>();
  for (const line of output.split('\n')) {
    if (ctx.eperm && EPERM.test(line)) {
      // Seatbelt refuses a hidden path's read and a write outside the writable paths the same way: a hidden
      // path in the line says which (reads of anything else are allowed); a connect() refusal names no path.
      const hiddenPaths = ctx.hidden ? pathsIn(line, ctx.cwd).filter((p) => isHidden(p, ctx.hidden!)) : [];
      for (const path of hiddenPaths) {
        if (seen.has(`r:${path}`)) continue;
        seen.add(`r:${path}`);
        out.push({ kind: 'read_denied', target: path, evidence: line.trim().slice(0, 300) });
      }
      const path = hiddenPaths.length ? null : extractPath(line, ctx.cwd);
      if (path && !seen.has(`w:${path}`)) {
        seen.add(`w:${path}`);
        out.push({ kind: 'write_denied', target: path, evidence: line.trim().slice(0, 300) });
      }
    } else if (EROFS.test(line)) {
      // Every read-only file system error comes from the jail: the host's own files are writable to the user.
      const path = extractPath(line, ctx.cwd);
      if (!path || seen.has(`w:${path}`)) continue;
      seen.add(`w:${path}`);
      out.push({ kind: 'write_denied', target: path, evidence: line.trim().slice(0, 300) });
    } else if (ctx.hidden && READ_FAILED.test(line)) {
      for (const path of pathsIn(line, ctx.cwd)) {
        if (!isHidden(path, ctx.hidden) || seen.has(`r:${path}`)) continue;
        seen.add(`r:${path}`);
        out.push({ kind: 'read_denied', target: path, evidence: line.trim().slice(0, 300) });
      }
    } else if (NETWORK.test(line)) {
      // In a network-class jail too: there is no DNS and no route there, only the egress proxy.
      const host = HOST.exec(line)?.[1] ?? 'the network';
      const key = `n:${host}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ kind: 'network_denied', target: host, evidence: line.trim().slice(0, 300) });
      }
    }
  }
  return out;
}

function extractPath(line: string, cwd: string): string | null {
  // "bash: line 1: .git/hooks/pre-commit: Read-only file system", "touch: cannot touch 'x': Read-only …"
  // "mv: cannot move 'a' to 'b': Device or resource busy": the source is what the jail kept in place.
  const moved = /cannot move ['"‘’`]([^'"‘’`\n]+)['"‘’`] to/.exec(line);
  if (moved) return posix.resolve(cwd, moved[1]!);
  const before = /([^\s:'"‘’`]+)['"‘’`]?:\s*(?:Read-only file system|Device or resource busy|Operation not permitted)/.exec(line);
  if (before) return posix.resolve(cwd, before[1]!);
  const q = QUOTED.exec(line);
  if (q) return posix.resolve(cwd, q[1]!);
  const m = /(\/[^\s:'"]+)/.exec(line);
  if (m) return m[1]!;
  return null;
}
