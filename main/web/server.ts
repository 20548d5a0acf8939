// The web mode (docs/web-mode.md): the built renderer over HTTP on 127.0.0.1, and one WebSocket at /ws
// that carries the operations table (common/operations.ts) to the same handlers as the Electron IPC.
// Every request must name our loopback host and port (DNS rebinding) and come from our origin; the data
// channel needs the token, exchanged at /auth for an HttpOnly, SameSite=Strict cookie.
import { createReadStream } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { DisposableStore, type Disposable } from '../../common/disposable';
import { resolveOperation, type CoreEvent, type Result } from '../../common/operations';
import { AUTH_PATH, MAX_MESSAGE_BYTES, WS_PATH, clientMessageSchema, type ServerMessage } from '../../common/web-protocol';
import { invokeOperation, type Handlers } from '../../common/invoke';
import { ConnectionAdmission, DEFAULT_ADMISSION_LIMITS, type AdmissionLimits } from './admission';
import { bearerToken, cookieName, hostAllowed, originAllowed, readCookie, sameSecret, securityHeaders, sessionCookie } from './security';
import { resolveStatic } from './static';

/** UI operations only the desktop window may call (the page's socket answers unknown_operation). */
const WINDOW_ONLY: ReadonlySet<string> = new Set(['settings.set_api_key']);

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
  /** Limits on connections that have not signed in yet, and on open pages (docs/web-mode.md). */
  limits?: Partial<WebLimits>;
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
  dispose(): Promise<void>;
}

/** A WebSocket whose unsent output grows past this is too slow to keep: it is closed. */
const MAX_BUFFERED = 16 * 1024 * 1024;
/** Calls one socket may have running at once. */
const MAX_IN_FLIGHT = 32;

export async function startWebServer(o: WebServerOptions): Promise<WebServer> {
  const owned = new DisposableStore();
  let port = o.port;
  /** Open sockets and whether each answered the last ping. */
  const sockets = new Map<WebSocket, { alive: boolean }>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const limits: WebLimits = { ...DEFAULT_WEB_LIMITS, ...o.limits };
  // No cap on the listener (a full listener locks everyone out): connections that have not signed in are
  // kept per address and timed (admission.ts); signed-in ones are never made to wait for them.
  const admission = owned.add(new ConnectionAdmission<Duplex>(limits));

  const server = createServer((req, res) => {
    admission.requestStarted(req.socket);
    res.once('close', () => admission.requestEnded(req.socket));
    // A request that carries the cookie signs its connection in, whatever it asks for.
    authenticated(req);
    try {
      handleHttp(req, res);
    } catch (err) {
      o.log?.(`web: request failed: ${(err as Error).message}`);
      if (!res.headersSent) plain(res, 500, 'Internal error.');
      else res.destroy();
    }
  });
  server.headersTimeout = limits.idleMs;
  server.requestTimeout = 30_000;
  server.on('connection', (socket: Socket) => {
    admission.opened(socket, socket.remoteAddress ?? '');
    socket.once('close', () => admission.closed(socket));
  });
  // Node's own answers to malformed requests carry the same headers as ours.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    socket.end(rawResponse(status, 'Refused: the request could not be read.'));
  });

  const plain = (res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...securityHeaders(port), 'Content-Type': 'text/plain; charset=utf-8', ...extra });
    res.end(text + '\n');
  };

  /** Why a request is refused before anything else is looked at, or null. */
  const refusal = (req: IncomingMessage): { status: number; text: string } | null => {
    if (!hostAllowed(req.headers.host, port)) return { status: 403, text: `Refused: the Host header must be 127.0.0.1:${port} or localhost:${port}.` };
    if (!originAllowed(req.headers.origin, port)) return { status: 403, text: 'Refused: the request comes from another origin.' };
    if (!req.url?.startsWith('/')) return { status: 400, text: 'Refused: the request target must be a path.' };
    return null;
  };
  const authenticated = (req: IncomingMessage) => {
    const yes = sameSecret(readCookie(req.headers.cookie, cookieName(port)), o.token);
    if (yes) admission.signIn(req.socket);
    return yes;
  };
  /** An answer written straight to a socket (refused upgrades, unreadable requests), with every header a normal answer carries. */
  const rawResponse = (status: number, text: string, extra: Record<string, string> = {}): string => {
    const body = text + '\n';
    const headers = { ...securityHeaders(port), 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close', 'Content-Length': String(Buffer.byteLength(body)), ...extra };
    return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n${body}`;
  };

  function handleHttp(req: IncomingMessage, res: ServerResponse): void {
    const refused = refusal(req);
    if (refused) return plain(res, refused.status, refused.text);
    const url = new URL(req.url!, `http://127.0.0.1:${port}`);
    if (url.pathname === AUTH_PATH) {
      if (req.method !== 'POST') return plain(res, 405, 'Use POST with Authorization: Bearer <token>.', { Allow: 'POST' });
      req.resume();
      if (!sameSecret(bearerToken(req.headers.authorization), o.token)) return plain(res, 401, 'Refused: the token is missing or wrong. Open the address threshold serve printed.');
      admission.signIn(req.socket);
      res.writeHead(204, { ...securityHeaders(port), 'Set-Cookie': sessionCookie(port, o.token) });
      return void res.end();
    }
    if (url.pathname === WS_PATH) return authenticated(req) ? plain(res, 426, 'This address takes a WebSocket.', { Upgrade: 'websocket' }) : plain(res, 401, 'Refused: not signed in.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Only GET and HEAD.', { Allow: 'GET, HEAD' });
    const file = resolveStatic(o.rendererDir, url.pathname);
    if (!file) return plain(res, 404, 'Not found.');
    res.writeHead(200, { ...securityHeaders(port), 'Content-Type': file.type, 'Content-Length': String(file.size) });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file.file)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    admission.requestStarted(socket);
    const refuse = (status: number, text: string) => void socket.end(rawResponse(status, text));
    const refused = refusal(req);
    if (refused) return refuse(refused.status, refused.text);
    const url = new URL(req.url!, `http://127.0.0.1:${port}`);
    // Only the cookie signs a socket in: a token in the query would end up in logs and histories.
    if (url.pathname !== WS_PATH || url.search !== '') return refuse(404, 'Not found.');
    if (!authenticated(req)) return refuse(401, 'Refused: not signed in.');
    if (sockets.size >= limits.maxPages) return refuse(503, `Refused: ${limits.maxPages} pages are open already; close one and reload.`);
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws));
  });

  function send(ws: WebSocket, message: ServerMessage): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED) {
      o.log?.('web: a page that stopped reading was disconnected');
      ws.terminate();
      return;
    }
    ws.send(JSON.stringify(message));
  }

  function accept(ws: WebSocket): void {
    const connection = new DisposableStore();
    const liveness = { alive: true };
    sockets.set(ws, liveness);
    connection.defer(() => void sockets.delete(ws));
    // An open page is someone who can answer; closing it removes that surface.
    if (o.addApprover) connection.defer(o.addApprover());
    connection.defer(o.subscribe((event) => send(ws, { event })));
    let inFlight = 0;
    ws.on('pong', () => (liveness.alive = true));
    ws.on('error', () => ws.terminate());
    ws.on('close', () => void connection.dispose());
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const reply = (id: number | null, result: Result<unknown>) => send(ws, { id, result });
      const error = (id: number | null, code: string, message: string) => reply(id, { ok: false, error: { code, message } });
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
      void invokeOperation(o.handlers, 'ui', op, params)
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

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    // The port is taken (or refused): nothing of this attempt outlives it, so another can be made.
    await owned.dispose();
    wss.close();
    throw err;
  }
  port = (server.address() as { port: number }).port;
  // An accept that fails (EMFILE when file descriptors run out under a flood) is logged, never thrown.
  server.on('error', (err) => o.log?.(`web: ${err.message}`));
  owned.defer(
    () =>
      new Promise<void>((resolve) => {
        for (const ws of sockets.keys()) ws.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const origin = `http://127.0.0.1:${port}`;
  return { port, origin, url: `${origin}/#token=${o.token}`, connections: () => sockets.size, dispose: () => owned.dispose() };
}
