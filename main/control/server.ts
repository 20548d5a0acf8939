// The control API server: JSON-RPC 2.0 over a Unix domain socket in the data directory, one JSON message
// per line. The socket is mode 0600 in a directory no one else can write to.
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Agent } from '../agent/agent';
import type { ThresholdCore } from '../gate/core';
import { checkDataDir } from '../gate/core';
import type { Handlers } from '../runtime/handlers';
import { createMethods, methodsFor, type ControlMethods } from './methods';
import { RpcError, type RpcErrorObject, type RpcId, type RpcResponse } from './rpc';

const MAX_MESSAGE = 1024 * 1024;

export function socketPath(dataDir: string): string {
  return join(dataDir, 'control.sock');
}

export interface ControlServer {
  path: string;
  close(): Promise<void>;
}

/** Handles one JSON-RPC message (or batch); returns the response text, or null for notifications. */
export async function handleMessage(text: string, methods: ControlMethods, onSubscribe?: () => void): Promise<string | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return JSON.stringify(errorResponse(null, new RpcError('parse_error', `Not valid JSON: ${(err as Error).message}`)));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return JSON.stringify(errorResponse(null, new RpcError('invalid_request', 'An empty batch is not a request.')));
    const responses = (await Promise.all(parsed.map((m) => handleOne(m, methods, onSubscribe)))).filter((r): r is RpcResponse => r !== null);
    return responses.length ? JSON.stringify(responses) : null;
  }
  const r = await handleOne(parsed, methods, onSubscribe);
  return r ? JSON.stringify(r) : null;
}

async function handleOne(msg: unknown, methods: ControlMethods, onSubscribe?: () => void): Promise<RpcResponse | null> {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return errorResponse(null, new RpcError('invalid_request', 'A request must be a JSON object.'));
  const m = msg as Record<string, unknown>;
  const id = (typeof m['id'] === 'string' || typeof m['id'] === 'number' || m['id'] === null ? m['id'] : undefined) as RpcId | undefined;
  if (m['jsonrpc'] !== '2.0' || typeof m['method'] !== 'string') return errorResponse(id ?? null, new RpcError('invalid_request', 'A request needs "jsonrpc": "2.0" and a string "method".'));
  const isNotification = !('id' in m);
  const method = m['method'];
  let result: unknown;
  try {
    if (method === 'events.subscribe') {
      onSubscribe?.();
      result = { subscribed: true };
    } else {
      // Names, aliases and params schemas come from the operations table (common/operations.ts).
      result = await methods.call(method, m['params'] ?? undefined);
    }
  } catch (err) {
    if (isNotification) return null;
    return errorResponse(id ?? null, err instanceof RpcError ? err : new RpcError('internal_error', `Internal error: ${(err as Error).message}`));
  }
  return isNotification ? null : { jsonrpc: '2.0', id: id ?? null, result };
}

function errorResponse(id: RpcId, err: RpcError): RpcResponse {
  const error: RpcErrorObject = err.toObject();
  return { jsonrpc: '2.0', id, error };
}

export async function startControlServer(core: ThresholdCore, dataDir: string, agent: Agent | null = null, handlers?: Handlers): Promise<ControlServer> {
  checkDataDir(dataDir);
  const path = socketPath(dataDir);
  if (existsSync(path)) {
    if (await socketAnswers(path)) throw new Error(`Another process already serves ${path}.`);
    rmSync(path, { force: true });
  }
  const methods = handlers ? methodsFor(handlers) : createMethods(core, 'control', agent);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setEncoding('utf8');
    let buffer = '';
    let unsubscribe: (() => void) | null = null;
    const send = (text: string) => {
      if (!socket.destroyed) socket.write(text + '\n');
    };
    const subscribe = () => {
      unsubscribe ??= core.events.onAny((name, payload) => send(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { name, payload } })));
    };
    let chain = Promise.resolve();
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_MESSAGE && !buffer.includes('\n')) {
        send(JSON.stringify(errorResponse(null, new RpcError('message_too_large', `A message may be at most ${MAX_MESSAGE} bytes.`))));
        socket.end();
        return;
      }
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        // Requests on one connection are answered in order.
        chain = chain.then(async () => {
          const out = await handleMessage(line, methods, subscribe);
          if (out !== null) send(out);
        });
      }
    });
    socket.on('close', () => {
      unsubscribe?.();
      sockets.delete(socket);
    });
    socket.on('error', () => socket.destroy());
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
