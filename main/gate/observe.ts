// Facts about a call that need the filesystem, gathered before the pure policy evaluates it.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describeOpener } from '../../executor/open-path';
import type { ObservedFacts } from '../policy/tools';
import { resolvePath, type PathContext } from '../policy/paths';

const PATH_TOOLS = new Set(['open_path', 'read_file', 'list_dir', 'search_files', 'write_file', 'edit_file']);

/**
 * The real path behind a file tool's path (symlinks followed), so a link in the workspace that points
 * at ~/.ssh is judged as ~/.ssh. For a file that does not exist yet, its nearest existing ancestor is
 * resolved and the rest appended.
 */
export function observeCall(tool: string, args: unknown, cwd: string, ctx: PathContext): ObservedFacts {
  if (!PATH_TOOLS.has(tool) || !args || typeof args !== 'object') return {};
  const raw = (args as { path?: unknown }).path ?? (tool === 'search_files' ? '.' : undefined);
  if (typeof raw !== 'string' || raw === '') return {};
  const lexical = resolvePath(raw, cwd, ctx);
  if (!lexical) return {};
  try {
    const realPath = realpathSync(lexical);
    const st = statSync(realPath);
    const observed: ObservedFacts = { realPath, executable: st.isFile() && (st.mode & 0o111) !== 0 };
    if (tool === 'open_path') observed.opener = describeOpener(realPath);
    return observed;
  } catch {
    return { realPath: realOfNearestAncestor(lexical) };
  }
}

function realOfNearestAncestor(path: string): string {
  const rest: string[] = [];
  let dir = path;
  while (dir !== '/') {
    rest.unshift(basename(dir));
    dir = dirname(dir);
    try {
      return join(realpathSync(dir), ...rest);
    } catch {
      // keep climbing
    }
  }
  return path;
}
