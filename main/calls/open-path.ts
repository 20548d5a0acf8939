// The open_path runner: the path the card showed (its real path, observed before the decision), opened
// outside the jail by the desktop's own opener; the card's preview says what will open it.
import { openOnDesktop } from '../../executor/open-path';
import { observeCall } from '../gate/observe';
import { resolvePath, type PathContext } from '../policy/paths';
import type { Runner } from './runner';

export function openPathRunner(paths: () => PathContext, opener?: string[]): Runner<{ path?: unknown }> {
  return {
    preview: (args, cwd) => previewOpen(args, cwd, paths()),
    async run(args, ctx) {
      const realPath = resolvePath(String(args.path ?? '.'), ctx.cwd, paths())!;
      const started = performance.now();
      const r = await openOnDesktop(realPath, opener ? { opener } : {});
      return {
        status: r.ok ? 'succeeded' : 'failed',
        isError: !r.ok,
        exitCode: r.ok ? 0 : 1,
        signal: null,
        durationMs: Math.round(performance.now() - started),
        error: r.error,
        text: r.ok ? `Opened ${realPath} on the desktop.` : `Could not open ${realPath}: ${r.error}`,
      };
    },
  };
}

/** open_path: the real path behind the one asked for and the application that will open it, one fact a line. */
function previewOpen(args: { path?: unknown }, cwd: string, paths: PathContext): string | null {
  const o = observeCall('open_path', args, cwd, paths);
  if (!o.realPath) return null;
  const lines = [`real path: ${o.realPath}`];
  if (o.opener?.application) lines.push(`application: ${o.opener.application}`);
  if (o.opener?.mime) lines.push(`type: ${o.opener.mime}`);
  return lines.join('\n');
}
