#!/usr/bin/env node
// `npm start`: the desktop app where Electron can run. Where it cannot (its binary cannot be downloaded,
// no graphical session, or `npm start -- --web`), the same UI in web mode: `threshold serve --open`,
// which prints `threshold: web UI: <url>` and opens it in the default browser where there is one.
// Either way the core (store, gate, agent, executor) runs on this Node, the one that ran `npm ci` and
// built the native modules: the desktop shell is told which (THRESHOLD_NODE) and starts the core with it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCliBundle } from './cli-bundle.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const say = (line) => process.stderr.write(`threshold: ${line}\n`);

/** The Electron binary, or why there is none. Electron downloads it from GitHub on first use. */
function electronBinary() {
  if (process.argv.includes('--web')) return { ok: false, why: 'web mode was asked for (--web)' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return { ok: false, why: 'there is no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  try {
    const path = require('electron');
    if (typeof path === 'string' && existsSync(path)) return { ok: true, path };
    return { ok: false, why: `no Electron binary at ${path}${process.env.ELECTRON_OVERRIDE_DIST_PATH ? ' (ELECTRON_OVERRIDE_DIST_PATH)' : ''}` };
  } catch (err) {
    const cause = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { ok: false, why: `Electron could not download its binary (from GitHub): ${cause}` };
  }
}

/** Runs a child with our stdio, passes SIGINT/SIGTERM on, and ends with its exit code. */
function runChild(program, argv, env) {
  const child = spawn(program, argv, { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const args = process.argv.slice(2).filter((a) => a !== '--web');
const electron = electronBinary();

if (electron.ok) {
  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    say('the build failed (see above); nothing was started.');
    process.exit(build.status ?? 1);
  }
  // The core's command line, built now so a build error shows here rather than as a core that cannot start.
  try {
    await ensureCliBundle({ log: (line) => say(`${line}…`) });
  } catch (err) {
    say(`${err instanceof Error ? err.message : String(err)}; nothing was started.`);
    process.exit(1);
  }
  runChild(electron.path, [root, ...args], { ...process.env, THRESHOLD_NODE: process.execPath });
} else {
  say(`the desktop window cannot start here: ${electron.why}.`);
  say('starting the same UI in web mode instead (threshold serve --open); Ctrl-C stops it.');
  // The desktop app's default workspace, unless the config or the environment names one.
  const env = { ...process.env };
  if (!env.THRESHOLD_WORKSPACE) {
    env.THRESHOLD_WORKSPACE = join(homedir(), 'Documents', 'Threshold');
    mkdirSync(env.THRESHOLD_WORKSPACE, { recursive: true });
  }
  runChild(process.execPath, [join(root, 'bin', 'threshold.js'), 'serve', '--open', ...args], env);
}
