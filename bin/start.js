#!/usr/bin/env node
// `npm start`: builds the three bundles, then starts the Electron app. Electron fetches its own binary
// on first use; where that is impossible (no access to GitHub), say so plainly instead of failing late.
import { spawnSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

const build = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('threshold: the build failed (see above); nothing was started.');
  process.exit(build.status ?? 1);
}

let electronPath;
try {
  electronPath = require('electron');
} catch (err) {
  console.error(
    [
      '',
      'threshold: the Electron runtime is not available on this machine.',
      `  cause: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
      '  Electron downloads its binary from GitHub on first start; this machine cannot reach it.',
      '  fix: run `npm start` on a machine with internet access once (the binary is then cached),',
      '       or set ELECTRON_OVERRIDE_DIST_PATH to a folder that holds an Electron 45 binary.',
      '  The classifier and policy work without Electron: npm run -s cli -- help',
    ].join('\n'),
  );
  process.exit(1);
}

const child = spawn(electronPath, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
