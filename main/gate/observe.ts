// Facts about a call that need the filesystem, gathered before the pure policy evaluates it.
import { realpathSync, statSync } from 'node:fs';
import type { ObservedFacts } from '../policy/tools';
import { resolvePath, type PathContext } from '../policy/paths';

export function observeCall(tool: string, args: unknown, cwd: string, ctx: PathContext): ObservedFacts {
  if (tool !== 'open_path' || !args || typeof args !== 'object') return {};
  const raw = (args as { path?: unknown }).path;
  if (typeof raw !== 'string' || raw === '') return {};
  const lexical = resolvePath(raw, cwd, ctx);
  if (!lexical) return {};
  try {
    const realPath = realpathSync(lexical);
    const st = statSync(realPath);
    return { realPath, executable: st.isFile() && (st.mode & 0o111) !== 0 };
  } catch {
    // A path that does not exist cannot be opened; the tool reports that when it runs.
    return { realPath: lexical };
  }
}
