// The control API server: JSON-RPC 2.0 over a Unix domain socket in the data directory, one JSON message
// per line. The socket is mode 0600 in a directory no one else can write to.
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { Agent } from '../agent/agent';
import type { ThresholdCore } from '../gate/core';
import { checkDataDir } from '../gate/core';
import { DEFAULT_CONTROL_LIMITS, framingError, serveConnection, type ControlLimits } from './connection';
import type { Handlers } from '../runtime/handlers';
import { createMethods, methodsFor, type ControlMethods } from './methods';
import { MAX_NESTING, nestingDepth, tooDeepMessage } from '../../common/nesting';
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

/**
 * Handles one JSON-RPC message (or batch); returns the response text, or null for notifications. Never
 * rejects: whatever a message holds, the answer is a JSON-RPC reply.
 */
export async function handleMessage(text: string, methods: ControlMethods, onSubscribe?: () => void, signal?: AbortSignal): Promise<string | null> {
  try {
    return await handleText(text, methods, onSubscribe, signal);
  } catch (err) {
    return JSON.stringify(errorResponse(null, new RpcError('internal_error', `Internal error: ${(err as Error).message}`)));
  }
}

async function handleText(text: string, methods: ControlMethods, onSubscribe?: () => void, signal?: AbortSignal): Promise<string | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return JSON.stringify(errorResponse(null, new RpcError('parse_error', `Not valid JSON: ${(err as Error).message}`)));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return JSON.stringify(errorResponse(null, new RpcError('invalid_request', 'An empty batch is not a request.')));
    if (parsed.length > MAX_BATCH) return JSON.stringify(errorResponse(null, new RpcError('invalid_request', `A batch may hold at most ${MAX_BATCH} requests.`)));
    const responses = (await Promise.all(parsed.map((m) => handleOne(m, methods, onSubscribe, signal)))).filter((r): r is RpcResponse => r !== null);
    return responses.length ? JSON.stringify(responses) : null;
  }
  const r = await handleOne(parsed, methods, onSubscribe, signal);
  return r ? JSON.stringify(r) : null;
}

function isRpcId(v: unknown): v is RpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || v === null;
}

async function handleOne(msg: unknown, methods: ControlMethods, onSubscribe?: () => void, signal?: AbortSignal): Promise<RpcResponse | null> {
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
      onSubscribe?.();
      result = { subscribed: true };
    } else {
      if (nestingDepth(m['params'], MAX_PARAMS_NESTING) > MAX_PARAMS_NESTING) throw new RpcError('invalid_params', `Invalid params for ${method}: ${tooDeepMessage('they', MAX_PARAMS_NESTING)}.`);
      // Names (own keys only: "constructor" is not a method), aliases and params schemas come from the
      // operations table (common/operations.ts).
      result = await methods.call(method, m['params'] ?? undefined, signal);
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

export async function startControlServer(
  core: ThresholdCore,
  dataDir: string,
  agent: Agent | null = null,
  handlers?: Handlers,
  limitsGiven: Partial<ControlLimits> = {},
): Promise<ControlServer> {
  const limits: ControlLimits = { ...DEFAULT_CONTROL_LIMITS, ...limitsGiven };
  checkDataDir(dataDir);
  const path = socketPath(dataDir);
  if (existsSync(path)) {
    if (await socketAnswers(path)) throw new Error(`Another process already serves ${path}.`);
    rmSync(path, { force: true });
  }
  const methods = handlers ? methodsFor(handlers) : createMethods(core, 'control', agent);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    if (sockets.size >= limits.maxConnections) {
      socket.on('error', () => socket.destroy());
      socket.end(framingError('too_many_connections', `The control socket serves at most ${limits.maxConnections} connections at once; close one and try again.`));
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(
      socket,
      {
        handle: (text, subscribe, signal) => handleMessage(text, methods, subscribe, signal),
        subscribe: (push) => core.events.onAny((name, payload) => push(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { name, payload } }))),
      },
      limits,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
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
