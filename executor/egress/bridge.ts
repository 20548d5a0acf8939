// The bridge from a network-class jail to the egress proxy. The jail has its own, empty network namespace
// (only its loopback), and its seccomp filter refuses Unix sockets, so the way out is opened from the
// host: once bwrap has made the namespace, a helper (./helper.ts, a few lines of Python) runs *in that
// namespace only* (nsenter --net; the host's mount and PID namespaces, outside the jail's seccomp
// filter). It makes the listening socket 127.0.0.1:PORT there and hands it to this process, whose proxy
// accepts the jail's connections itself; it relays the tunnels the proxy has allowed, and moves the
// bodies of plain HTTP responses the proxy has framed, with splice.
// Jailed processes cannot see the helper (another PID namespace). The command itself starts only when
// the listener is up: a short wait in the jail, before its argv, watches /proc/net/tcp.
import { spawn, type ChildProcess } from 'node:child_process';
import { Server, type Socket } from 'node:net';
import { HELPER_LISTENER_MESSAGE, HELPER_SCRIPT, SPLICE_CLIENT_MESSAGE, SPLICE_HOST_MESSAGE, SPLICED_MESSAGE, TUNNEL_CLIENT_MESSAGE, TUNNEL_HOST_MESSAGE, TUNNEL_READY_MESSAGE, UNSPLICE_MESSAGE } from './helper';
import { existsSync, readlinkSync } from 'node:fs';
import { descendants } from '../processes';

/** The port the jail's programs reach the proxy on (127.0.0.1, inside the jail's own namespace). */
export const JAIL_PROXY_PORT = 3128;

/** How long the jail waits for the bridge before giving up (the command then does not run). */
const BRIDGE_WAIT_TICKS = 500; // × 10 ms


/** Exit status of a jail whose bridge never came up (nothing of the command ran). */
export const BRIDGE_FAILED_EXIT = 125;

/**
 * Proxy variables for the command: both spellings, since tools read one or the other. NO_PROXY is set,
 * empty: every host goes through the proxy, loopback included, so `curl http://127.0.0.1:PORT/` reaches
 * the host's service when a grant names it and gets the proxy's refusal when none does (the jail's own
 * loopback, where a server the command started listens, is reached with `--noproxy`). Set after the
 * environment allowlist, so an allowed NO_PROXY cannot send a host around the proxy's answer.
 */
export function proxyEnv(port = JAIL_PROXY_PORT): Record<string, string> {
  const http = `http://127.0.0.1:${port}`;
  const socks = `socks5h://127.0.0.1:${port}`;
  const noProxy = '';
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

/**
 * Hands an allowed tunnel's two sockets to the helper, which writes the proxy's answer to the client and
 * what the client sent ahead to the host, and relays them from then on.
 */
export type TunnelHandoff = (client: Socket, host: Socket, answer: string | Buffer, ahead: Buffer) => void;

/** A body being moved by the helper: `done` says whether all of it went (false: the host ended first, or a socket broke). */
export interface SplicedBody {
  done: Promise<boolean>;
  /** Ends it early (the client went away): the helper shuts both sockets down. */
  abort(): void;
}

/**
 * Has the helper move exactly `length` bytes from the host's socket to the client's. Both stay open
 * here; the caller must neither read the host's socket nor write to the client's until `done`.
 */
export type BodySplice = (client: Socket, host: Socket, length: number) => SplicedBody;

/** What the helper does for the proxy. */
export interface HelperRelay {
  tunnel: TunnelHandoff;
  splice: BodySplice;
}

export interface Bridge {
  stop(): void;
}

/**
 * Waits for the jail under `jailRoot` to have its namespace, then starts the helper in it; its listener
 * goes to `adopt`, with the way to hand tunnels over. Resolves null when the jail ended (or never made a
 * namespace) first, or the helper failed: the command's own wait then fails it plainly.
 */
export async function startBridge(o: { jailRoot: number; adopt: (listener: Server, relay: HelperRelay) => void; port?: number; timeoutMs?: number; isDone: () => boolean }): Promise<Bridge | null> {
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
  return startHelper(['nsenter', '--target', String(target), ...enter, '--'], o.port ?? JAIL_PROXY_PORT, deadline, o.adopt);
}

/** Starts the helper behind `prefix` (nsenter into a jail; nothing, for the tests on the host's loopback). */
export async function startHelper(prefix: readonly string[], port: number, deadline: number, adopt: (listener: Server, relay: HelperRelay) => void): Promise<Bridge | null> {
  const argv = [...prefix, python(), '-I', '-S', '-c', HELPER_SCRIPT, String(port)];
  const child: ChildProcess = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], detached: true });
  child.on('error', () => {});
  const listener = await new Promise<Server | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), Math.max(0, deadline - performance.now()));
    const settle = (l: Server | null) => {
      clearTimeout(timer);
      resolve(l);
    };
    child.once('message', (msg, handle) => settle(msg === HELPER_LISTENER_MESSAGE && handle instanceof Server ? handle : null));
    child.once('exit', () => settle(null));
    child.once('error', () => settle(null));
  });
  const stop = () => {
    // Let go of the channel first: a listener whose sockets went to a child asks it about them on close.
    if (child.connected) child.disconnect();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    listener?.close();
  };
  if (!listener) {
    stop();
    return null;
  }
  // One tunnel (or body) at a time: the next goes once the helper has said it took the last one, so
  // Node's own queue of handles is empty and a client's socket leaves this process in the tick its
  // buffer is read.
  const queue: (() => void)[] = [];
  let busy = false;
  const next = () => {
    busy = false;
    const go = queue.shift();
    if (go) go();
  };
  const bodies = new Map<number, (ok: boolean) => void>();
  const settle = (id: number, ok: boolean) => {
    bodies.get(id)?.(ok);
    bodies.delete(id);
  };
  child.on('message', (msg) => {
    if (msg === TUNNEL_READY_MESSAGE) return next();
    const m = typeof msg === 'string' ? new RegExp(`^${SPLICED_MESSAGE}:(\\d+):(ok|short)$`).exec(msg) : null;
    if (m) settle(Number(m[1]), m[2] === 'ok');
  });
  // A helper that went away takes no more tunnels: those waiting are closed (go() sees no channel);
  // the bodies it was moving have ended with it.
  child.once('disconnect', () => {
    for (const id of [...bodies.keys()]) settle(id, false);
    next();
  });
  const handoff: TunnelHandoff = (client, host, answer, ahead) => {
    const go = () => {
      busy = true;
      if (!child.connected || client.destroyed || host.destroyed) {
        client.destroy();
        host.destroy();
        return next();
      }
      // What the client sent before its answer (Node read it ahead) goes with the socket.
      const early: Buffer[] = [ahead];
      for (let c: Buffer | null; client.readableLength > 0 && (c = client.read() as Buffer | null) !== null; ) early.push(c);
      // Node closes its copy of a sent socket only when the helper acknowledges it, and a plain socket
      // keeps reading while paused (and read() above may have started it again): stop the reading at
      // the handle (no public way), in this same tick, so whatever the client sends from now on waits
      // in the kernel for the helper instead of being read here and dropped.
      (client as unknown as { _handle?: { readStop?: () => number } })._handle?.readStop?.();
      const b64 = (b: Buffer) => b.toString('base64');
      child.send(`${TUNNEL_CLIENT_MESSAGE}:${b64(Buffer.from(answer))}:${b64(Buffer.concat(early))}`, client);
      child.send(TUNNEL_HOST_MESSAGE, host);
    };
    if (busy) queue.push(go);
    else go();
  };
  let lastBody = 0;
  const splice: BodySplice = (client, host, length) => {
    const id = ++lastBody;
    const done = new Promise<boolean>((resolve) => bodies.set(id, resolve));
    const go = () => {
      busy = true;
      if (!child.connected || client.destroyed || host.destroyed || !bodies.has(id)) {
        settle(id, false);
        return next();
      }
      // keepOpen: this process goes on with both sockets once the body has gone.
      child.send(`${SPLICE_CLIENT_MESSAGE}:${id}:${length}`, client, { keepOpen: true });
      child.send(SPLICE_HOST_MESSAGE, host, { keepOpen: true });
    };
    if (busy) queue.push(go);
    else go();
    return {
      done,
      abort: () => {
        if (!bodies.has(id)) return;
        if (child.connected) child.send(`${UNSPLICE_MESSAGE}:${id}`);
        settle(id, false);
      },
    };
  };
  adopt(listener, { tunnel: handoff, splice });
  return { stop };
}
