#!/usr/bin/env node
// The `threshold` command: runs the bundled JavaScript the build produces (bin/cli-bundle.js), building it
// first when it is missing or older than its sources, so a fresh checkout and the tests work unchanged.
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// A one-off command parses a few commands at most: V8's optimising compiler would only start on the
// parser's WebAssembly, and Node would wait for it at exit (about 1.4 s after a classification here).
// The daemon keeps the optimised code; everything else runs on the baseline compiler.
if (process.argv[2] !== 'serve') setFlagsFromString('--liftoff-only');

// Another agent's hook runs `threshold hook <agent>` before each of its tool calls: it starts from its own
// small bundle when that one is fresh (bin/hook-entry.js), never loading the command line's.
const hookCommand = process.argv[2] === 'hook' && !['install', 'uninstall', undefined].includes(process.argv[3]);
const hookEntry = hookCommand ? (await import('./hook-entry.js')).freshHookEntry() : null;
process.exitCode = hookEntry ? await (await import(pathToFileURL(hookEntry).href)).main(process.argv.slice(3)) : await ordinary();

/** Builds the command line's bundle when it is missing or stale, then runs the command. */
async function ordinary() {
  const { ensureCliBundle } = await import('./cli-bundle.js');
  let entry;
  try {
    // Only people watching hear about a rebuild; scripts and tests get the command's own output.
    entry = await ensureCliBundle({ log: process.stderr.isTTY ? (line) => process.stderr.write(`threshold: ${line}…\n`) : undefined });
  } catch (err) {
    const code = /** @type {{ code?: string }} */ (err).code;
    // A checkout someone else owns (a global install) cannot be built into by this user.
    const hint = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? ' The command line must be built by whoever owns this checkout: npm run build.' : '';
    process.stderr.write(`threshold: ${err instanceof Error ? err.message : String(err)}${hint}\n`);
    process.exit(1);
  }
  const { main } = await import(pathToFileURL(entry).href);
  return main(process.argv.slice(2));
}
