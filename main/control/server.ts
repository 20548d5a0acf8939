// The control API server: JSON-RPC 2.0 over a Unix domain socket in the data directory, one JSON message
// per line. The socket is mode 0600 in a directory no one else can write to.
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { checkDataDir } from '../config/dirs';
import { ControlAdmission } from './admission';
import { DEFAULT_CONTROL_LIMITS, serveConnection, type ConnectionControl, type ControlLimits } from './connection';
import type { Handlers } from '../../common/invoke';
import { connectionMethods, type DesktopChannel } from './desktop-channel';
import { methodsFor, type ControlMethods } from './methods';
import { MAX_NESTING, nestingDepth, tooDeepMessage } from '../../common/nesting';
import { resolveOperation } from '../../common/operations';
import { RpcError, type RpcErrorObject, type RpcId, type RpcResponse } from './rpc';
import { socketPath } from './socket-path';

/** The most requests one batch may hold. */
const MAX_BATCH = 100;

/**
 * How deep params may nest. Above the gate's own limit for tool-call arguments (which sit two levels down
 * in approval.request), so a call nested just past that limit still reaches the gate and is recorded as
 * refused; anything deeper is refused at the door.
 */
const MAX_PARAMS_NESTING = MAX_NESTING + 8;

export { socketPath };

export interface ControlServer {
  path: string;
  close(): Promise<void>;
}

/** A connection's place in the control socket's budgets (admission.ts), as one request sees it. */
export interface RequestLease {
  /** Null when a long request finds no waiting place; else the function that ends the request. */
  begin(long: boolean): (() => void) | null;
  /** False when there is no waiting place for a subscription. */
  subscribe(): boolean;
}

/** Requests that wait for a person or a turn: they hold a waiting place, not a quick one. */
export function waitsLong(method: string, params: unknown): boolean {
  const canonical = resolveOperation(method, 'control');
  const wait = params !== null && typeof params === 'object' ? (params as Record<string, unknown>)['wait'] : undefined;
  return (canonical === 'approval.request' || canonical === 'agent.send') && wait !== false;
}

const tooManyWaiting = (max: number) =>
  new RpcError('too_many_waiting', `${max} connections are already waiting (for a decision, a turn or events), the most the control socket keeps; this request was not started. Decide or stop some of them, or ask without waiting (--no-wait).`);

/**
 * Handles one JSON-RPC message (or batch); returns the response text, or null for notifications. Never
 * rejects: whatever a message holds, the answer is a JSON-RPC reply.
 */
export async function handleMessage(text: string, methods: ControlMethods, onSubscribe?: () => void, lease?: RequestLease, maxWaiting = DEFAULT_CONTROL_LIMITS.maxWaiting, signal?: AbortSignal): Promise<string | null> {
  try {
    return await handleText(text, methods, { onSubscribe, lease, maxWaiting, signal });
  } catch (err) {
    return JSON.stringify(errorResponse(null, new RpcError('internal_error', `Internal error: ${(err as Error).message}`)));
  }
}

interface MessageContext {
  onSubscribe?: () => void;
  lease?: RequestLease;
  maxWaiting: number;
  /** Aborts when the client goes away: what it waits on is withdrawn. */
  signal?: AbortSignal;
}

async function handleText(text: string, methods: ControlMethods, ctx: MessageContext): Promise<string | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return JSON.stringify(errorResponse(null, new RpcError('parse_error', `Not valid JSON: ${(err as Error).message}`)));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return JSON.stringify(errorResponse(null, new RpcError('invalid_request', 'An empty batch is not a request.')));
    if (parsed.length > MAX_BATCH) return JSON.stringify(errorResponse(null, new RpcError('invalid_request', `A batch may hold at most ${MAX_BATCH} requests.`)));
    const responses = (await Promise.all(parsed.map((m) => handleOne(m, methods, ctx)))).filter((r): r is RpcResponse => r !== null);
    return responses.length ? JSON.stringify(responses) : null;
  }
  const r = await handleOne(parsed, methods, ctx);
  return r ? JSON.stringify(r) : null;
}

function isRpcId(v: unknown): v is RpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || v === null;
}

async function handleOne(msg: unknown, methods: ControlMethods, ctx: MessageContext): Promise<RpcResponse | null> {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return errorResponse(null, new RpcError('invalid_request', 'A request must be a JSON object.'));
  const m = msg as Record<string, unknown>;
  const hasId = Object.hasOwn(m, 'id');
  // An id that is an object, array or boolean makes the request invalid: answered with id null, not run.
  if (hasId && !isRpcId(m['id'])) return errorResponse(null, new RpcError('invalid_request', 'The "id" must be a string, a number or null.'));
  const id = hasId ? (m['id'] as RpcId) : null;
  if (m['jsonrpc'] !== '2.0' || typeof m['method'] !== 'string') return errorResponse(id, new RpcError('invalid_request', 'A request needs "jsonrpc": "2.0" and a string "method".'));
  const isNotification = !hasId;
  const method = m['method'];
  let result: unknown;
  try {
    if (method === 'events.subscribe') {
      if (ctx.lease && !ctx.lease.subscribe()) throw tooManyWaiting(ctx.maxWaiting);
      ctx.onSubscribe?.();
      result = { subscribed: true };
    } else {
      if (nestingDepth(m['params'], MAX_PARAMS_NESTING) > MAX_PARAMS_NESTING) throw new RpcError('invalid_params', `Invalid params for ${method}: ${tooDeepMessage('they', MAX_PARAMS_NESTING)}.`);
      const end = ctx.lease ? ctx.lease.begin(waitsLong(method, m['params'])) : () => undefined;
      if (!end) throw tooManyWaiting(ctx.maxWaiting);
      try {
        // Names (own keys only: "constructor" is not a method), aliases and params schemas come from the
        // operations table (common/operations.ts).
        result = await methods.call(method, m['params'] ?? undefined, ctx.signal);
      } finally {
        end();
      }
    }
  } catch (err) {
    if (isNotification) return null;
    return errorResponse(id, err instanceof RpcError ? err : new RpcError('internal_error', `Internal error: ${(err as Error).message}`));
  }
  return isNotification ? null : { jsonrpc: '2.0', id, result };
}

function errorResponse(id: RpcId, err: RpcError): RpcResponse {
  const error: RpcErrorObject = err.toObject();
  return { jsonrpc: '2.0', id, error };
}

/** Every event of the core as it is emitted (a subscriber receives it pushed as a notification). */
export type EventSource = (listener: (name: string, payload: unknown) => void) => () => void;

/** Serves the operations' handlers (the control surface's) on the data directory's socket. */
export async function startControlServer(
  dataDir: string,
  handlers: Handlers,
  events: EventSource,
  limitsGiven: Partial<ControlLimits> = {},
  desktop?: DesktopChannel,
): Promise<ControlServer> {
  const limits: ControlLimits = { ...DEFAULT_CONTROL_LIMITS, ...limitsGiven };
  checkDataDir(dataDir);
  const path = socketPath(dataDir);
  if (existsSync(path)) {
    if (await socketAnswers(path)) throw new Error(`Another process already serves ${path}.`);
    rmSync(path, { force: true });
  }
  const methods = methodsFor(handlers);
  const sockets = new Set<Socket>();
  // No cap on the listener: places are kept per kind of work (admission.ts), so waiting requesters and
  // silent sockets never lock out the one who decides.
  const admission = new ControlAdmission(limits);
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let connection: ConnectionControl | null = null;
    // Each connection may become the desktop window's (desktop.attach); its approver and its open key
    // questions end with it.
    const desktopAware = connectionMethods(methods, desktop, (text) => connection?.notify(text));
    const lease = admission.open((code, message) => connection?.refuse(code, message));
    socket.on('close', () => {
      sockets.delete(socket);
      lease.release();
      desktopAware.close();
    });
    connection = serveConnection(
      socket,
      {
        handle: (text, subscribe, signal) => handleMessage(text, desktopAware.methods, subscribe, lease, limits.maxWaiting, signal),
        subscribe: (push) => events((name, payload) => push(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { name, payload } }))),
        identify: () => lease.identify(),
        inOrder: () => !desktopAware.attached(),
      },
      limits,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  // An accept that fails (EMFILE when file descriptors run out under a flood) must not end the core.
  server.on('error', () => undefined);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          rmSync(path, { force: true });
          resolve();
        });
      }),
  };
}

function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
