// The executor's macOS path, run on Linux with a stand-in for /usr/bin/sandbox-exec that records what it
// was asked to run and then runs it (test/support/sandbox-exec.ts): what would run is exactly argv under
// the profile, with exactly the scrubbed environment, in its own process group, under the limits, with the
// timeouts, stops and output caps of the Linux jail; and when sandbox-exec cannot apply the profile,
// nothing runs and the call fails with the cause and the fix. What the profile allows is tested in
// executor/jail/seatbelt.test.ts; that the real sandbox-exec enforces it can only be tried on a Mac.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jailFixture, type JailFixture } from '../test/support/jail';
import { standInSandboxExec, type StandIn, type StandInCall } from '../test/support/sandbox-exec';
import { rulesOf } from '../test/support/sbpl';
import { EgressProxy } from './egress/proxy';
import { planJail } from './jail/plan';
import { canonicalSpec } from './jail/seatbelt-paths';
import { seatbeltProfile } from './jail/seatbelt';
import { descendantsIn, parseProcessTable } from './processes';
import { Executor, JailUnavailableError } from './run';
import { looksLikeProfileFailure, probeSeatbelt, SeatbeltJail, seatbeltLaunchArgv } from './seatbelt-jail';
import type { JailClass, RunRequest } from './types';

let fx: JailFixture;
let dir: string;
let standIn: StandIn;
let ex: Executor;
const probe = (sandboxExec: string) => ({ ok: true as const, kind: 'seatbelt' as const, sandboxExec, version: 'stand-in' });

beforeAll(async () => {
  fx = await jailFixture();
  dir = mkdtempSync(join(fx.root, 'stand-in-'));
  standIn = standInSandboxExec(dir);
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir], probe: probe(standIn.path) });
});
afterAll(async () => {
  ex.dispose();
  await fx.close();
});

const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '', LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-test-provider-key', GITHUB_TOKEN: 'ghp_x', SAFE_NAME: 'ok', AWS_SECRET_ACCESS_KEY: 'x' };
const request = (script: string, cls: JailClass = 'write', extra: Partial<RunRequest> = {}): RunRequest => ({ argv: ['bash', '-c', script], cwd: fx.workspace, env: { ...ENV, HOME: fx.home }, jail: { class: cls, workspace: fx.workspace }, ...extra });
const sh = (script: string, cls: JailClass = 'write', extra: Partial<RunRequest> = {}, signal?: AbortSignal) => ex.run(request(script, cls, extra), signal);

/** The stand-in's record of the call whose command line holds `marker`. */
function callWith(marker: string): StandInCall {
  const found = standIn.calls().filter((c) => c.argv.some((a) => a.includes(marker)));
  expect(found).toHaveLength(1);
  return found[0]!;
}

const unique = () => `m${Math.random().toString(36).slice(2, 10)}`;

describe('what runs is exactly argv under the profile', () => {
  it.each(['read', 'write', 'network'] as const)('a %s call: sandbox-exec gets -p, the profile for that class and the run, --, and argv untouched', async (cls) => {
    const m = unique();
    const script = `echo ${m} "$HOME" '$(not expanded)'; exit 0`;
    const r = await sh(script, cls);
    const call = callWith(m);
    const tempDir = call.env['TMPDIR'] === '/tmp' ? null : call.env['TMPDIR']!;
    const port = cls === 'network' ? Number(/:(\d+)$/.exec(call.env['HTTP_PROXY']!)![1]) : null;
    const spec = planJail(request(script, cls), { home: fx.home, appDirs: [fx.configDir, fx.dataDir], emptyFile: join(dir, 'empty') });
    const expected = seatbeltProfile(canonicalSpec(spec, realpathSync), { tempDir, sharedTemp: new SeatbeltJail({ sandboxExec: standIn.path, scratch: dir }).sharedTemp(), proxyPort: port });
    expect({ exit: r.exitCode, out: r.stdout.text, argv: call.argv, tempDir: cls === 'read' ? tempDir : typeof tempDir }).toEqual({
      exit: 0,
      out: `${m} ${fx.home} $(not expanded)\n`,
      argv: ['-p', expected, '--', 'bash', '-c', script],
      tempDir: cls === 'read' ? null : 'string',
    });
  });

  it('the environment is exactly the allowlisted one: no keys, no tokens, nothing the launcher shell added', async () => {
    const m = unique();
    await sh(`echo ${m}`, 'write', { envAllow: ['SAFE_NAME'] });
    const call = callWith(m);
    expect(call.env).toEqual({ PATH: ENV.PATH, HOME: fx.home, LANG: 'C.UTF-8', SAFE_NAME: 'ok', TMPDIR: call.env['TMPDIR'] });
    expect(call.env['TMPDIR']).toMatch(/\/run-\d+-/);
  });

  it('a network call is told only the proxy, on the port the proxy listens on, and the profile allows that port alone', async () => {
    const m = unique();
    const r = await sh(`echo ${m}`, 'network');
    const call = callWith(m);
    const port = /^http:\/\/127\.0\.0\.1:(\d+)$/.exec(call.env['HTTPS_PROXY']!)?.[1];
    const outbound = rulesOf(call.argv[1]!).rules.filter((x) => x.action === 'allow' && x.ops.some((o) => o.startsWith('network')));
    expect({ exit: r.exitCode, port: Number(port) > 0, all: call.env['ALL_PROXY'], rules: outbound.map((x) => JSON.stringify(x.filters)) }).toEqual({
      exit: 0,
      port: true,
      all: `socks5h://127.0.0.1:${port}`,
      rules: [JSON.stringify([['remote', 'ip', { str: `localhost:${port}` }]])],
    });
  });

  it('a network call reaches the egress proxy, which refuses a host nobody allowed', async () => {
    const r = await sh('p=${HTTP_PROXY##*:}; exec 3<>/dev/tcp/127.0.0.1/$p; printf "GET http://refused.example/ HTTP/1.1\\r\\nHost: refused.example\\r\\nConnection: close\\r\\n\\r\\n" >&3; head -1 <&3', 'network');
    expect({ status: r.stdout.text.trim().split(' ')[1], refused: r.egress?.refused.map((x) => `${x.host}:${x.port}`), violation: r.violations.map((v) => v.kind) }).toEqual({ status: '403', refused: ['refused.example:80'], violation: ['host_denied'] });
  });

  it('a hidden git config is not read: git is told to read no global config (Seatbelt cannot make it read as empty)', async () => {
    const m = unique();
    fx.put('.gitconfig', '[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n');
    try {
      await sh(`echo ${m}`);
      expect(callWith(m).env['GIT_CONFIG_GLOBAL']).toBe('/dev/null');
    } finally {
      rmSync(join(fx.home, '.gitconfig'));
    }
  });

  it('the launcher does not fork: sandbox-exec is the process Node started, leader of its own group and session', async () => {
    const m = unique();
    await sh(`echo ${m}`);
    const call = callWith(m);
    expect({ pgid: call.pgid, sid: call.sid }).toEqual({ pgid: call.pid, sid: call.pid });
  });

  it('limits are set before sandbox-exec starts: processes (the user\'s count plus the allowance), file size, CPU time, no core dumps', async () => {
    const m = unique();
    await sh(`echo ${m}`, 'write', { limits: { maxProcesses: 50, maxFileBytes: 10 * 1024 * 1024, cpuSeconds: 30 } });
    const l = callWith(m).limits;
    expect({ processes: Number(l.processes) >= 50, fileBlocks: l.fileBlocks, cpuSeconds: l.cpuSeconds, core: l.core }).toEqual({ processes: true, fileBlocks: '10240', cpuSeconds: '30', core: '0' });
  });

  it('a write call gets an empty temp folder of its own, removed after it; a read call gets none', async () => {
    const r = await sh('echo "$TMPDIR"; ls -A "$TMPDIR" | wc -l; echo x > "$TMPDIR/f"');
    const temp = r.stdout.text.split('\n')[0]!;
    const read = await sh('echo "$TMPDIR"', 'read');
    expect({ listed: r.stdout.text.split('\n')[1], after: existsSync(temp), read: read.stdout.text }).toEqual({ listed: '0', after: false, read: '/tmp\n' });
  });

  it('prints the command line it would run: sandbox-exec, the profile, --, argv', () => {
    const line = ex.commandLine(request('true'));
    expect([line[0], line[1], line.slice(3)]).toEqual([standIn.path, '-p', ['--', 'bash', '-c', 'true']]);
    expect(ex.placeholderFds(request('true'))).toBe(0);
  });

  it('reports the limits it holds: processes by rlimit, memory not at all', () => {
    expect({ containment: ex.status().containment, memory: ex.status().memory, jailed: ex.status().jailed }).toEqual({ containment: 'rlimit', memory: 'none', jailed: true });
  });
});

describe('process control and output, as on Linux', () => {
  const left = (tag: string) => execSync(`pgrep -f '[s]leep ${tag}' || true`).toString().trim();

  it('times out and stops the whole group, background children included', async () => {
    const n = `88${Math.floor(Math.random() * 9000) + 1000}`;
    const r = await sh(`sleep ${n} & sleep ${n} & sleep ${n}`, 'write', { limits: { timeoutMs: 400, graceMs: 300 } });
    expect({ timedOut: r.timedOut, survivors: left(n) }).toEqual({ timedOut: true, survivors: '' });
  });

  it('a background child left in the group when the command exits is stopped with the run', async () => {
    const n = `87${Math.floor(Math.random() * 9000) + 1000}`;
    const r = await sh(`(sleep ${n} &) ; sleep ${n} & exit 3`);
    expect({ exit: r.exitCode, survivors: left(n) }).toEqual({ exit: 3, survivors: '' });
  });

  it('a process that left the group (setsid) and holds the output does not keep the result from coming back', async () => {
    // On macOS nothing can find it afterwards (docs/executor.md, "macOS"); it stays inside the profile.
    const n = `86${Math.floor(Math.random() * 9000) + 1000}`;
    const started = Date.now();
    const r = await sh(`setsid sleep ${n} & echo done`, 'write', { limits: { graceMs: 300 } });
    execSync(`pkill -f '^sleep ${n}$' || true`);
    expect({ exit: r.exitCode, out: r.stdout.text, prompt: Date.now() - started < 5_000 }).toEqual({ exit: 0, out: 'done\n', prompt: true });
  });

  it('cancel sends SIGTERM first, so the command can clean up', async () => {
    const c = new AbortController();
    const onOutput = (_s: string, chunk: string) => chunk.includes('trap-set') && c.abort();
    // A long grace: on a loaded machine the trap may take seconds to run, and SIGKILL must not be what it meets.
    const r = await sh('trap "echo cleaned-up; exit 3" TERM; echo trap-set; sleep 30 & wait', 'write', { limits: { graceMs: 15_000 }, onOutput }, c.signal);
    expect({ cancelled: r.cancelled, out: r.stdout.text.trim() }).toEqual({ cancelled: true, out: 'trap-set\ncleaned-up' });
  });

  it('kills after the grace when SIGTERM is ignored', async () => {
    const c = new AbortController();
    const onOutput = (_s: string, chunk: string) => chunk.includes('ignoring') && c.abort();
    const started = Date.now();
    const r = await sh('trap "" TERM; echo ignoring; sleep 30', 'write', { limits: { graceMs: 300 }, onOutput }, c.signal);
    expect({ cancelled: r.cancelled, fast: Date.now() - started < 10_000, signal: r.signal }).toEqual({ cancelled: true, fast: true, signal: 'SIGKILL' });
  });

  it('keeps head and tail of a flood within the cap', async () => {
    const r = await sh('head -c 3000000 /dev/zero | tr "\\0" a; echo; echo END', 'write', { limits: { outputCapBytes: 64 * 1024 } });
    expect({ truncated: r.stdout.truncated, bytes: r.stdout.bytes, kept: r.stdout.text.length < 70 * 1024, end: r.stdout.text.trimEnd().endsWith('END') }).toEqual({ truncated: true, bytes: 3000005, kept: true, end: true });
  });

  it('passes the exit status through, and output as it comes', async () => {
    const chunks: string[] = [];
    const r = await sh('echo one; echo two >&2; exit 7', 'write', { onOutput: (_s, c) => chunks.push(c) });
    expect({ exit: r.exitCode, out: r.stdout.text, err: r.stderr.text, streamed: chunks.join('').includes('one') }).toEqual({ exit: 7, out: 'one\n', err: 'two\n', streamed: true });
  });

  it('runs a terminal call under a pseudo-terminal, through the same launcher', async () => {
    const m = unique();
    const r = await sh(`echo ${m}; tty -s && echo has-tty`, 'write', { terminal: true });
    expect({ out: r.stdout.text.replace(/\r/g, ''), recorded: callWith(m).argv[0] }).toEqual({ out: `${m}\nhas-tty\n`, recorded: '-p' });
  });
});

describe('it never falls back to running unjailed', () => {
  it('sandbox-exec that cannot apply the profile: nothing runs, and the call fails naming the cause and the fix', async () => {
    const refusing = standInSandboxExec(mkdtempSync(join(fx.root, 'refusing-')), { refuse: 'sandbox_apply: Operation not permitted' });
    const broken = new Executor({ home: fx.home, appDirs: [], probe: probe(refusing.path) });
    try {
      const marker = join(fx.workspace, `should-not-exist-${unique()}`);
      const err = await broken.run(request(`touch ${marker}`)).catch((e: unknown) => e);
      expect({ type: err instanceof JailUnavailableError, message: (err as Error).message, ran: existsSync(marker), checked: refusing.calls().map((c) => c.argv.slice(-1)[0]) }).toEqual({
        type: true,
        message: "The jail cannot start: sandbox-exec could not apply the jail's profile (sandbox-exec: sandbox_apply: Operation not permitted). Nothing was run. Fix: start Threshold outside any other sandbox (a process in another agent's jail or an app sandbox cannot start one); if it already runs outside one, this macOS refuses the profile: report the message.",
        ran: false,
        checked: [`touch ${marker}`, '/usr/bin/true'],
      });
    } finally {
      broken.dispose();
    }
  });

  it('a command that itself prints sandbox-exec\'s words is not mistaken for a refused profile', async () => {
    const r = await sh('echo "sandbox-exec: sandbox_apply: Operation not permitted" >&2; exit 71');
    expect({ exit: r.exitCode, err: r.stderr.text }).toEqual({ exit: 71, err: 'sandbox-exec: sandbox_apply: Operation not permitted\n' });
  });

  it.each([
    ['missing', { sandboxExec: '/nonexistent/sandbox-exec', uid: 501 }, /^sandbox-exec is not at \/nonexistent\/sandbox-exec$/],
    ['as root', { uid: 0 }, /^running as root/],
  ])('the probe says the jail cannot start when sandbox-exec is %s', (_n, o, cause) => {
    const p = probeSeatbelt(o);
    expect(p.ok).toBe(false);
    expect(p.ok ? '' : p.cause).toMatch(cause);
  });

  it('the probe tries a profile with every kind of rule: refused, it names sandbox-exec\'s words; accepted, the jail is ready', () => {
    const refusing = standInSandboxExec(mkdtempSync(join(fx.root, 'probe-')), { refuse: 'unbound variable: file-clone' });
    expect(probeSeatbelt({ sandboxExec: refusing.path, uid: 501, scratch: fx.root })).toEqual({ ok: false, cause: "sandbox-exec could not apply the jail's profile (sandbox-exec: unbound variable: file-clone)", fix: expect.stringContaining('outside any other sandbox') });
    expect(probeSeatbelt({ sandboxExec: standIn.path, uid: 501, scratch: fx.root })).toEqual({ ok: true, kind: 'seatbelt', sandboxExec: standIn.path, version: 'sandbox-exec' });
    expect(readdirSync(fx.root).filter((n) => n.startsWith('threshold-probe-'))).toEqual([]);
  });

  it('an executor whose probe failed runs nothing: the call fails with the cause and the fix', async () => {
    const broken = new Executor({ home: fx.home, appDirs: [], probe: probeSeatbelt({ sandboxExec: '/nonexistent/sandbox-exec', uid: 501 }) });
    try {
      await expect(broken.run(request('true'))).rejects.toThrow(/^The jail cannot start: sandbox-exec is not at \/nonexistent\/sandbox-exec\. Nothing was run\. Fix: /);
    } finally {
      broken.dispose();
    }
  });

  it.each([
    ['sandbox-exec refusing its profile', 65, 'sandbox-exec: sandbox_apply: Operation not permitted\n', true],
    ['a profile it could not read', 65, 'sandbox-exec: unbound variable: file-clone\n', true],
    ['a program that is not there', 71, "sandbox-exec: execvp() of 'nope' failed: No such file or directory\n", false],
    ['the command failing', 1, 'error: something\n', false],
    ['success', 0, 'sandbox-exec: x\n', false],
  ])('%s looks like a refused profile: %s', (_n, code, stderr, want) => {
    expect(looksLikeProfileFailure(code, stderr)).toBe(want);
  });
});

describe('the launcher', () => {
  it('is bash (limits), then env -i with exactly the environment, then sandbox-exec', () => {
    const a = seatbeltLaunchArgv({ nproc: 300, limits: { maxFileBytes: 1024 * 1024, cpuSeconds: 60 }, env: { PATH: '/usr/bin', A: 'x=y' }, sandboxExec: '/usr/bin/sandbox-exec', sandboxArgs: ['-p', '(version 1)', '--', 'ls'] });
    expect([a.slice(0, 4), a.slice(5)]).toEqual([['/bin/bash', '--norc', '--noprofile', '-c'], ['threshold-jail', '300', '1024', '60', '/usr/bin/env', '-i', 'A=x=y', 'PATH=/usr/bin', '/usr/bin/sandbox-exec', '-p', '(version 1)', '--', 'ls']]);
  });

  it.each([['a name with =', 'A=B'], ['a name starting with -', '-u']])('refuses %s, which env would read as something else', (_n, name) => {
    expect(() => seatbeltLaunchArgv({ nproc: 1, limits: { maxFileBytes: 1024, cpuSeconds: 1 }, env: { [name]: 'x' }, sandboxExec: '/usr/bin/sandbox-exec', sandboxArgs: [] })).toThrow(/cannot be passed/);
  });
});

describe('macOS process table (ps instead of /proc)', () => {
  it('parses ps output and finds every descendant', () => {
    const rows = parseProcessTable('    1     0     0\n  100     1   501\n  101   100   501\n  102   101   501\n  200     1   501\ngarbage\n');
    expect({ rows: rows.length, tree: descendantsIn(rows, 100).sort() }).toEqual({ rows: 5, tree: [101, 102] });
  });
});

describe('the egress proxy on the loopback (macOS)', () => {
  it('holds its port on both 127.0.0.1 and ::1, so nothing else can listen where the profile points', async () => {
    const proxy = new EgressProxy({ patterns: [] });
    const port = await proxy.listenLoopback();
    const reach = (host: string) =>
      new Promise<boolean>((resolve) => {
        const s = createConnection({ host, port }, () => {
          s.destroy();
          resolve(true);
        }).on('error', () => resolve(false));
      });
    const udpTaken = (type: 'udp4' | 'udp6', address: string) =>
      new Promise<boolean>((resolve) => {
        const s = createSocket(type);
        s.once('error', () => {
          s.close();
          resolve(true);
        });
        s.bind({ port, address, exclusive: true }, () => {
          s.close();
          resolve(false);
        });
      });
    try {
      expect({ tcp: [await reach('127.0.0.1'), await reach('::1')], udp: [await udpTaken('udp4', '127.0.0.1'), await udpTaken('udp6', '::1')] }).toEqual({ tcp: [true, true], udp: [true, true] });
    } finally {
      await proxy.close();
    }
    expect(await reach('127.0.0.1')).toBe(false);
  });

  it.each([
    ['TCP on ::1', 'tcp6'],
    ['UDP on 127.0.0.1', 'udp4'],
    ['UDP on ::1', 'udp6'],
  ] as const)('skips a port another program already holds (%s) and takes another', async (_n, kind) => {
    const { createServer } = await import('node:net');
    // A free port, then taken by "another program" where the profile's rule would also reach.
    const probe = createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)));
    probe.close();
    const squatter =
      kind === 'tcp6'
        ? await new Promise<{ close(): unknown }>((resolve) => {
            const s = createServer();
            s.listen(port, '::1', () => resolve(s));
          })
        : await new Promise<{ close(): unknown }>((resolve) => {
            const s = createSocket(kind);
            s.bind({ port, address: kind === 'udp4' ? '127.0.0.1' : '::1' }, () => resolve(s));
          });
    const proxy = new EgressProxy({ patterns: [] });
    try {
      const got = await proxy.listenLoopback({ pick: (attempt) => (attempt === 0 ? port : 0) });
      expect({ other: got !== port, real: got > 0 }).toEqual({ other: true, real: true });
    } finally {
      await proxy.close();
      squatter.close();
    }
  });
});
