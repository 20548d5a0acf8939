// The system check before `npm start` and `npm test` (bin/setup.js): what it installs, what it prints.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NEEDS, planSetup, type Has, type Manager, type Plan, type Purpose } from '../bin/setup.js';
import { ROOT } from './support/cli';

/** A machine that has every program and file except those named. */
const without = (...missing: string[]): Has => ({ onPath: (p) => !missing.includes(p), file: (f) => !missing.includes(f) });
const everything = without();

type Case = [string, { purpose: Purpose; platform?: NodeJS.Platform; isRoot?: boolean; install?: boolean; manager?: Manager; has: Has }, Plan];

describe('what the set-up does', () => {
  it.each<Case>([
    ['nothing missing: nothing to do', { purpose: 'test', has: everything }, { kind: 'ok' }],
    ['npm test without bubblewrap, as a user: stops with one line naming the package and the command', { purpose: 'test', has: without('bwrap') }, { kind: 'stop', line: 'threshold: npm test needs bubblewrap; install with: sudo apt-get install -y bubblewrap' }],
    ['npm test without bubblewrap, as root: installs it with apt-get', { purpose: 'test', isRoot: true, has: without('bwrap') }, { kind: 'install', argv: [['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-qq', 'bubblewrap']], packages: ['bubblewrap'] }],
    ['as root with --check: never installs', { purpose: 'test', isRoot: true, install: false, has: without('bwrap') }, { kind: 'stop', line: 'threshold: npm test needs bubblewrap; install with: sudo apt-get install -y bubblewrap' }],
    ['Fedora names its own packages', { purpose: 'test', manager: 'dnf', has: without('Xvfb', '/usr/include/stdio.h') }, { kind: 'stop', line: 'threshold: npm test needs xvfb, libc6-dev; install with: sudo dnf install -y xorg-x11-server-Xvfb glibc-devel' }],
    ['Fedora as root installs with dnf', { purpose: 'start', manager: 'dnf', isRoot: true, has: without('rg') }, { kind: 'install', argv: [['dnf', 'install', '-y', 'ripgrep']], packages: ['ripgrep'] }],
    ['npm start only needs what the app uses (no chromium, no compiler)', { purpose: 'start', has: without('/usr/bin/chromium', 'gcc', 'Xvfb') }, { kind: 'ok' }],
    [
      'npm start without python3, as a user: warns (network-class calls need the egress bridge)',
      { purpose: 'start', has: without('python3', '/usr/bin/python3') },
      { kind: 'warn', line: 'threshold: Threshold needs python3 (the bridge from a network-class jail to the egress proxy); install with: sudo apt-get install -y python3. Starting anyway: the app says what cannot work until then.' },
    ],
    [
      'npm start without bubblewrap, as a user: warns with the command and starts',
      { purpose: 'start', has: without('bwrap') },
      { kind: 'warn', line: 'threshold: Threshold needs bubblewrap (the jail approved commands run in); install with: sudo apt-get install -y bubblewrap. Starting anyway: the app says what cannot work until then.' },
    ],
    ['no known package manager: names the packages', { purpose: 'test', manager: null, has: without('python3', '/usr/bin/python3') }, { kind: 'stop', line: 'threshold: npm test needs python3; install with: your package manager (packages: python3)' }],
    ['macOS npm start: Homebrew for what has a formula, no bubblewrap asked for', { purpose: 'start', platform: 'darwin', manager: 'brew', has: without('bwrap', 'rg') }, { kind: 'warn', line: "threshold: Threshold needs ripgrep (the agent's search_files tool); install with: brew install ripgrep. Starting anyway: the app says what cannot work until then." }],
    ['macOS npm test: says it needs Linux', { purpose: 'test', platform: 'darwin', manager: 'brew', has: everything }, { kind: 'stop', line: 'threshold: npm test needs Linux with bubblewrap (the jail and its tests); run it in a Linux VM or container.' }],
  ])('%s', (_, c, expected) => {
    expect(planSetup({ platform: 'linux', isRoot: false, install: true, manager: 'apt', ...c })).toEqual(expected);
  });

  it('checks every package .ci/run installs, under the names .ci/run uses', () => {
    const line = /apt-get install -y -qq ([^>\n]+)/.exec(readFileSync(join(ROOT, '.ci', 'run'), 'utf8'))?.[1] ?? '';
    expect(NEEDS.map((n) => n.apt).sort()).toEqual(line.trim().split(/\s+/).sort());
  });
});

describe('npm test on a machine without bubblewrap', () => {
  const bin = mkdtempSync(join(tmpdir(), 'threshold-path-'));
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  it('stops at once with one line naming the package to install', () => {
    // A PATH with every program the tests need except bwrap.
    for (const program of ['git', 'rg', 'python3', 'Xvfb', 'gcc', 'apt-get']) symlinkSync(`/usr/bin/${program}`, join(bin, program));
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'setup.js'), 'test', '--check'], { env: { PATH: bin }, encoding: 'utf8' });
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 1, stdout: '', stderr: 'threshold: npm test needs bubblewrap; install with: sudo apt-get install -y bubblewrap\n' });
  });

  it('is silent and lets the tests run on this machine, which has everything', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'setup.js'), 'test', '--check'], { encoding: 'utf8' });
    expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
