// Every jail bypass fixed, one line each with what it was: the attempt must fail from now on.
import { createServer, type Server } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor } from '../../executor/run';
import type { JailClass, RunResult } from '../../executor/types';
import { jailFixture, type JailFixture } from '../support/jail';
import { buildSideDoors } from './programs/build';

let fx: JailFixture;
let ex: Executor;
let program: string;
let server: Server;
let heard = 0;
let loopback: Server;
let loopbackPort = 0;
let loopbackHeard = 0;
const abstractName = `threshold-regression-${process.pid}`;

beforeAll(async () => {
  fx = await jailFixture();
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir] });
  program = buildSideDoors(fx.root);
  mkdirSync(join(fx.home, '.config', 'some-cli'), { recursive: true });
  writeFileSync(join(fx.home, '.config', 'some-cli', 'auth.json'), fx.secret);
  server = createServer((c) => {
    heard++;
    c.destroy();
  });
  await new Promise<void>((r) => server.listen(`\0${abstractName}`, r));
  loopback = createServer((c) => {
    loopbackHeard++;
    c.destroy();
  });
  await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', r));
  loopbackPort = (loopback.address() as { port: number }).port;
});

afterAll(async () => {
  ex?.dispose();
  await new Promise<void>((r) => server.close(() => r()));
  await new Promise<void>((r) => loopback.close(() => r()));
  await fx?.close();
});

const run = (argv: string[], cls: JailClass): Promise<RunResult> =>
  ex.run({ argv, cwd: fx.workspace, env: { ...process.env, HOME: fx.home }, jail: { class: cls, workspace: fx.workspace }, limits: { timeoutMs: 10_000 } });
const text = (r: RunResult) => `${r.stdout.text}${r.stderr.text}`;

const regressions: { bypass: string; cls: JailClass; argv: () => string[]; held: (r: RunResult) => boolean }[] = [
  {
    bypass: 'a credential file missing from the fixed list (~/.config/<tool>/auth.json) was readable in the read jail',
    cls: 'read',
    argv: () => ['cat', join(fx.home, '.config', 'some-cli', 'auth.json')],
    held: (r) => !text(r).includes(fx.secret),
  },
  {
    bypass: 'as root, bwrap kept every capability: umount of the tmpfs over ~/.ssh showed the keys',
    cls: 'write',
    argv: () => ['bash', '-c', `umount ${fx.home}/.ssh; cat ${fx.home}/.ssh/id_ed25519`],
    held: (r) => !text(r).includes(fx.secret),
  },
  {
    bypass: "a Unix socket made by io_uring (IORING_OP_SOCKET) reached the host's abstract socket from a network-class jail",
    cls: 'network',
    argv: () => [program, 'uring-socket', `@${abstractName}`],
    held: (r) => text(r).trim() === 'FAIL io_uring_setup EPERM' && heard === 0,
  },
  {
    bypass: 'a datagram socketpair could be pointed at any Unix socket address (sendto, connect)',
    cls: 'network',
    argv: () => [program, 'dgram-pair', `@${abstractName}`],
    held: (r) => text(r).trim() === 'FAIL socketpair EPERM',
  },
  {
    bypass: 'descriptors the daemon inherited without close-on-exec passed into the jail',
    cls: 'write',
    argv: () => [program, 'inherited'],
    held: (r) => /other descriptors 0\)$/.test(text(r).trim()),
  },
  {
    bypass: "AF_VSOCK sockets reached the hypervisor's services past the jail's own network namespace",
    cls: 'write',
    argv: () => [program, 'family', '40'],
    held: (r) => text(r).trim() === 'FAIL socket EPERM',
  },
  {
    bypass: "the daemon's session keyring was readable through keyctl",
    cls: 'write',
    argv: () => [program, 'keyring'],
    held: (r) => text(r).trim() === 'FAIL keyctl EPERM',
  },
  {
    bypass: "a network-class jail shared the host's network namespace: any host, and services on the host's loopback, were reachable",
    cls: 'network',
    argv: () => ['bash', '-c', `exec 3<>/dev/tcp/127.0.0.1/${loopbackPort} || curl -s --noproxy '' http://127.0.0.1:${loopbackPort}/`],
    held: () => loopbackHeard === 0,
  },
];

describe('jail regressions', () => {
  it.each(regressions)('$bypass', async (c) => {
    const r = await run(c.argv(), c.cls);
    expect(c.held(r), text(r).slice(0, 400)).toBe(true);
  }, 20_000);
});
