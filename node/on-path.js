// @ts-check
// Whether a program is installed: the PATH search the set-up check (bin/setup.js) and the browser opener
// (main/cli/open-browser.ts) share, so both agree on what is there.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {(program: string) => boolean}
 */
export function onPathOf(env) {
  return (program) =>
    (env['PATH'] ?? '').split(delimiter).some((dir) => {
      if (!dir) return false;
      try {
        accessSync(join(dir, program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}
