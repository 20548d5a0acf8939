#!/usr/bin/env node
// @ts-check
// The system packages Threshold needs, checked before `npm start` and `npm test` (their pre-steps):
// nothing to do is silent and fast. What is missing is installed when we are root on Debian/Ubuntu or
// Fedora (a container, CI); otherwise the exact command is printed: `npm test` stops at once with one
// line naming the packages, `npm start` warns and starts (the app then says the jail cannot start).
//   node bin/setup.js start|test [--check]    --check (or THRESHOLD_SETUP=check): never install
//   THRESHOLD_SETUP=skip                      skip the check (a machine set up another way)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPathOf } from '../node/on-path.js';

/**
 * @typedef {'start' | 'test'} Purpose
 * @typedef {'apt' | 'dnf' | 'brew' | null} Manager
 * @typedef {{ name: string, why: string, found: (has: Has) => boolean, apt: string, dnf: string, brew: string | null, for: Purpose[] }} Need
 * @typedef {{ onPath: (program: string) => boolean, file: (path: string) => boolean }} Has
 */

/** @type {Need[]} */
export const NEEDS = [
  { name: 'bubblewrap', why: 'the jail approved commands run in', found: (h) => h.onPath('bwrap'), apt: 'bubblewrap', dnf: 'bubblewrap', brew: null, for: ['start', 'test'] },
  { name: 'git', why: 'checkpoints of the workspace', found: (h) => h.onPath('git'), apt: 'git', dnf: 'git', brew: 'git', for: ['start', 'test'] },
  { name: 'ripgrep', why: "the agent's search_files tool", found: (h) => h.onPath('rg'), apt: 'ripgrep', dnf: 'ripgrep', brew: 'ripgrep', for: ['start', 'test'] },
  { name: 'python3', why: "the bridge from a network-class jail to the egress proxy", found: (h) => h.onPath('python3') || h.file('/usr/bin/python3'), apt: 'python3', dnf: 'python3', brew: null, for: ['start', 'test'] },
  { name: 'chromium', why: 'the end-to-end UI tests (/usr/bin/chromium)', found: (h) => h.file('/usr/bin/chromium'), apt: 'chromium', dnf: 'chromium', brew: null, for: ['test'] },
  { name: 'xvfb', why: 'a display for the UI tests', found: (h) => h.onPath('Xvfb'), apt: 'xvfb', dnf: 'xorg-x11-server-Xvfb', brew: null, for: ['test'] },
  { name: 'gcc', why: "the jail's side-door test programs", found: (h) => h.onPath('gcc'), apt: 'gcc', dnf: 'gcc', brew: null, for: ['test'] },
  { name: 'libc6-dev', why: "the C headers of the jail's test programs", found: (h) => h.file('/usr/include/stdio.h'), apt: 'libc6-dev', dnf: 'glibc-devel', brew: null, for: ['test'] },
];

/** @param {NodeJS.ProcessEnv} env @returns {Has} */
export function systemHas(env) {
  return {
    onPath: onPathOf(env),
    file: (path) => existsSync(path),
  };
}

/**
 * @typedef {{ kind: 'ok' } | { kind: 'install', argv: string[][], packages: string[] } | { kind: 'stop' | 'warn', line: string }} Plan
 * @param {{ purpose: Purpose, platform: NodeJS.Platform, isRoot: boolean, install: boolean, manager: Manager, has: Has }} c
 * @returns {Plan}
 */
export function planSetup(c) {
  if (c.platform === 'darwin' && c.purpose === 'test') {
    return { kind: 'stop', line: 'threshold: npm test needs Linux with bubblewrap (the jail and its tests); run it in a Linux VM or container.' };
  }
  const missing = NEEDS.filter((n) => n.for.includes(c.purpose) && (c.platform !== 'darwin' || n.brew) && !n.found(c.has));
  if (!missing.length) return { kind: 'ok' };
  const manager = c.manager;
  const packages = missing.map((n) => (manager === 'dnf' ? n.dnf : manager === 'brew' ? /** @type {string} */ (n.brew) : n.apt));
  if (c.isRoot && c.install && (manager === 'apt' || manager === 'dnf')) {
    const argv = manager === 'apt' ? [['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-qq', ...packages]] : [['dnf', 'install', '-y', ...packages]];
    return { kind: 'install', argv, packages };
  }
  const command =
    manager === 'apt' ? `sudo apt-get install -y ${packages.join(' ')}`
    : manager === 'dnf' ? `sudo dnf install -y ${packages.join(' ')}`
    : manager === 'brew' ? `brew install ${packages.join(' ')}`
    : `your package manager (packages: ${packages.join(' ')})`;
  const what = missing.map((n) => n.name).join(', ');
  if (c.purpose === 'test') return { kind: 'stop', line: `threshold: npm test needs ${what}; install with: ${command}` };
  return { kind: 'warn', line: `threshold: Threshold needs ${what} (${missing.map((n) => n.why).join('; ')}); install with: ${command}. Starting anyway: the app says what cannot work until then.` };
}

/** @param {Has} has @param {NodeJS.Platform} platform @returns {Manager} */
export function packageManager(has, platform) {
  if (platform === 'darwin') return has.onPath('brew') ? 'brew' : null;
  if (has.onPath('apt-get')) return 'apt';
  if (has.onPath('dnf')) return 'dnf';
  return null;
}

/** @param {string[]} argv @param {NodeJS.ProcessEnv} env @returns {number} */
export function runSetup(argv, env = process.env) {
  const purpose = argv[0];
  if (purpose !== 'start' && purpose !== 'test') {
    process.stderr.write('usage: node bin/setup.js start|test [--check]\n');
    return 2;
  }
  if (env['THRESHOLD_SETUP'] === 'skip') return 0;
  const has = systemHas(env);
  const c = {
    purpose: /** @type {Purpose} */ (purpose),
    platform: process.platform,
    isRoot: process.getuid?.() === 0,
    install: !argv.includes('--check') && env['THRESHOLD_SETUP'] !== 'check',
    manager: packageManager(has, process.platform),
    has,
  };
  const plan = planSetup(c);
  if (plan.kind === 'ok') return 0;
  if (plan.kind === 'warn') {
    process.stderr.write(plan.line + '\n');
    return 0;
  }
  if (plan.kind === 'stop') {
    process.stderr.write(plan.line + '\n');
    return 1;
  }
  process.stderr.write(`threshold: installing ${plan.packages.join(' ')} (as root, with ${plan.argv[0]?.[0]})…\n`);
  for (const [program, ...args] of plan.argv) {
    const r = spawnSync(/** @type {string} */ (program), args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) {
      process.stderr.write(`threshold: ${program} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}); install ${plan.packages.join(' ')} yourself.\n`);
      return purpose === 'test' ? 1 : 0;
    }
  }
  const after = planSetup({ ...c, install: false });
  if (after.kind === 'ok') return 0;
  process.stderr.write((after.kind === 'ok' || after.kind === 'install' ? '' : after.line) + '\n');
  return after.kind === 'stop' ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = runSetup(process.argv.slice(2));
