// Seatbelt compares the real path of what a command touches (on macOS /tmp is /private/tmp, /etc is
// /private/etc, a workspace may be reached through a symbolic link), so a rule must name real paths or
// it matches nothing. This turns a jail spec's paths into the ones the kernel will see. The real-path
// lookup is passed in, so the rules are tested with a made-up file system.
import { basename, dirname } from 'node:path';
import type { JailSpec } from './spec';

/** realpathSync's shape: the real path, or a throw when the path cannot be resolved (not there). */
export type RealPath = (p: string) => string;

/** The real path of what `p` leads to; for a path that is not there (yet), its nearest existing folder's real path with the rest appended. */
export function resolvedPath(p: string, realpath: RealPath): string {
  if (p === '/' || p === '') return '/';
  try {
    return realpath(p);
  } catch {
    const parent = resolvedPath(dirname(p), realpath);
    return parent === '/' ? `/${basename(p)}` : `${parent}/${basename(p)}`;
  }
}

/** The real path of the entry itself: its folder resolved, its own name kept (a symbolic link stays the link, not its target). */
export function entryPath(p: string, realpath: RealPath): string {
  if (p === '/' || p === '') return '/';
  const parent = resolvedPath(dirname(p), realpath);
  return parent === '/' ? `/${basename(p)}` : `${parent}/${basename(p)}`;
}

/** For a deny: the entry and, when it is a link, what it leads to, so neither name escapes the rule. */
function bothNames(p: string, realpath: RealPath): string[] {
  const names = [entryPath(p, realpath), resolvedPath(p, realpath)];
  return names[0] === names[1] ? [names[0]!] : names;
}

/**
 * The spec with every path the profile names made real: what is allowed by the path its contents are
 * reached through, what is denied by both its own name and its target's, so that neither a symbolic link
 * nor /tmp's real name leaves a hole.
 */
export function canonicalSpec(spec: JailSpec, realpath: RealPath): JailSpec {
  const allow = (ps: readonly string[]) => [...new Set(ps.map((p) => resolvedPath(p, realpath)))];
  const deny = (ps: readonly string[]) => [...new Set(ps.flatMap((p) => bothNames(p, realpath)))];
  return {
    ...spec,
    workspace: resolvedPath(spec.workspace, realpath),
    cwd: resolvedPath(spec.cwd, realpath),
    home: resolvedPath(spec.home, realpath),
    extraWritable: allow(spec.extraWritable),
    hiddenDirs: deny(spec.hiddenDirs),
    hiddenFiles: deny(spec.hiddenFiles),
    emptiedFiles: deny(spec.emptiedFiles),
    readOnlyInWorkspace: deny(spec.readOnlyInWorkspace),
    absentProtected: spec.absentProtected.flatMap((p) => bothNames(p.path, realpath).map((path) => ({ path, dir: p.dir }))),
    // An exception is the granted entry itself, never a wider target.
    ...(spec.grantedCodePaths ? { grantedCodePaths: spec.grantedCodePaths.map((p) => entryPath(p, realpath)) } : {}),
  };
}
