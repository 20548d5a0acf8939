// The egress proxy: the only way out of a network-class jail. It listens on a Unix socket on the host
// (bridged into the jail's own network namespace by ./bridge.ts) and speaks three protocols on the same
// socket, told apart by the first byte: SOCKS5 (0x05), HTTP CONNECT, and plain HTTP in absolute form
// (SOCKS4, 0x04, is answered with a refusal).
// Host names are resolved here, never inside the jail (it has no DNS), so every connection names its
// host, and each name goes through the one resolving check (../net/destination.ts): read in its one
// canonical form, matched against the allowed patterns before anything is resolved, resolved once, its
// addresses checked, and exactly a checked address dialled. A refusal is answered in the protocol's own
// way (never with silence), with a sentence saying that the sandbox blocked it, and reported to the
// caller, which turns it into a consent card.
import { createServer as createHttpServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { createSocket, type Socket as DatagramSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import { addressRange, formatIPv6, isHostLocalAddress } from '../../common/addresses';
import { canonicalHost, hostPort, visibleHost } from '../../common/hosts';
import { resolveDestination, type Destination, type DestinationRefusal, type Resolver } from '../net/destination';
import { forwardPlain } from './forward';
import type { HelperRelay } from './bridge';
import { dialUpstream, type Upstream } from './relay';

export type EgressProtocol = 'http' | 'connect' | 'socks5';

export interface EgressRefusal {
  /** The canonical host, or the one received with every invisible character escaped when it could not be read. */
  host: string;
  port: number;
  protocol: EgressProtocol | 'socks5-udp' | 'socks5-bind' | 'socks4';
  /**
   * not_allowed: no pattern or grant covers host:port (what a consent card may change); local_address:
   * an allowed name resolves only to addresses a name may not reach (this computer, its link, private
   * networks, metadata services); unsupported: a malformed name or request, or a protocol or form the
   * proxy does not carry.
   */
  kind: 'not_allowed' | 'local_address' | 'unsupported';
  /** Why, in a sentence: what the client is told and the card shows. */
  reason: string;
}

export interface EgressProxyOptions {
  /** Patterns of hosts that may be reached: the allowlist and the grants in force for this call. */
  patterns: readonly string[];
  /** Name resolution at the proxy; the operating system's resolver unless a test gives its own. */
  resolve?: Resolver;
  onRefused?: (r: EgressRefusal) => void;
  /** How long dialling a host may take. */
  connectTimeoutMs?: number;
}

/** Marks the proxy's own refusals, so a client (and a test) can tell them from the host's answers. */
export const REFUSAL_HEADER = 'x-threshold-egress';

const HEAD_LIMIT = 64 * 1024;

/** Addresses of this computer and of its link (loopback, unspecified, link-local, metadata services). */
export const isLocalAddress = isHostLocalAddress;

export function refusalText(host: string, port: number, why: string, kind: EgressRefusal['kind'] = 'not_allowed'): string {
  const next = kind === 'not_allowed' ? 'The user can allow this host from the card Threshold shows; do not try to reach it another way.' : 'Do not try to reach it another way.';
  return `Threshold's sandbox, not the task, blocked the connection to ${hostPort(host, port)}: ${why}. ${next}`;
}

/**
 * The sentence for a refused host. A loopback target gets no card (none may open the host's own
 * services), and the command more often means the jail's own loopback: it is told how to reach that.
 */
function refusalFor(d: Pick<DestinationRefusal, 'host' | 'port' | 'reason'> & { kind: EgressRefusal['kind'] }): string {
  const loopback = d.host === 'localhost' || addressRange(d.host)?.range === 'loopback';
  if (d.kind !== 'not_allowed' || !loopback) return refusalText(d.host, d.port, d.reason, d.kind);
  return `${refusalText(d.host, d.port, d.reason, 'unsupported').replace(/ Do not try to reach it another way\.$/, '')} Through the proxy, loopback is the host computer's, which no card opens (the user may name it in [network] allow_hosts); a server this command started inside the sandbox is reached without the proxy (curl --noproxy '*', or NO_PROXY=127.0.0.1,localhost).`;
}

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
    this.http.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => void this.plainUpgrade(req, socket, head));
    this.http.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => this.unreadable(err, socket));
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
      else if (first[0] === 0x04) this.socks4(client, first);
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

  /** May host:port be reached, and at which addresses? Refused names never reach DNS; a name is resolved once. */
  private destination(rawHost: string, port: number): Promise<Destination | DestinationRefusal> {
    return resolveDestination(rawHost, port, { patterns: this.o.patterns, ...(this.o.resolve ? { resolve: this.o.resolve } : {}) });
  }

  /** Connects to the checked addresses in turn (never to anything looked up again). */
  private dial(d: Destination, from = 0): Promise<Upstream> {
    const attempt = dialUpstream(d.addresses[from]!, d.port, this.o.connectTimeoutMs ?? 10_000, (s) => this.track(s));
    // The next checked address only when this one fails (no chain of awaits on the usual, first-time path).
    return from + 1 < d.addresses.length ? attempt.catch(() => this.dial(d, from + 1)) : attempt;
  }

  /** A request Node's parser could not read (a control or non-ASCII byte in the request line or a header, …): answered, never dropped silently. */
  private unreadable(err: NodeJS.ErrnoException, socket: Socket): void {
    const inFlight = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
    if (!err.code?.startsWith('HPE_') || !socket.writable || inFlight) return void socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    const reason = `the request could not be read as HTTP (${err.code}): a control or non-ASCII character, or a malformed request line or header`;
    this.refuse({ host: '', port: 0, protocol: 'http', kind: 'unsupported', reason });
    const body = `${reason}\n`;
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\n${REFUSAL_HEADER}: refused\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }

  /** Records a refusal and gives the sentence for the client; `unresolved` is the network's answer and is not recorded. */
  private refusal(d: DestinationRefusal, protocol: EgressProtocol): string {
    if (d.kind === 'unresolved') return d.reason;
    const r = { host: d.host, port: d.port, protocol, kind: d.kind, reason: d.reason };
    this.refuse(r);
    return refusalFor(r);
  }

  // ── HTTP CONNECT ────────────────────────────────────────────────────────────────────────────────────
  private async httpConnect(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    const target = splitHostPort(req.url ?? '', 443);
    if (!target) return void rawRefusal(client, 400, this.malformed(req.url ?? '', 'connect', 'the CONNECT target is not host:port'));
    const dest = await this.destination(target.host, target.port);
    if (!dest.ok) return void rawRefusal(client, statusFor(dest), this.refusal(dest, 'connect'), dest.kind !== 'unresolved');
    let upstream: Upstream;
    try {
      upstream = await this.dial(dest);
    } catch (e) {
      return void rawRefusal(client, 502, `${hostPort(dest.host, dest.port)} could not be reached: ${(e as Error).message}`, false);
    }
    this.allowed.push(hostPort(dest.host, dest.port));
    this.openTunnel(client, upstream, 'HTTP/1.1 200 Connection Established\r\n\r\n', head);
  }

  private malformed(host: string, protocol: EgressProtocol, reason: string): string {
    this.refuse({ host: visibleHost(host), port: 0, protocol, kind: 'unsupported', reason });
    return reason;
  }

  /** Answers the client and starts relaying: here, or in the bridge's helper when there is one. */
  private openTunnel(client: Socket, upstream: Upstream, answer: string | Buffer, ahead: Buffer): void {
    if (this.relay) {
      this.sockets.delete(client);
      this.sockets.delete(upstream.socket);
      return this.relay.tunnel(client, upstream.socket, answer, ahead);
    }
    if (answer.length) client.write(answer);
    if (ahead.length) upstream.socket.write(ahead);
    upstream.relayTo(client);
  }

  // ── Plain HTTP (absolute-form request line) ─────────────────────────────────────────────────────────
  /** The checked destination of a plain request, or the refusal already answered: the same for a request and an Upgrade. */
  private async plainTarget(req: IncomingMessage, answer: (status: number, text: string, refused: boolean) => void): Promise<{ dest: Destination; path: string } | null> {
    const target = absoluteTarget(req.url ?? '');
    if (typeof target === 'string') {
      // Not the URL itself: it may carry a user name and password.
      answer(400, this.malformed('', 'http', target), true);
      return null;
    }
    // The Host header goes on as sent (which virtual host of the checked address answers is not the
    // proxy's to decide, as inside a CONNECT tunnel), but one that is not a host name is refused, before
    // anything is looked up.
    const hosts = req.rawHeaders.filter((_, i) => i % 2 === 1 && /^host$/i.test(req.rawHeaders[i - 1]!));
    if (hosts.length > 1) {
      answer(400, this.malformed('', 'http', 'the request has more than one Host header'), true);
      return null;
    }
    const sent = hosts[0];
    if (sent !== undefined) {
      const h = splitHostPort(sent, target.port);
      const read = h ? canonicalHost(h.host) : null;
      if (!read?.ok) {
        answer(400, this.malformed(sent, 'http', `the Host header "${visibleHost(sent)}" is not a host name: ${read && !read.ok ? read.reason : 'it is not host[:port]'}`), true);
        return null;
      }
    }
    const dest = await this.destination(target.host, target.port);
    if (!dest.ok) {
      answer(statusFor(dest), this.refusal(dest, 'http'), dest.kind !== 'unresolved');
      return null;
    }
    return { dest, path: target.path };
  }

  private async plainHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const checked = await this.plainTarget(req, (status, text, refused) => (refused ? sendRefusal(res, status, text) : void res.writeHead(status, { 'content-type': 'text/plain' }).end(`${text}\n`)));
    if (!checked) return;
    const { dest, path } = checked;
    let upstream: Upstream;
    try {
      upstream = await this.dial(dest);
    } catch (e) {
      return void res.writeHead(502, { 'content-type': 'text/plain' }).end(`${hostPort(dest.host, dest.port)} could not be reached: ${(e as Error).message}\n`);
    }
    this.allowed.push(hostPort(dest.host, dest.port));
    const headers: OutgoingHttpHeaders = { ...req.headers };
    for (const h of ['proxy-connection', 'proxy-authorization', 'keep-alive']) delete headers[h];
    // The host's answer about the connection reaches the client (its head is passed on), so ask for what a
    // pooled client would, though each host connection carries this one request and closes with its response.
    headers.connection ??= 'keep-alive';
    forwardPlain(req, res, {
      upstream,
      path,
      headers,
      ...(this.relay ? { splice: this.relay.splice } : {}),
      onFailure: (e) => res.writeHead(502, { 'content-type': 'text/plain' }).end(`${hostPort(dest.host, dest.port)} could not be reached: ${e.message}\n`),
    });
  }

  /**
   * A plain request asking for an Upgrade (WebSocket, h2c): checked like any plain request, then relayed
   * as it stands. The host's answer goes back as sent (101 or a refusal of its own), and the connection
   * stays a tunnel to that checked host:port, exactly as a CONNECT to it would be.
   */
  private async plainUpgrade(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.pause();
    const checked = await this.plainTarget(req, (status, text, refused) => rawRefusal(client, status, text, refused));
    if (!checked) return;
    const { dest, path } = checked;
    let upstream: Upstream;
    try {
      upstream = await this.dial(dest);
    } catch (e) {
      return void rawRefusal(client, 502, `${hostPort(dest.host, dest.port)} could not be reached: ${(e as Error).message}`, false);
    }
    this.allowed.push(hostPort(dest.host, dest.port));
    const lines = [`${req.method} ${path} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (!/^(proxy-connection|proxy-authorization|keep-alive)$/i.test(name)) lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
    }
    this.openTunnel(client, upstream, '', Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  }

  // ── SOCKS4 and 4a: not spoken, but answered ────────────────────────────────────────────────────────
  private socks4(client: Socket, first: Buffer): void {
    const port = first.length >= 4 ? first.readUInt16BE(2) : 0;
    const host = first.length >= 8 ? [...first.subarray(4, 8)].join('.') : '';
    this.refuse({ host, port, protocol: 'socks4', kind: 'unsupported', reason: 'SOCKS4 is not supported (use SOCKS5, socks5h://, or the HTTP proxy)' });
    // VN 0, CD 91: request rejected or failed.
    client.end(Buffer.from([0x00, 0x5b, 0, 0, 0, 0, 0, 0]));
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
      // The name's bytes exactly as sent (latin1 keeps one character per byte): whatever they hold is judged, NUL included.
      else if (atyp === 0x03) host = (await read((await read(1))[0]!)).toString('latin1');
      else if (atyp === 0x04) host = ipv6(await read(16));
      else return void client.end(socksReply(0x08));
      const port = (await read(2)).readUInt16BE(0);
      if (cmd !== 0x01) {
        // UDP ASSOCIATE and BIND would be ways out besides a checked TCP connection.
        const reason = cmd === 0x03 ? 'UDP through the proxy is not supported' : 'SOCKS BIND is not supported';
        this.refuse({ host: visibleHost(host), port, protocol: cmd === 0x03 ? 'socks5-udp' : 'socks5-bind', kind: 'unsupported', reason });
        return void client.end(socksReply(0x07));
      }
      const dest = await this.destination(host, port);
      if (!dest.ok) {
        if (dest.kind === 'unresolved') return void client.end(socksReply(0x04)); // host unreachable
        this.refusal(dest, 'socks5');
        return void client.end(socksReply(0x02)); // connection not allowed by ruleset
      }
      let upstream: Upstream;
      try {
        upstream = await this.dial(dest);
      } catch {
        return void client.end(socksReply(0x05)); // connection refused
      }
      this.allowed.push(hostPort(dest.host, dest.port));
      this.openTunnel(client, upstream, socksReply(0x00), read.rest());
    } catch {
      client.destroy();
    }
  }
}

function statusFor(d: DestinationRefusal): number {
  return d.kind === 'unresolved' ? 502 : d.kind === 'unsupported' ? 400 : 403;
}

function sendRefusal(res: ServerResponse, status: number, text: string): void {
  const body = text + '\n';
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), [REFUSAL_HEADER]: 'refused', connection: 'close' }).end(body);
}

/** An answer written straight to a socket Node's HTTP server no longer frames (CONNECT, Upgrade); `refused` marks the proxy's own refusals. */
function rawRefusal(socket: Socket, status: number, text: string, refused = true): void {
  const body = `${text}\n`;
  const phrase = status === 400 ? 'Bad Request' : status === 403 ? 'Forbidden' : 'Bad Gateway';
  const marker = refused ? `${REFUSAL_HEADER}: refused\r\n` : '';
  socket.end(`HTTP/1.1 ${status} ${phrase}\r\nContent-Type: text/plain; charset=utf-8\r\n${marker}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function socksReply(code: number): Buffer {
  return Buffer.from([0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
}

function ipv6(b: Buffer): string {
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push(b.readUInt16BE(i));
  return formatIPv6(words);
}

/** host:port of a CONNECT target or a Host header (IPv6 in brackets); the host is read by the destination check. */
export function splitHostPort(s: string, defaultPort: number): { host: string; port: number } | null {
  const m = /^\[([^\]]*)\](?::(\d{1,5}))?$/.exec(s) ?? /^([^:[\]\s]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return null;
  return { host: m[1]!, port: m[2] ? Number(m[2]) : defaultPort };
}

/**
 * The authority and path of an absolute-form `http://` request target, read from the bytes as sent (not
 * through a URL parser, which would decode `%41`, map full-width dots and fold look-alikes before the
 * check saw them), or why it is refused.
 */
export function absoluteTarget(url: string): { host: string; port: number; path: string } | string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([^#]*)/.exec(url);
  if (!m || m[1]!.toLowerCase() !== 'http') return 'only http:// URLs may be proxied as plain requests (https goes through CONNECT)';
  const auth = m[2]!;
  if (auth.includes('@')) return 'a user name or password in the URL is not passed on (send credentials in a header)';
  const hp = splitHostPort(auth, 80);
  if (!hp) return `the URL's authority "${visibleHost(auth)}" is not host[:port]`;
  const rest = m[3]!;
  return { host: hp.host, port: hp.port, path: rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}` };
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
