// The egress proxy: the only way out of a network-class jail. It listens on a Unix socket on the host
// (bridged into the jail's own network namespace by ./bridge.ts) and speaks three protocols on the same
// socket, told apart by the first byte: SOCKS5 (0x05), HTTP CONNECT, and plain HTTP in absolute form.
// Host names are resolved here, never inside the jail (it has no DNS), so every connection names its
// host and each one is checked against the allowed patterns (main/policy/hosts.ts) before anything is
// resolved or dialled. A refusal is answered in the protocol's own way, with a sentence saying that the
// sandbox blocked it, and reported to the caller, which turns it into a consent card.
import { lookup } from 'node:dns/promises';
import { createServer as createHttpServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { createSocket, type Socket as DatagramSocket } from 'node:dgram';
import { createServer, isIP, type Server, type Socket } from 'node:net';
import { hostAllowed, normalizeHost } from '../../common/hosts';
import { forwardPlain } from './forward';
import type { HelperRelay } from './bridge';
import { dialUpstream, type Upstream } from './relay';

export type EgressProtocol = 'http' | 'connect' | 'socks5';

export interface EgressRefusal {
  host: string;
  port: number;
  protocol: EgressProtocol | 'socks5-udp' | 'socks5-bind';
  /**
   * not_allowed: no pattern or grant covers host:port (what a consent card may change); local_address:
   * an allowed name resolves to this computer; unsupported: a protocol or form the proxy does not carry.
   */
  kind: 'not_allowed' | 'local_address' | 'unsupported';
  /** Why, in a sentence: what the client is told and the card shows. */
  reason: string;
}

export interface EgressProxyOptions {
  /** Patterns of hosts that may be reached: the allowlist and the grants in force for this call. */
  patterns: readonly string[];
  /** Name resolution at the proxy; the operating system's resolver unless a test gives its own. */
  resolve?: (host: string) => Promise<string[]>;
  onRefused?: (r: EgressRefusal) => void;
  /** How long dialling a host may take. */
  connectTimeoutMs?: number;
}

/** Marks the proxy's own refusals, so a client (and a test) can tell them from the host's answers. */
export const REFUSAL_HEADER = 'x-threshold-egress';

const HEAD_LIMIT = 64 * 1024;

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

/** Addresses of this computer and of its link (loopback, unspecified, link-local: cloud metadata lives there). */
export function isLocalAddress(ip: string): boolean {
  const v = ip.toLowerCase().replace(/^::ffff:/, '');
  if (isIP(v) === 4) return /^(127\.|0\.|169\.254\.)/.test(v);
  return v === '::1' || v === '::' || /^fe[89ab][0-9a-f]:/.test(v);
}

export function refusalText(host: string, port: number, why: string): string {
  return `Threshold's sandbox, not the task, blocked the connection to ${host}:${port}: ${why}. The user can allow this host from the card Threshold shows; do not try to reach it another way.`;
}

type Destination = { ok: true; address: string } | { ok: false; kind: EgressRefusal['kind'] | 'unresolved'; reason: string };

export class EgressProxy {
  readonly refused: EgressRefusal[] = [];
  /** Connections let through, as host:port (for the result and the tests). */
  readonly allowed: string[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly http = createHttpServer();
  private server: Server | null = null;
  private readonly adopted = new Set<Server>();
  /** The loopback listeners (macOS): 127.0.0.1 and ::1 on one port, TCP and UDP. */
  private readonly loopback: { close(): unknown }[] = [];
  private relay: HelperRelay | null = null;

  constructor(private readonly o: EgressProxyOptions) {
    this.http.on('request', (req, res) => void this.plainHttp(req, res));
    this.http.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => void this.httpConnect(req, socket, head));
    this.http.on('clientError', (_err, socket: Socket) => socket.destroy());
  }

  /** Starts listening on a Unix socket path (or a TCP port on 127.0.0.1, for measuring without a jail). */
  async listen(where: { path: string } | { port: number }): Promise<void> {
    const server = createServer((s) => this.accept(s));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if ('path' in where) server.listen(where.path, () => resolve());
      else server.listen(where.port, '127.0.0.1', () => resolve());
    });
  }

  /**
   * Listens on a loopback port for a jail that shares the host's network (macOS, where Seatbelt can allow
   * one loopback port but not a namespace of its own): 127.0.0.1 and ::1 on the same port, because the
   * profile's `localhost:PORT` names both, and a port held on one only could be taken on the other by
   * another program (or by the jailed command itself) to pose as the proxy.
   */
  async listenLoopback(o: { pick?: (attempt: number) => number } = {}): Promise<number> {
    const listen = (server: Server, port: number, host: string) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port, host, exclusive: true }, () => resolve());
      });
    // The profile's rule names an address and port, not a protocol: the same port is held for UDP too,
    // so no datagram listener of another program can sit where the jail may send.
    const hold = (type: 'udp4' | 'udp6', port: number, host: string) =>
      new Promise<DatagramSocket>((resolve, reject) => {
        const s = createSocket({ type });
        s.once('error', (e) => {
          s.close();
          reject(e);
        });
        s.bind({ port, address: host, exclusive: true }, () => resolve(s));
      });
    for (let attempt = 0; attempt < 10; attempt++) {
      const held: { close(): unknown }[] = [];
      const v4 = createServer((s) => this.accept(s));
      // The system picks the port (0); a test picks one it knows is taken elsewhere.
      await listen(v4, o.pick?.(attempt) ?? 0, '127.0.0.1');
      held.push(v4);
      const port = (v4.address() as { port: number }).port;
      const more: [() => Promise<{ close(): unknown }>, boolean][] = [
        [async () => {
          const v6 = createServer((s) => this.accept(s));
          await listen(v6, port, '::1');
          return v6;
        }, true],
        [() => hold('udp4', port, '127.0.0.1'), false],
        [() => hold('udp6', port, '::1'), true],
      ];
      let taken = false;
      for (const [open, v6] of more) {
        try {
          held.push(await open());
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          // No IPv6 loopback on this machine: nobody can listen there either.
          if (v6 && code !== 'EADDRINUSE') continue;
          taken = true; // someone holds that port there: another port
          break;
        }
      }
      if (taken) {
        for (const h of held) h.close();
        continue;
      }
      this.loopback.push(...held);
      return port;
    }
    throw new Error('the egress proxy found no loopback port free on both 127.0.0.1 and ::1');
  }

  /**
   * Takes connections from a listener made elsewhere (the one the bridge made in a jail's namespace);
   * with `relay`, allowed tunnels and the long bodies of plain HTTP responses are moved there instead of here.
   */
  adopt(listener: Server, relay?: HelperRelay): void {
    this.adopted.add(listener);
    if (relay) this.relay = relay;
    listener.on('connection', (s: Socket) => this.accept(s));
    listener.on('close', () => this.adopted.delete(listener));
  }

  address(): string | number | null {
    const a = this.server?.address();
    return typeof a === 'string' ? a : (a?.port ?? null);
  }

  async close(): Promise<void> {
    for (const l of this.adopted) l.close();
    for (const l of this.loopback) l.close();
    for (const s of this.sockets) s.destroy();
    this.http.close();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private track(s: Socket): Socket {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => s.destroy());
    return s;
  }

  private accept(client: Socket): void {
    this.track(client);
    client.once('data', (first: Buffer) => {
      client.pause();
      if (first[0] === 0x05) void this.socks5(client, first);
      else {
        // Everything else is HTTP; Node's parser takes it from here (keep-alive included: each request is checked).
        client.unshift(first);
        this.http.emit('connection', client);
        client.resume();
      }
    });
  }

  private refuse(r: EgressRefusal): void {
    this.refused.push(r);
    this.o.onRefused?.(r);
  }

  /** May host:port be reached, and at which address? Checked before any lookup, so a refused name never reaches DNS. */
  private async destination(rawHost: string, port: number): Promise<Destination> {
    const host = normalizeHost(rawHost);
    if (host === null || !Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, kind: 'unsupported', reason: 'the address is malformed' };
    if (!hostAllowed(host, port, this.o.patterns)) {
      return { ok: false, kind: 'not_allowed', reason: `${host}:${port} is not on the allowed hosts ([network] allow_hosts) and no grant covers it` };
    }
    if (isIP(host)) return { ok: true, address: host };
    let addresses: string[];
    try {
      addresses = await (this.o.resolve ?? systemResolve)(host);
    } catch {
      addresses = [];
    }
    // Not the sandbox's doing: answered as the network would, and not reported as a refusal.
    if (addresses.length === 0) return { ok: false, kind: 'unresolved', reason: `${host} could not be resolved` };
    // An allowed name that points at this computer would reach its loopback services: only a pattern
    // that names the address itself (or localhost) may do that.
    const address = addresses[0]!;
    if (isLocalAddress(address) && host !== 'localhost') return { ok: false, kind: 'local_address', reason: `${host} resolves to ${address}, an address of this computer or its link, which a host name may not reach` };
    return { ok: true, address };
  }

  private dial(address: string, port: number): Promise<Upstream> {
    return dialUpstream(address, port, this.o.connectTimeoutMs ?? 10_000, (s) => this.track(s));
  }

  // ── HTTP CONNECT ────────────────────────────────────────────────────────────────────────────────────
  private async httpConnect(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    const target = splitHostPort(req.url ?? '', 443);
    const dest: Destination = target ? await this.destination(target.host, target.port) : { ok: false, kind: 'unsupported', reason: 'the CONNECT target is not host:port' };
    if (!dest.ok) {
      if (dest.kind === 'unresolved') return void client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${dest.reason}\n`);
      const host = target?.host ?? String(req.url);
      const port = target?.port ?? 0;
      this.refuse({ host, port, protocol: 'connect', kind: dest.kind, reason: dest.reason });
      const body = refusalText(host, port, dest.reason) + '\n';
      client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\n${REFUSAL_HEADER}: refused\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    let upstream: Upstream;
    try {
      upstream = await this.dial(dest.address, target!.port);
    } catch (e) {
      client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${target!.host}:${target!.port} could not be reached: ${(e as Error).message}\n`);
      return;
    }
    this.allowed.push(`${target!.host}:${target!.port}`);
    this.openTunnel(client, upstream, 'HTTP/1.1 200 Connection Established\r\n\r\n', head);
  }

  /** Answers the client and starts relaying: here, or in the bridge's helper when there is one. */
  private openTunnel(client: Socket, upstream: Upstream, answer: string | Buffer, ahead: Buffer): void {
    if (this.relay) {
      this.sockets.delete(client);
      this.sockets.delete(upstream.socket);
      return this.relay.tunnel(client, upstream.socket, answer, ahead);
    }
    client.write(answer);
    if (ahead.length) upstream.socket.write(ahead);
    upstream.relayTo(client);
  }

  // ── Plain HTTP (absolute-form request line) ─────────────────────────────────────────────────────────
  private async plainHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL | null;
    try {
      url = new URL(req.url ?? '');
    } catch {
      url = null;
    }
    if (!url || url.protocol !== 'http:') {
      const reason = 'only http:// URLs may be proxied as plain requests (https goes through CONNECT)';
      this.refuse({ host: url?.hostname ?? '', port: 0, protocol: 'http', kind: 'unsupported', reason });
      return void sendRefusal(res, 400, reason);
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = url.port ? Number(url.port) : 80;
    const dest = await this.destination(host, port);
    if (!dest.ok) {
      if (dest.kind === 'unresolved') return void res.writeHead(502, { 'content-type': 'text/plain' }).end(`${dest.reason}\n`);
      this.refuse({ host, port, protocol: 'http', kind: dest.kind, reason: dest.reason });
      return void sendRefusal(res, 403, refusalText(host, port, dest.reason));
    }
    let upstream: Upstream;
    try {
      upstream = await this.dial(dest.address, port);
    } catch (e) {
      return void res.writeHead(502, { 'content-type': 'text/plain' }).end(`${host}:${port} could not be reached: ${(e as Error).message}\n`);
    }
    this.allowed.push(`${host}:${port}`);
    const headers: OutgoingHttpHeaders = { ...req.headers };
    for (const h of ['proxy-connection', 'proxy-authorization', 'keep-alive']) delete headers[h];
    // The host's answer about the connection reaches the client (its head is passed on), so ask for what a
    // pooled client would, though each host connection carries this one request and closes with its response.
    headers.connection ??= 'keep-alive';
    forwardPlain(req, res, {
      upstream,
      path: `${url.pathname}${url.search}`,
      headers,
      ...(this.relay ? { splice: this.relay.splice } : {}),
      onFailure: (e) => res.writeHead(502, { 'content-type': 'text/plain' }).end(`${host}:${port} could not be reached: ${e.message}\n`),
    });
  }

  // ── SOCKS5 (RFC 1928), no authentication; CONNECT only ───────────────────────────────────────────────
  private async socks5(client: Socket, first: Buffer): Promise<void> {
    const read = reader(client, first);
    try {
      const [, nMethods] = await read(2);
      const methods = await read(nMethods!);
      if (!methods.includes(0x00)) return void client.end(Buffer.from([0x05, 0xff]));
      client.write(Buffer.from([0x05, 0x00]));
      const [ver, cmd, , atyp] = await read(4);
      if (ver !== 0x05) return void client.destroy();
      let host: string;
      if (atyp === 0x01) host = [...(await read(4))].join('.');
      else if (atyp === 0x03) host = (await read((await read(1))[0]!)).toString('latin1');
      else if (atyp === 0x04) host = ipv6(await read(16));
      else return void client.end(socksReply(0x08));
      const port = (await read(2)).readUInt16BE(0);
      if (cmd !== 0x01) {
        // UDP ASSOCIATE and BIND would be ways out besides a checked TCP connection.
        const reason = cmd === 0x03 ? 'UDP through the proxy is not supported' : 'SOCKS BIND is not supported';
        this.refuse({ host, port, protocol: cmd === 0x03 ? 'socks5-udp' : 'socks5-bind', kind: 'unsupported', reason });
        return void client.end(socksReply(0x07));
      }
      const dest = await this.destination(host, port);
      if (!dest.ok) {
        if (dest.kind === 'unresolved') return void client.end(socksReply(0x04)); // host unreachable
        this.refuse({ host, port, protocol: 'socks5', kind: dest.kind, reason: dest.reason });
        return void client.end(socksReply(0x02)); // connection not allowed by ruleset
      }
      let upstream: Upstream;
      try {
        upstream = await this.dial(dest.address, port);
      } catch {
        return void client.end(socksReply(0x05)); // connection refused
      }
      this.allowed.push(`${host}:${port}`);
      this.openTunnel(client, upstream, socksReply(0x00), read.rest());
    } catch {
      client.destroy();
    }
  }
}

function sendRefusal(res: ServerResponse, status: number, text: string): void {
  const body = text + '\n';
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), [REFUSAL_HEADER]: 'refused', connection: 'close' }).end(body);
}

function socksReply(code: number): Buffer {
  return Buffer.from([0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
}

function ipv6(b: Buffer): string {
  const parts: string[] = [];
  for (let i = 0; i < 16; i += 2) parts.push(b.readUInt16BE(i).toString(16));
  return parts.join(':');
}

/** host:port of a CONNECT target (IPv6 in brackets). */
export function splitHostPort(s: string, defaultPort: number): { host: string; port: number } | null {
  const m = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(s) ?? /^([^:[\]\s]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return null;
  return { host: m[1]!, port: m[2] ? Number(m[2]) : defaultPort };
}

/** Reads exact byte counts from a paused socket, with a cap on what it buffers. */
function reader(s: Socket, first: Buffer): ((n: number) => Promise<Buffer>) & { rest(): Buffer } {
  let buf = first;
  const waiters: (() => void)[] = [];
  s.on('data', (c: Buffer) => {
    buf = Buffer.concat([buf, c]);
    if (buf.length > HEAD_LIMIT) s.destroy();
    waiters.splice(0).forEach((w) => w());
  });
  s.on('close', () => waiters.splice(0).forEach((w) => w()));
  s.resume();
  const read = async (n: number): Promise<Buffer> => {
    while (buf.length < n) {
      if (s.destroyed) throw new Error('closed');
      await new Promise<void>((r) => waiters.push(r));
    }
    const out = buf.subarray(0, n);
    buf = buf.subarray(n);
    return out;
  };
  return Object.assign(read, {
    rest() {
      s.removeAllListeners('data');
      s.pause();
      const r = buf;
      buf = Buffer.alloc(0);
      return r;
    },
  });
}
