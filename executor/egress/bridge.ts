// The bridge from a network-class jail to the egress proxy. The jail has its own, empty network namespace
// (only its loopback), and its seccomp filter refuses Unix sockets, so the way out is opened from the
// host: once bwrap has made the namespace, a few lines of Python run *in that namespace only* (nsenter
// --net; the host's mount and PID namespaces, outside the jail's seccomp filter), make the listening
// socket 127.0.0.1:PORT there, and hand it to this process over the IPC channel of child_process (the
// file descriptor travels as SCM_RIGHTS, in the message Node itself uses to pass a net.Server). The
// helper then exits: the proxy accepts the jail's connections itself, a socket that lives in the jail's
// namespace, so no relay process and no second hop sit in the data path. Jailed processes cannot see the
// helper (another PID namespace, and it is gone before the command runs). The command itself starts
// only when the listener is up: a short wait in the jail, before its argv, watches /proc/net/tcp.
import { spawn, type ChildProcess } from 'node:child_process';
import { Server } from 'node:net';
import { existsSync, readlinkSync } from 'node:fs';
import { descendants } from '../processes';

/** The port the jail's programs reach the proxy on (127.0.0.1, inside the jail's own namespace). */
export const JAIL_PROXY_PORT = 3128;

/** How long the jail waits for the bridge before giving up (the command then does not run). */
const BRIDGE_WAIT_TICKS = 500; // × 10 ms

/**
 * Makes the listener and sends it over the channel as Node's own handle message (NODE_HANDLE of a
 * net.Server, answered by NODE_HANDLE_ACK, after which the helper may go). -I -S: no user site, no site
 * module, so nothing from the environment is imported.
 */
const HANDOFF = [
  // The C modules only: `import socket` alone doubles the helper's start-up (enum and friends).
  'import _socket, posix, sys',
  's = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)',
  's.setsockopt(_socket.SOL_SOCKET, _socket.SO_REUSEADDR, 1)',
  "s.bind(('127.0.0.1', int(sys.argv[1])))",
  's.listen(511)',
  "ch = _socket.socket(fileno=int(posix.environ.get(b'NODE_CHANNEL_FD', b'3')))",
  'ch.sendmsg([b\'{"cmd":"NODE_HANDLE","type":"net.Server","msg":"threshold-egress-listener"}\\n\'], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, s.fileno().to_bytes(4, sys.byteorder))])',
  'ch.recv(4096)',
].join('\n');

/** Exit status of a jail whose bridge never came up (nothing of the command ran). */
export const BRIDGE_FAILED_EXIT = 125;

/** Proxy variables for the command: both spellings, since tools read one or the other. */
export function proxyEnv(port = JAIL_PROXY_PORT): Record<string, string> {
  const http = `http://127.0.0.1:${port}`;
  const socks = `socks5h://127.0.0.1:${port}`;
  const noProxy = 'localhost,127.0.0.1,::1';
  return { HTTP_PROXY: http, HTTPS_PROXY: http, ALL_PROXY: socks, NO_PROXY: noProxy, http_proxy: http, https_proxy: http, all_proxy: socks, no_proxy: noProxy };
}

/** /proc/net/tcp's spelling of 127.0.0.1:port in the LISTEN state. */
function listenKey(port: number): string {
  return `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The argv that runs first in a network-class jail: waits (shell builtins reading /proc/net/tcp, which
 * shows the jail's own namespace) until the bridge listens, then becomes the command.
 */
export function awaitBridgeArgv(argv: readonly string[], port = JAIL_PROXY_PORT): string[] {
  const script = [
    `up() { while read -r _ l _ st _; do [ "$l" = ${listenKey(port)} ] && [ "$st" = 0A ] && return 0; done < /proc/net/tcp; return 1; }`,
    `n=0; until up; do n=$((n+1)); if [ $n -gt ${BRIDGE_WAIT_TICKS} ]; then echo "threshold: the network bridge to the egress proxy did not start; nothing was run" >&2; exit ${BRIDGE_FAILED_EXIT}; fi; sleep 0.01; done`,
    'exec "$@"',
  ].join('\n');
  return ['/bin/sh', '-c', script, 'threshold-egress', ...argv];
}

function netns(pid: number | 'self'): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return null;
  }
}

/** The first process below `root` that lives in another network namespace than ours: the jail. */
function findJailProcess(root: number): number | null {
  const own = netns('self');
  for (const pid of descendants(root)) {
    const ns = netns(pid);
    if (ns && ns !== own) return pid;
  }
  return null;
}

/** The system's Python when there is one (a version manager's shim on PATH costs a shell per call). */
function python(): string {
  return existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

export interface Bridge {
  stop(): void;
}

/**
 * Waits for the jail under `jailRoot` to have its namespace, then has its listener made there and handed
 * to `adopt`. Resolves null when the jail ended (or never made a namespace) first, or the hand-over
 * failed: the command's own wait then fails it plainly.
 */
export async function startBridge(o: { jailRoot: number; adopt: (listener: Server) => void; port?: number; timeoutMs?: number; isDone: () => boolean }): Promise<Bridge | null> {
  const deadline = performance.now() + (o.timeoutMs ?? 5_000);
  let target: number | null = null;
  while (target === null) {
    if (o.isDone() || performance.now() > deadline) return null;
    target = findJailProcess(o.jailRoot);
    if (target === null) await new Promise((r) => setTimeout(r, 2));
  }
  // As root the namespace is reachable directly; a regular user enters the jail's user namespace first
  // (its owner holds every capability there), keeping its own uid.
  const asRoot = process.getuid?.() === 0;
  const enter = asRoot ? ['--net'] : ['--user', '--net', '--preserve-credentials'];
  const port = o.port ?? JAIL_PROXY_PORT;
  const child: ChildProcess = spawn('nsenter', ['--target', String(target), ...enter, '--', python(), '-I', '-S', '-c', HANDOFF, String(port)], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    detached: true,
  });
  const listener = await new Promise<Server | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), Math.max(0, deadline - performance.now()));
    const settle = (l: Server | null) => {
      clearTimeout(timer);
      resolve(l);
    };
    child.once('message', (msg, handle) => settle(msg === 'threshold-egress-listener' && handle instanceof Server ? handle : null));
    child.once('exit', () => settle(null));
    child.once('error', () => settle(null));
  });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  if (!listener) {
    kill();
    return null;
  }
  // The helper's part is done once the listener is here; it exits on the acknowledgement.
  child.disconnect();
  o.adopt(listener);
  return {
    stop() {
      listener.close();
      kill();
    },
  };
}
