// The hook command's own small bundle (out/cli-<id>/hook.mjs): bin/threshold.js starts it directly for
// `threshold hook <agent>` and `threshold hook run`, without the command line's bundle, its staleness
// check or anything the core needs. What it imports is listed in out/cli.json, so a changed source still
// sends the command through a rebuild.
import { hookMain } from './client';

export function main(argv: string[]): Promise<number> {
  return hookMain(argv, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, self: [process.execPath, process.argv[1] ?? 'threshold'] });
}
