// Every way the jail's launcher was (or could have been) sidestepped since it waits on stdin for its
// request, one line each with the reason. The launcher runs outside the jail, so what it runs matters.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launcherArgv, launchRequest } from './containment';
import { requestBytes } from './run';

const limits = { maxProcesses: 50, fileBytes: 2 * 1024 * 1024, cpuSeconds: 7, memoryBytes: 256 * 1024 * 1024, seccompFile: null };

const scratch = mkdtempSync(join(tmpdir(), 'threshold-launcher-'));
let requests = 0;

/** Starts a launcher as a spare is started (waiting on stdin, a socket), writes its request file and the byte that says so, and collects what the command printed. */
function viaStdin(argv: string[], o: { env?: NodeJS.ProcessEnv; request?: string[]; extraFds?: number; never?: boolean } = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const file = join(scratch, `request-${++requests}`);
    const launcher = launcherArgv(['', ''], { file });
    const child = spawn(launcher[0]!, launcher.slice(1), { env: o.env ?? { PATH: '/usr/bin:/bin' }, stdio: ['pipe', 'pipe', 'pipe', ...Array.from({ length: o.extraFds ?? 0 }, () => 'pipe' as const)] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out }));
    if (o.never) return void child.stdin!.end();
    writeFileSync(file, o.request ? requestBytes(o.request) : requestBytes(launchRequest(limits, limits.maxProcesses, false, argv)));
    child.stdin!.end('\0');
  });
}

describe('launcher regressions', () => {
  it('an argument holding a NUL byte is refused: in the stdin request it would split into two, and the second could be a bwrap option', () => {
    expect(() => requestBytes(launchRequest(limits, 50, false, ['bwrap', '--', 'echo', 'x\0--bind'])))
      .toThrow('an argument holds a NUL byte, which no program argument can');
  });

  it("the launcher does not run the user's ~/.bashrc, which bash runs when stdin is a socket (as a spare's is)", async () => {
    const home = mkdtempSync(join(tmpdir(), 'threshold-launcher-home-'));
    writeFileSync(join(home, '.bashrc'), `touch ${join(home, 'ran')}\n`);
    // The control: plain bash with a socket for stdin does run it here, so the test can tell.
    const control = spawn('/bin/bash', ['-c', 'true'], { env: { PATH: '/usr/bin:/bin', HOME: home }, stdio: ['pipe', 'ignore', 'ignore'] });
    control.stdin!.end();
    await new Promise((r) => control.on('close', r));
    const controlRan = existsSync(join(home, 'ran'));
    spawnSync('rm', ['-f', join(home, 'ran')]);
    const r = await viaStdin(['/bin/true'], { env: { PATH: '/usr/bin:/bin', HOME: home } });
    expect({ controlRan, code: r.code, launcherRan: existsSync(join(home, 'ran')) }).toEqual({ controlRan: true, code: 0, launcherRan: false });
  });

  it.each([
    { name: 'its stdin closes without the byte (the daemon quit)', o: { never: true } },
    { name: 'the request file holds no request', o: { request: [] } },
  ])('a spare whose request never comes exits without running anything: $name', async ({ o }) => {
    const r = await viaStdin([], o);
    expect(r).toEqual({ code: 0, out: '' });
  });

  it('a request whose placeholder count is not a number runs nothing (the count is an arithmetic expression to bash)', async () => {
    const r = await viaStdin([], { request: ['', '50', '2048', '7', '', 'a[$(touch /tmp/x)]', '/bin/echo', 'ran'] });
    expect(r).toEqual({ code: 125, out: '' });
  });

  it('the placeholder descriptors are open on /dev/null, from fd 4 on, and no others', async () => {
    const r = await viaStdin([], { request: ['', '50', '2048', '7', '', '2', '/bin/bash', '--norc', '-c', 'for f in 3 4 5 6; do [ -e /proc/$$/fd/$f ] && echo "$f $(readlink /proc/$$/fd/$f)"; done; true'] });
    expect(r).toEqual({ code: 0, out: '4 /dev/null\n5 /dev/null\n' });
  });

  it('the limits of the request hold before the command starts', async () => {
    const r = await viaStdin(['/bin/bash', '--norc', '-c', 'ulimit -u; ulimit -f; ulimit -t; ulimit -c; ulimit -v']);
    expect(r).toEqual({ code: 0, out: '50\n2048\n7\n0\nunlimited\n' });
  });

  it('descriptors the launcher inherited beyond stdio do not reach the command', async () => {
    const r = await viaStdin(['/bin/bash', '--norc', '-c', 'for f in 0 1 2 3 4; do [ -e /proc/$$/fd/$f ] && echo -n "$f "; done; echo'], { extraFds: 2 });
    expect(r).toEqual({ code: 0, out: '0 1 2 \n' });
  });

  it('the command reads /dev/null, not the pipe the launcher waited on', async () => {
    const r = await viaStdin(['/bin/bash', '--norc', '-c', 'readlink /proc/self/fd/0']);
    expect(r).toEqual({ code: 0, out: '/dev/null\n' });
  });
});
