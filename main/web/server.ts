// The web mode (docs/web-mode.md): the built renderer over HTTP on 127.0.0.1, and one WebSocket at /ws
// that carries the operations table (common/operations.ts) to the same handlers as the Electron IPC.
// Every request must name our loopback host and port (DNS rebinding) and come from our origin; the data
// channel needs the token, exchanged at /auth for an HttpOnly, SameSite=Strict cookie.
//
// With [remote.phone] (docs/remote.md) the same server also listens on one LAN address over HTTPS, for
// paired phones: the same requests, admission limits and headers through the same functions, with the
// Host and Origin checks set to exactly that address, and a paired device's own token (traded at /pair for
// a one-time code) in place of the desk's. A device uses only the operations main/remote/phone.ts allows.
import { createReadStream } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { DisposableStore, type Disposable } from '../../common/disposable';
import { resolveOperation, type CoreEvent, type Result } from '../../common/operations';
import { AUTH_PATH, MAX_MESSAGE_BYTES, WS_PATH, clientMessageSchema, type ServerMessage } from '../../common/web-protocol';
import { invokeOperation, type Handlers } from '../../common/invoke';
import { ConnectionAdmission, DEFAULT_ADMISSION_LIMITS, type AdmissionLimits } from './admission';
import { bearerToken, cookieName, deviceCookie, deviceCookieName, hostAllowed, lanHost, lanHostAllowed, lanOriginAllowed, originAllowed, readCookie, sameSecret, securityHeaders, sessionCookie } from './security';
import { resolveStatic } from './static';

/** UI operations only the desktop window may call (the page's socket answers unknown_operation). */
const WINDOW_ONLY: ReadonlySet<string> = new Set(['settings.set_api_key', 'remote.set_token']);
/** Where a phone trades its one-time pairing code for its device token (LAN listener only). */
export const PAIR_PATH = '/pair';
const PAIR_BODY_MAX = 4096;

/** What the web server asks of paired devices (main/remote/devices.ts). */
export interface DeviceDoor {
  /** The device a token belongs to while it is paired; marks it seen. */
  authenticate(token: string): { id: string } | null;
  /** Still paired (checked before every message of an open socket). */
  paired(deviceId: string): boolean;
  /** Trades a one-time pairing code for a new device's token. */
  pair(code: string, name: string): { ok: true; token: string } | { ok: false; status: number; message: string };
  /** The operations as this device may use them. */
  handlersFor(deviceId: string): Handlers;
  /** An event as this device sees it; null: not sent to it. */
  view(event: CoreEvent, deviceId: string): CoreEvent | null;
  /** Registers an open device page as an approver surface. */
  addApprover?: () => () => void;
}

export interface LanOptions {
  /** The LAN address (canonical) and its family. */
  address: string;
  family: 4 | 6;
  /** 0: a random free port. */
  port: number;
  /** PEM. */
  cert: string;
  key: string;
  devices: DeviceDoor;
}

/** One way in: the loopback listener (the desk's token) or the LAN listener (paired devices). */
interface Door {
  kind: 'loopback' | 'lan';
  headers(): Record<string, string>;
  refusal(req: IncomingMessage): { status: number; text: string } | null;
  /** The signed-in session a request carries, or null. */
  session(req: IncomingMessage): Session | null;
}

interface Session {
  handlers: Handlers;
  /** The paired device, on the LAN listener. */
  deviceId: string | null;
  view(event: CoreEvent): CoreEvent | null;
  addApprover?: () => () => void;
}


export interface WebServerOptions {
  /** 0: a random free port. */
  port: number;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  token: string;
  /** The operations' handlers for the web surface (decisions are recorded as decided by `web`). */
  handlers: Handlers;
  /** Subscribes to core events; returns the unsubscribe function. */
  subscribe: (listener: (event: CoreEvent) => void) => () => void;
  /** Registers an open socket as an approver surface; absent: sockets watch but cannot count as one. */
  addApprover?: () => () => void;
  log?: (line: string) => void;
  /** How often idle sockets are pinged; one that misses a pong is closed (and stops counting as an approver). */
  heartbeatMs?: number;
  /** Limits on connections that have not signed in yet, and on open pages (docs/web-mode.md); both listeners share them. */
  limits?: Partial<WebLimits>;
  /** The phone page on a LAN address over HTTPS ([remote.phone]); absent: loopback only. */
  lan?: LanOptions;
}

export interface WebLimits extends AdmissionLimits {
  /** Signed-in WebSockets open at once; one more is refused with 503. */
  maxPages: number;
}

export const DEFAULT_WEB_LIMITS: WebLimits = { ...DEFAULT_ADMISSION_LIMITS, maxPages: 64 };

export interface WebServer extends Disposable {
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The address to open: the origin with the token in the fragment (never sent to a server or a Referer). */
  url: string;
  /** Open, authenticated WebSockets. */
  connections(): number;
  /** The phone page's origin (https://ADDRESS:PORT), when it listens. */
  lanOrigin: string | null;
  dispose(): Promise<void>;
}

/** A WebSocket whose unsent output grows past this is too slow to keep: it is closed. */
const MAX_BUFFERED = 16 * 1024 * 1024;
/** Calls one socket may have running at once. */
const MAX_IN_FLIGHT = 32;

export async function startWebServer(o: WebServerOptions): Promise<WebServer> {
  const owned = new DisposableStore();
  let port = o.port;
  let lanPort = o.lan?.port ?? 0;
  const lanName = () => (o.lan ? lanHost(o.lan.address, o.lan.family, lanPort) : '');
  /** Open sockets and whether each answered the last ping. */
  const sockets = new Map<WebSocket, { alive: boolean; deviceId: string | null }>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const limits: WebLimits = { ...DEFAULT_WEB_LIMITS, ...o.limits };
  // No cap on the listener (a full listener locks everyone out): connections that have not signed in are
  // kept per address and timed (admission.ts); signed-in ones are never made to wait for them. One
  // admission for both listeners: the phone page's connections count against the same limits.
  const admission = owned.add(new ConnectionAdmission<Duplex>(limits));

  const loopback: Door = {
    kind: 'loopback',
    headers: () => securityHeaders(port),
    refusal: (req) => {
      if (!hostAllowed(req.headers.host, port)) return { status: 403, text: `Refused: the Host header must be 127.0.0.1:${port} or localhost:${port}.` };
      if (!originAllowed(req.headers.origin, port)) return { status: 403, text: 'Refused: the request comes from another origin.' };
      if (!req.url?.startsWith('/')) return { status: 400, text: 'Refused: the request target must be a path.' };
      return null;
    },
    session: (req) => (sameSecret(readCookie(req.headers.cookie, cookieName(port)), o.token) ? { handlers: o.handlers, deviceId: null, view: (e) => e, addApprover: o.addApprover } : null),
  };

  const lan: Door | null = o.lan
    ? {
        kind: 'lan',
        headers: () => securityHeaders(lanPort, lanName()),
        refusal: (req) => {
          if (!lanHostAllowed(req.headers.host, lanName())) return { status: 403, text: `Refused: the Host header must be ${lanName()}.` };
          if (!lanOriginAllowed(req.headers.origin, lanName())) return { status: 403, text: 'Refused: the request comes from another origin.' };
          if (!req.url?.startsWith('/')) return { status: 400, text: 'Refused: the request target must be a path.' };
          return null;
        },
        session: (req) => {
          const token = readCookie(req.headers.cookie, deviceCookieName(lanPort));
          const device = token ? o.lan!.devices.authenticate(token) : null;
          if (!device) return null;
          return { handlers: o.lan!.devices.handlersFor(device.id), deviceId: device.id, view: (e) => o.lan!.devices.view(e, device.id), addApprover: o.lan!.devices.addApprover };
        },
      }
    : null;

  /** The signed-in session a request carries; carrying one signs its connection in, whatever it asks for. */
  const signedIn = (door: Door, req: IncomingMessage): Session | null => {
    const session = door.session(req);
    if (session) admission.signIn(req.socket);
    return session;
  };

  /** One listener: the same request, upgrade and admission code for either door. */
  const listen = (server: Server, door: Door) => {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      admission.requestStarted(req.socket);
      res.once('close', () => admission.requestEnded(req.socket));
      try {
        handleHttp(door, req, res);
      } catch (err) {
        o.log?.(`web: request failed: ${(err as Error).message}`);
        if (!res.headersSent) plain(door, res, 500, 'Internal error.');
        else res.destroy();
      }
    });
    server.headersTimeout = limits.idleMs;
    server.requestTimeout = 30_000;
    // The TLS listener reports plain connections through 'secureConnection' as well; admission counts the raw socket.
    server.on('connection', (socket: Socket) => {
      admission.opened(socket, socket.remoteAddress ?? '');
      socket.once('close', () => admission.closed(socket));
    });
    // Node's own answers to malformed requests carry the same headers as ours.
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
      if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      socket.end(rawResponse(door, status, 'Refused: the request could not be read.'));
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => upgrade(door, req, socket, head));
  };

  const server = createServer();
  listen(server, loopback);
  const lanServer = o.lan && lan ? (createHttpsServer({ cert: o.lan.cert, key: o.lan.key, minVersion: 'TLSv1.2' }) as unknown as Server) : null;
  if (lanServer && lan) listen(lanServer, lan);

  const plain = (door: Door, res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...door.headers(), 'Content-Type': 'text/plain; charset=utf-8', ...extra });
    res.end(text + '\n');
  };

  /** An answer written straight to a socket (refused upgrades, unreadable requests), with every header a normal answer carries. */
  const rawResponse = (door: Door, status: number, text: string, extra: Record<string, string> = {}): string => {
    const body = text + '\n';
    const headers = { ...door.headers(), 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close', 'Content-Length': String(Buffer.byteLength(body)), ...extra };
    return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n${body}`;
  };

  function handleHttp(door: Door, req: IncomingMessage, res: ServerResponse): void {
    const refused = door.refusal(req);
    if (refused) return plain(door, res, refused.status, refused.text);
    const session = signedIn(door, req);
    const url = new URL(req.url!, 'http://localhost');
    if (url.pathname === AUTH_PATH && door.kind === 'loopback') {
      if (req.method !== 'POST') return plain(door, res, 405, 'Use POST with Authorization: Bearer <token>.', { Allow: 'POST' });
      req.resume();
      if (!sameSecret(bearerToken(req.headers.authorization), o.token)) return plain(door, res, 401, 'Refused: the token is missing or wrong. Open the address threshold serve printed.');
      admission.signIn(req.socket);
      res.writeHead(204, { ...door.headers(), 'Set-Cookie': sessionCookie(port, o.token) });
      return void res.end();
    }
    if (url.pathname === PAIR_PATH && door.kind === 'lan') return pair(door, req, res);
    if (url.pathname === WS_PATH) return session ? plain(door, res, 426, 'This address takes a WebSocket.', { Upgrade: 'websocket' }) : plain(door, res, 401, door.kind === 'lan' ? 'Refused: this device is not paired (or was revoked). Pair it from Settings → Devices on your computer.' : 'Refused: not signed in.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(door, res, 405, 'Only GET and HEAD.', { Allow: 'GET, HEAD' });
    const file = resolveStatic(o.rendererDir, url.pathname);
    if (!file) return plain(door, res, 404, 'Not found.');
    res.writeHead(200, { ...door.headers(), 'Content-Type': file.type, 'Content-Length': String(file.size) });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file.file)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  /** POST /pair {code, name}: a one-time code from the desk's QR code becomes this device's cookie. */
  function pair(door: Door, req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') return plain(door, res, 405, 'Use POST with {"code": …, "name": …}.', { Allow: 'POST' });
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return plain(door, res, 415, 'Refused: send JSON.');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > PAIR_BODY_MAX) {
        plain(door, res, 413, `Refused: a pairing request is at most ${PAIR_BODY_MAX} bytes.`);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      let body: { code?: unknown; name?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: unknown; name?: unknown };
      } catch {
        return plain(door, res, 400, 'Refused: the pairing request is not JSON.');
      }
      if (typeof body?.code !== 'string' || typeof body.name !== 'string') return plain(door, res, 400, 'Refused: a pairing request is {"code": "<the code>", "name": "<this device>"}.');
      const r = o.lan!.devices.pair(body.code, body.name);
      if (!r.ok) return plain(door, res, r.status, r.message);
      res.writeHead(204, { ...door.headers(), 'Set-Cookie': deviceCookie(lanPort, r.token) });
      res.end();
    });
  }

  function upgrade(door: Door, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    admission.requestStarted(socket);
    const refuse = (status: number, text: string) => void socket.end(rawResponse(door, status, text));
    const refused = door.refusal(req);
    if (refused) return refuse(refused.status, refused.text);
    const url = new URL(req.url!, 'http://localhost');
    // Only the cookie signs a socket in: a token in the query would end up in logs and histories.
    if (url.pathname !== WS_PATH || url.search !== '') return refuse(404, 'Not found.');
    const session = signedIn(door, req);
    if (!session) return refuse(401, door.kind === 'lan' ? 'Refused: this device is not paired (or was revoked).' : 'Refused: not signed in.');
    if (sockets.size >= limits.maxPages) return refuse(503, `Refused: ${limits.maxPages} pages are open already; close one and reload.`);
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, session));
  }

  function send(ws: WebSocket, message: ServerMessage): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED) {
      o.log?.('web: a page that stopped reading was disconnected');
      ws.terminate();
      return;
    }
    ws.send(JSON.stringify(message));
  }

  function accept(ws: WebSocket, session: Session): void {
    const connection = new DisposableStore();
    const liveness = { alive: true, deviceId: session.deviceId };
    sockets.set(ws, liveness);
    connection.defer(() => void sockets.delete(ws));
    // An open page is someone who can answer; closing it removes that surface.
    if (session.addApprover) connection.defer(session.addApprover());
    connection.defer(
      o.subscribe((event) => {
        // A revoked device's open page is closed at once; its next request is refused at the door.
        if (event.name === 'device.revoked' && session.deviceId && event.payload.id === session.deviceId) return void ws.close(4401, 'This device was revoked.');
        const shown = session.view(event);
        if (shown) send(ws, { event: shown });
      }),
    );
    let inFlight = 0;
    ws.on('pong', () => (liveness.alive = true));
    ws.on('error', () => ws.terminate());
    ws.on('close', () => void connection.dispose());
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const reply = (id: number | null, result: Result<unknown>) => send(ws, { id, result });
      const error = (id: number | null, code: string, message: string) => reply(id, { ok: false, error: { code, message } });
      if (session.deviceId && !o.lan!.devices.paired(session.deviceId)) return void ws.close(4401, 'This device was revoked.');
      if (isBinary) return error(null, 'invalid_message', 'Messages are JSON text, not binary.');
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data instanceof ArrayBuffer ? data.byteLength : data.length;
      if (size > MAX_MESSAGE_BYTES) return error(null, 'message_too_large', `A message may be at most ${MAX_MESSAGE_BYTES} bytes.`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'));
      } catch (err) {
        return error(null, 'invalid_message', `Not valid JSON: ${(err as Error).message}`);
      }
      const message = clientMessageSchema.safeParse(parsed);
      if (!message.success) {
        const rawId = (parsed as { id?: unknown } | null)?.id;
        const id = typeof rawId === 'number' && Number.isSafeInteger(rawId) && rawId > 0 ? rawId : null;
        const issue = message.error.issues[0]!;
        return error(id, 'invalid_message', `A message is {"id": <positive integer>, "op": "<operation>", "params": …}: ${issue.path.join('.') || 'message'}: ${issue.message}.`);
      }
      const { id, op, params } = message.data;
      // The desktop window's own operations: a key typed in a browser is never taken (docs/web-mode.md).
      if (WINDOW_ONLY.has(resolveOperation(op, 'ui') ?? '')) return error(id, 'unknown_operation', `There is no operation "${op}" for a browser page: the API key is stored from the desktop window, or set in the environment variable the Model page names.`);
      if (inFlight >= MAX_IN_FLIGHT) return error(id, 'too_many_requests', `At most ${MAX_IN_FLIGHT} calls may run at once on one connection.`);
      inFlight++;
      void invokeOperation(session.handlers, 'ui', op, params)
        .then((result) => reply(id, result))
        .finally(() => inFlight--);
    });
  }

  const heartbeat = setInterval(() => {
    for (const [ws, liveness] of sockets) {
      if (!liveness.alive) ws.terminate();
      else {
        liveness.alive = false;
        ws.ping();
      }
    }
  }, o.heartbeatMs ?? 30_000);
  heartbeat.unref();
  owned.defer(() => clearInterval(heartbeat));

  const bind = (srv: Server, p: number, host: string) =>
    new Promise<number>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(p, host, () => {
        srv.off('error', reject);
        resolve((srv.address() as { port: number }).port);
      });
    });
  const close = (srv: Server) =>
    new Promise<void>((resolve) => {
      srv.close(() => resolve());
      srv.closeAllConnections();
    });
  try {
    port = await bind(server, o.port, '127.0.0.1');
  } catch (err) {
    // The port is taken (or refused): nothing of this attempt outlives it, so another can be made.
    await owned.dispose();
    wss.close();
    throw err;
  }
  // An accept that fails (EMFILE when file descriptors run out under a flood) is logged, never thrown.
  server.on('error', (err) => o.log?.(`web: ${err.message}`));
  if (lanServer && o.lan) {
    try {
      lanPort = await bind(lanServer, o.lan.port, o.lan.address);
      lanServer.on('error', (err) => o.log?.(`web (phone page): ${err.message}`));
    } catch (err) {
      await close(server);
      await owned.dispose();
      wss.close();
      throw new Error(`the phone page could not listen on ${lanHost(o.lan.address, o.lan.family, o.lan.port)} (${(err as Error).message}); check [remote.phone] address is this computer's`, { cause: err });
    }
  }
  owned.defer(async () => {
    for (const ws of sockets.keys()) ws.terminate();
    wss.close();
    await Promise.all([close(server), lanServer ? close(lanServer) : Promise.resolve()]);
  });
  const origin = `http://127.0.0.1:${port}`;
  return { port, origin, url: `${origin}/#token=${o.token}`, lanOrigin: o.lan ? `https://${lanName()}` : null, connections: () => sockets.size, dispose: () => owned.dispose() };
}
