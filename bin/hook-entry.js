// @ts-check
// The fast path of `threshold hook <agent>` (it runs before every tool call of another agent): the hook's
// own bundle, when it is built and none of the files it was built from changed since. Reads one small
// JSON file and stats a handful of sources; anything else (no build, a changed source) returns null and
// bin/threshold.js takes the ordinary path, which rebuilds.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** @returns {string | null} the hook bundle's absolute path when it is fresh */
export function freshHookEntry(root = ROOT) {
  try {
    const m = JSON.parse(readFileSync(join(root, 'out', 'cli.json'), 'utf8'));
    const hook = m?.hook;
    if (typeof m?.startedAt !== 'number' || typeof hook?.entry !== 'string' || !Array.isArray(hook.inputs)) return null;
    for (const file of [...hook.inputs, 'bin/cli-bundle.js', 'bin/hook-entry.js', 'package.json']) {
      if (statSync(join(root, file)).mtimeMs >= m.startedAt) return null;
    }
    const entry = join(root, hook.entry);
    statSync(entry);
    return entry;
  } catch {
    return null;
  }
}
