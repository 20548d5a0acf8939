// The socket wall's side doors: every other way to obtain or pass a socket than socket(AF_UNIX), tried
// by a small C program (test/jail/programs/side-doors.c) from a write-class and a network-class jail.
// Each attempt must stop at the step the jail refuses (named exactly), and the host's sockets must never
// hear from it. The same program run outside the jail is the control: it shows the technique works here.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor } from '../../executor/run';
import type { JailClass } from '../../executor/types';
import { jailFixture, type JailFixture } from '../support/jail';
import { buildSideDoors } from './programs/build';

let fx: JailFixture;
let ex: Executor;
let program: string;
const heard = { path: 0, abstract: 0, dgram: 0 };
const servers: Server[] = [];
let dgramServer: ChildProcess;
const abstractName = `threshold-door-${process.pid}-${Math.random().toString(36).slice(2)}`;
let streamPath: string;
let dgramPath: string;

function listen(path: string, on: () => void): Promise<void> {
  const s = createServer((c) => {
    on();
    c.destroy();
  });
  servers.push(s);
  return new Promise((r) => s.listen(path, r));
}

beforeAll(async () => {
  fx = await jailFixture();
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir] });
  program = buildSideDoors(fx.root);
  streamPath = join(fx.outside, 'door.sock');
  dgramPath = join(fx.outside, 'door-dgram.sock');
  await listen(streamPath, () => heard.path++);
  await listen(`\0${abstractName}`, () => heard.abstract++);
  dgramServer = spawn(program, ['serve-dgram', dgramPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    dgramServer.stdout!.on('data', (d: Buffer) => {
      const text = d.toString();
      if (text.includes('READY')) resolve();
      heard.dgram += text.split('GOT ').length - 1;
    });
    dgramServer.on('exit', () => reject(new Error('the datagram server did not start')));
  });
});

afterAll(async () => {
  dgramServer?.kill('SIGKILL');
  ex?.dispose();
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  await fx?.close();
});

async function inJail(args: string[], cls: JailClass): Promise<string> {
  const r = await ex.run({ argv: [program, ...args], cwd: fx.workspace, env: process.env, jail: { class: cls, workspace: fx.workspace }, limits: { timeoutMs: 10_000 } });
  return `${r.stdout.text}${r.stderr.text}`.trim();
}

function outside(args: string[]): string {
  try {
    return execFileSync(program, args, { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? '').trim();
  }
}

interface Door {
  name: string;
  args: () => string[];
  /** The exact line the jailed attempt must end with: the step the jail refused. */
  refused: string | RegExp;
  /** Which host socket would have heard a successful attempt. */
  target?: keyof typeof heard;
  /** The control outside the jail reaches the goal ("OK …"), unless the kernel itself lacks the feature. */
  control?: { unlessKernel?: RegExp };
}

const doors: Door[] = [
  { name: 'a Unix socket made by io_uring (IORING_OP_SOCKET) connects to a host socket by path', args: () => ['uring-socket', streamPath], refused: 'FAIL io_uring_setup EPERM', target: 'path', control: { unlessKernel: /^FAIL io_uring_setup (ENOSYS|EPERM)$/ } },
  { name: "a Unix socket made by io_uring connects to the host's abstract socket", args: () => ['uring-socket', `@${abstractName}`], refused: 'FAIL io_uring_setup EPERM', target: 'abstract', control: { unlessKernel: /^FAIL io_uring_setup (ENOSYS|EPERM)$/ } },
  { name: 'a datagram socketpair sends to a host datagram socket by path', args: () => ['dgram-pair', dgramPath], refused: 'FAIL socketpair EPERM', target: 'dgram', control: {} },
  { name: 'a stream socketpair is re-pointed at a host socket', args: () => ['stream-pair', streamPath], refused: 'FAIL connect EISCONN', target: 'path' },
  { name: 'descriptors arrive over an inherited socket (SCM_RIGHTS); nothing but stdio is inherited', args: () => ['inherited'], refused: /^FAIL none \(sockets \d+, other descriptors 0\)$/ },
  { name: 'pidfd_getfd copies a descriptor out of the host process', args: () => ['pidfd-getfd', String(process.pid), '0'], refused: 'FAIL pidfd_open ESRCH', control: {} },
  { name: 'pidfd_getfd copies a descriptor out of a process in the jail', args: () => ['pidfd-getfd', 'self', '0'], refused: 'FAIL pidfd_getfd EPERM', control: {} },
  { name: "/proc/<pid>/fd of the host process lists its descriptors", args: () => ['proc-fd', String(process.pid)], refused: 'FAIL opendir ENOENT', control: {} },
  { name: 'an i386 socketcall (int 0x80) makes a Unix socket and connects', args: () => ['socketcall-i386', streamPath], refused: 'FAIL socketcall(SOCKET) ENOSYS', target: 'path', control: { unlessKernel: /^FAIL socketcall\(SOCKET\) ENOSYS$/ } },
  { name: 'an x32 socket call makes a Unix socket', args: () => ['socket-x32'], refused: 'FAIL socket(x32) ENOSYS' },
  { name: "a vsock socket reaches the hypervisor's services", args: () => ['family', '40'], refused: 'FAIL socket EPERM', control: { unlessKernel: /^FAIL socket EAFNOSUPPORT$/ } },
  { name: 'a packet socket sees the raw network', args: () => ['family', '17', '3'], refused: 'FAIL socket EPERM' },
  { name: "the daemon's session keyring is read", args: () => ['keyring'], refused: 'FAIL keyctl EPERM', control: {} },
];

const classes: JailClass[] = ['write', 'network'];
const cases = doors.flatMap((d) => classes.map((cls) => ({ ...d, cls })));

describe('the socket wall has no side door: each attempt is refused at the named step', () => {
  it.each(cases)('from a $cls jail: $name', async (d) => {
    const before = { ...heard };
    const line = (await inJail(d.args(), d.cls)).split('\n').pop()!;
    await new Promise((r) => setTimeout(r, 50));
    if (typeof d.refused === 'string') expect(line).toBe(d.refused);
    else expect(line).toMatch(d.refused);
    expect(heard).toEqual(before);
  }, 20_000);
});

describe('the controls: outside the jail, the same program gets through', () => {
  it.each(doors.filter((d) => d.control))('$name', async (d) => {
    const before = { ...heard };
    const line = outside(d.args()).split('\n').pop()!;
    if (d.control!.unlessKernel && d.control!.unlessKernel.test(line)) return; // this kernel lacks the feature itself
    expect(line).toMatch(/^OK /);
    if (d.target) {
      await new Promise((r) => setTimeout(r, 100));
      expect(heard[d.target]).toBeGreaterThan(before[d.target]);
    }
  }, 20_000);
});
