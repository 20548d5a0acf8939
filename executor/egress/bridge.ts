// The bridge from a network-class jail to the egress proxy. The jail has its own, empty network namespace
// (only its loopback), and its seccomp filter refuses Unix sockets, so the way out is opened from the
// host: once bwrap has made the namespace, socat is started *in that namespace only* (nsenter --net; the
// host's mount and PID namespaces, outside the jail's seccomp filter), listening on 127.0.0.1:PORT there
// and forwarding each connection to the proxy's Unix socket on the host. Jailed processes cannot see
// socat (another PID namespace) nor the socket (it is not mounted into the jail). The command itself
// starts only when the listener is up: a short wait in the jail, before its argv, watches /proc/net/tcp.
import { spawn, type ChildProcess } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { descendants, signal } from '../processes';

/** The port the jail's programs reach the proxy on (127.0.0.1, inside the jail's own namespace). */
export const JAIL_PROXY_PORT = 3128;

/** How long the jail waits for the bridge before giving up (the command then does not run). */
const BRIDGE_WAIT_TICKS = 500; // × 10 ms

/** socat's transfer block: its 8 KiB default costs most of the throughput in system calls. */
const SOCAT_BUFFER = 256 * 1024;

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

export interface Bridge {
  stop(): void;
}

/**
 * Waits for the jail under `jailRoot` to have its namespace, then starts socat in it. Resolves null when
 * the jail ended (or never made a namespace) first: the command's own wait then fails it plainly.
 */
export async function startBridge(o: { jailRoot: number; socketPath: string; port?: number; timeoutMs?: number; isDone: () => boolean }): Promise<Bridge | null> {
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
  const child: ChildProcess = spawn('nsenter', ['--target', String(target), ...enter, '--', 'socat', '-b', String(SOCAT_BUFFER), `TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr`, `UNIX-CONNECT:${o.socketPath}`], {
    stdio: 'ignore',
    detached: true,
  });
  child.on('error', () => {});
  return {
    stop() {
      const pid = child.pid;
      if (!pid) return;
      // socat forks one process per connection: the whole group goes.
      signal(descendants(pid), 'SIGKILL');
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}
