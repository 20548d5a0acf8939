// The executor against the real jail (bubblewrap): classes, environment, limits, output, process control.
import { existsSync, readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jailFixture, type JailFixture } from '../test/support/jail';
import { Executor, JailUnavailableError } from './run';
import type { JailClass, RunRequest } from './types';

let fx: JailFixture;
let ex: Executor;
beforeAll(async () => {
  fx = await jailFixture();
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir] });
});
afterAll(async () => {
  ex.dispose();
  await fx.close();
});

const sh = (script: string, cls: JailClass = 'write', extra: Partial<RunRequest> = {}, signal?: AbortSignal) =>
  ex.run({ argv: ['bash', '-c', script], cwd: fx.workspace, env: { ...process.env, HOME: fx.home, OPENAI_API_KEY: 'sk-test-provider-key', GITHUB_TOKEN: 'ghp_x', SAFE_NAME: 'ok' }, jail: { class: cls, workspace: fx.workspace }, ...extra }, signal);

describe('the jail enforces the class the gate assigned', () => {
  it('a read call cannot write, even inside the workspace', async () => {
    const r = await sh('echo x > read-class.txt');
    expect(r.exitCode).toBe(0);
    const denied = await sh('echo x > read-denied.txt', 'read');
    expect({ exit: denied.exitCode, exists: existsSync(join(fx.workspace, 'read-denied.txt')), violation: denied.violations[0]?.kind }).toEqual({ exit: 1, exists: false, violation: 'write_denied' });
  });
  it('a write call writes the workspace but nothing outside it', async () => {
    const r = await sh(`echo in > inside.txt; echo out > ${fx.outside}/new.txt`);
    expect({ inside: readFileSync(join(fx.workspace, 'inside.txt'), 'utf8'), outside: existsSync(join(fx.outside, 'new.txt')), violation: r.violations.map((v) => v.target) }).toEqual({ inside: 'in\n', outside: false, violation: [join(fx.outside, 'new.txt')] });
  });
  it('granted extra paths are writable for a write call', async () => {
    const r = await sh(`echo granted > ${fx.outside}/granted.txt`, 'write', { jail: { class: 'write', workspace: fx.workspace, extraWritable: [fx.outside] } });
    expect({ exit: r.exitCode, written: existsSync(join(fx.outside, 'granted.txt')) }).toEqual({ exit: 0, written: true });
  });
  it('no call shares the host network: a network call has only loopback, with the egress bridge listening on it', async () => {
    const probe = 'cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " " | sort | tr "\\n" " "; grep -c " 0100007F:0C38 00000000:0000 0A" /proc/net/tcp';
    const write = await sh(probe, 'write');
    const net = await sh(probe, 'network');
    expect({ write: write.stdout.text.trim(), network: net.stdout.text.trim() }).toEqual({ write: 'lo 0', network: 'lo 1' });
  });
});

describe('environment', () => {
  it('is cleared to an allowlist: no provider keys, no tokens', async () => {
    const r = await sh('env | cut -d= -f1 | sort | tr "\\n" " "');
    const names = r.stdout.text.trim().split(' ');
    expect(names).not.toContain('OPENAI_API_KEY');
    expect(names).not.toContain('GITHUB_TOKEN');
    expect(names).not.toContain('SAFE_NAME');
    expect(names).toEqual(expect.arrayContaining(['HOME', 'PATH']));
  });
  it('passes the names the user allows', async () => {
    const r = await sh('echo "$SAFE_NAME"', 'write', { envAllow: ['SAFE_NAME'] });
    expect(r.stdout.text).toBe('ok\n');
  });
});

describe('process control', () => {
  it('times out and stops the whole tree', async () => {
    const n = Math.floor(Math.random() * 900) + 100;
    const r = await sh(`sleep 99${n} & (setsid sleep 99${n} &); sleep 99${n}`, 'write', { limits: { timeoutMs: 400, graceMs: 300 } });
    expect({ timedOut: r.timedOut, survivors: execSync(`pgrep -f '[s]leep 99${n}' || true`).toString().trim() }).toEqual({ timedOut: true, survivors: '' });
  });
  it('cancel sends SIGTERM first, so the command can clean up', async () => {
    const c = new AbortController();
    // Cancel once the trap is set (the script says so), however slow the machine is.
    const onOutput = (_s: string, chunk: string) => chunk.includes('trap-set') && c.abort();
    // A long grace: on a loaded machine the trap may take seconds to run, and SIGKILL must not be what it meets.
    const r = await sh('trap "echo cleaned-up; exit 3" TERM; echo trap-set; sleep 30 & wait', 'write', { limits: { graceMs: 15_000 }, onOutput }, c.signal);
    expect({ cancelled: r.cancelled, out: r.stdout.text.trim() }).toEqual({ cancelled: true, out: 'trap-set\ncleaned-up' });
  });
  it('kills after the grace when SIGTERM is ignored', async () => {
    const c = new AbortController();
    setTimeout(() => c.abort(), 200);
    const started = Date.now();
    const r = await sh('trap "" TERM; sleep 30', 'write', { limits: { graceMs: 500 } }, c.signal);
    expect(r.cancelled).toBe(true);
    expect(Date.now() - started).toBeLessThan(200 + 500 + 1500);
  });
  it('limits file size', async () => {
    const r = await sh('head -c 4096 /dev/zero > big.bin', 'write', { limits: { maxFileBytes: 1024 } });
    expect(r.exitCode).not.toBe(0);
  });
});

describe('the launcher started ahead (the spare)', () => {
  const probeScript = 'ulimit -u; ulimit -f; ulimit -t; readlink /proc/self/fd/0; cd /proc/self/fd && echo *';
  it('a run through the spare sees exactly what a run started on the spot sees', async () => {
    const cold = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir], spare: false });
    try {
      const req: RunRequest = { argv: ['bash', '-c', probeScript], cwd: fx.workspace, env: process.env, jail: { class: 'write', workspace: fx.workspace } };
      await ex.run(req); // the spare for the next run starts once this result is out
      await new Promise((r) => setImmediate(r));
      expect(ex.spareWaiting()).toBe(true);
      const [warm, onTheSpot] = [await ex.run(req), await cold.run(req)];
      expect({ out: warm.stdout.text, err: warm.stderr.text, memory: warm.memory }).toEqual({ out: onTheSpot.stdout.text, err: onTheSpot.stderr.text, memory: onTheSpot.memory });
    } finally {
      cold.dispose();
    }
  });
  it('the next spare starts after a short run has returned its result, not while the caller waits for it', async () => {
    // However long this run takes on a loaded machine, it counts as short.
    const slowMachine = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir], spareAfterMs: 60_000 });
    await slowMachine.run({ argv: ['true'], cwd: fx.workspace, env: process.env, jail: { class: 'write', workspace: fx.workspace } });
    await new Promise((r) => setImmediate(r));
    const started: boolean[] = [slowMachine.spareWaiting()];
    const r = await slowMachine.run({ argv: ['true'], cwd: fx.workspace, env: process.env, jail: { class: 'write', workspace: fx.workspace } });
    started.push(slowMachine.spareWaiting());
    await new Promise((r) => setImmediate(r));
    started.push(slowMachine.spareWaiting());
    slowMachine.dispose();
    expect({ exit: r.exitCode, started }).toEqual({ exit: 0, started: [true, false, true] });
  });
  it('a long run starts the next spare while it runs, so that a call made meanwhile finds one', async () => {
    const long = ex.run({ argv: ['sleep', '1'], cwd: fx.workspace, env: process.env, jail: { class: 'write', workspace: fx.workspace } });
    await new Promise((r) => setTimeout(r, 600));
    const during = ex.spareWaiting();
    const r = await long;
    expect({ exit: r.exitCode, during }).toEqual({ exit: 0, during: true });
  });
  it.each([
    { name: 'fewer processes', limits: { maxProcesses: 20 }, want: '20' },
    { name: 'more processes', limits: { maxProcesses: 300 }, want: '300' },
  ])('a run asking for other limits than the spare was started with gets its own ($name)', async ({ limits, want }) => {
    await sh('true');
    await new Promise((r) => setImmediate(r)); // the spare is there
    const r = await sh('ulimit -u', 'write', { limits });
    expect(r.stdout.text.trim()).toBe(want);
  });
  it('a fork bomb stops at the process limit of its own run, also through the spare', async () => {
    await sh('true');
    await new Promise((r) => setImmediate(r)); // the spare is there
    const r = await sh('for i in $(seq 1 60); do sleep 5 & done 2>/dev/null; jobs -p | wc -l; kill $(jobs -p) 2>/dev/null; true', 'write', { limits: { maxProcesses: 25 } });
    expect(Number(r.stdout.text.trim())).toBeLessThan(25);
  });
});

describe('output', () => {
  it('is capped at head and tail with a marker', async () => {
    const r = await sh('seq 1 200000', 'read', { limits: { outputCapBytes: 2048 } });
    expect({ truncated: r.stdout.truncated, head: r.stdout.text.startsWith('1\n2\n'), tail: r.stdout.text.trimEnd().endsWith('200000'), marker: /… \d+ bytes omitted …/.test(r.stdout.text) }).toEqual({ truncated: true, head: true, tail: true, marker: true });
  });
  it('reports binary output as binary', async () => {
    const r = await sh('head -c 64 /bin/true', 'read');
    expect(r.stdout.binary).toBe(true);
  });
  it('streams chunks as they come', async () => {
    const chunks: string[] = [];
    await sh('echo one; sleep 0.1; echo two', 'read', { onOutput: (_s, c) => chunks.push(c) });
    expect(chunks.join('')).toBe('one\ntwo\n');
  });
  it('runs under a terminal when asked', async () => {
    const r = await sh('test -t 1 && echo tty', 'read', { terminal: true });
    expect(r.stdout.text).toContain('tty');
  });
});

describe('when the jail cannot start', () => {
  it('runs nothing and names the cause and the fix', async () => {
    const broken = new Executor({ home: fx.home, appDirs: [], probe: { ok: false, cause: 'user namespaces are restricted on this system', fix: 'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0' } });
    await expect(broken.run({ argv: ['touch', join(fx.workspace, 'should-not-exist')], cwd: fx.workspace, env: {}, jail: { class: 'write', workspace: fx.workspace } })).rejects.toThrow(JailUnavailableError);
    expect(existsSync(join(fx.workspace, 'should-not-exist'))).toBe(false);
    broken.dispose();
  });
  it('runs unjailed only with the explicit setting, and says so', async () => {
    const unjailed = new Executor({ home: fx.home, appDirs: [], unjailed: true, probe: { ok: false, cause: 'no bwrap', fix: 'install it' } });
    const r = await unjailed.run({ argv: ['true'], cwd: fx.workspace, env: {}, jail: { class: 'write', workspace: fx.workspace } });
    expect({ exit: r.exitCode, jailed: r.jailed }).toEqual({ exit: 0, jailed: false });
    unjailed.dispose();
  });
});
