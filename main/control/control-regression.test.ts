// Each line: an input that broke the control API once, and what it gets now.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCore } from '../../test/support/core';
import type { ThresholdCore } from '../runtime/core';
import { ControlClient } from './client';
import { handleMessage, type ControlServer } from './server';
import { rawClient } from '../../test/support/raw-control-client';
import { createMethods, serveControl } from '../../test/support/control';

let core: ThresholdCore;
let server: ControlServer;

beforeAll(async () => {
  core = await testCore();
  server = await serveControl(core, mkdtempSync(join(tmpdir(), 'threshold-rpc-reg-')));
});
afterAll(async () => {
  await server.close();
  core.dispose();
});

const send = async (text: string) => {
  const r = await handleMessage(text, createMethods(core));
  return r === null ? null : (JSON.parse(r) as Record<string, unknown>);
};
const nested = (depth: number, leaf = '0') => '['.repeat(depth) + leaf + ']'.repeat(depth);
const invalid = (message: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32600, message, data: { code: 'invalid_request' } } });
const noMethod = (id: unknown, method: string) => ({ jsonrpc: '2.0', id, error: { code: -32601, message: `There is no method "${method}".`, data: { code: 'method_not_found' } } });

describe('JSON-RPC 2.0 conformance', () => {
  it.each([
    { name: 'an object id is an invalid request, answered with id null', id: '{"x":1}' },
    { name: 'an array id is an invalid request', id: '[1]' },
    { name: 'a boolean id is an invalid request', id: 'true' },
    { name: 'an id nested 2,000 deep is an invalid request', id: nested(2000) },
  ])('$name, and nothing is executed', async ({ id }) => {
    const before = core.level();
    expect(await send(`{"jsonrpc":"2.0","id":${id},"method":"settings.set_level","params":{"level":"full"}}`)).toEqual(invalid('The "id" must be a string, a number or null.'));
    expect(core.level()).toEqual(before);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])('method "%s" from the prototype is not found (-32601), not an internal error', async (method) => {
    expect(await send(JSON.stringify({ jsonrpc: '2.0', id: 7, method }))).toEqual(noMethod(7, method));
  });

  it('a batch of more than 100 requests is refused whole', async () => {
    const batch = JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'settings.get' })));
    expect(await send(batch)).toEqual(invalid('A batch may hold at most 100 requests.'));
  });
});

describe('depth: nested input is refused with a sentence, never a stack overflow', () => {
  it.each([
    { name: 'params nested 2,000 deep', params: nested(2000) },
    { name: 'approval.request args nested 2,000 deep', params: `{"tool":"run_command","args":{"command":"ls","x":${nested(2000)}}}` },
    { name: 'approval.request args nested 100,000 deep', params: `{"tool":"mcp.srv.tool","args":{"x":${nested(100_000)}}}` },
  ])('$name get -32602', async ({ params }) => {
    const r = await send(`{"jsonrpc":"2.0","id":1,"method":"approval.request","params":${params}}`);
    expect(r).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params for approval.request: they nest deeper than 72 levels, more than Threshold accepts.', data: { code: 'invalid_params' } } });
  });

  it('a call whose arguments nest just past the gate limit is recorded and refused', async () => {
    const r = (await send(`{"jsonrpc":"2.0","id":1,"method":"approval.request","params":{"tool":"run_command","session_id":"deep","args":{"command":"ls","x":${nested(66)}}}}`)) as { result: { call_id: string; run: boolean; decision: string; decided_by: string } };
    expect({ run: r.result.run, decision: r.result.decision, decided_by: r.result.decided_by }).toEqual({ run: false, decision: 'deny', decided_by: 'tool:invalid_args' });
    const row = core.store.calls.get(r.result.call_id)!;
    expect({ tool: row.tool, decision: row.decision, explanation: row.explanation }).toEqual({ tool: 'run_command', decision: 'deny', explanation: 'Denied: Invalid arguments for run_command: they nest deeper than 64 levels, more than Threshold accepts.' });
  });

  it('a 4 KB message nested 2,000 deep over the socket is answered and the daemon serves the next request', async () => {
    const c = await rawClient(server.path);
    const text = `{"jsonrpc":"2.0","id":1,"method":"approval.request","params":{"tool":"run_command","args":{"x":${nested(2000)}}}}`;
    expect(text.length).toBeLessThan(4200);
    c.write(text + '\n');
    expect(await c.next()).toMatchObject({ id: 1, error: { code: -32602 } });
    c.close();
    const client = await ControlClient.connect(server.path);
    expect(await client.call('settings.get')).toMatchObject({ level: core.level() });
    client.close();
  });
});

describe('issue 26: the message cap is counted on bytes received, newline or not', () => {
  it.each([
    { name: 'a well-formed request one byte over 1 MiB, its newline in the same write, is never parsed', pad: (n: number) => 'x'.repeat(n) },
    { name: 'a request under 1 MiB in characters but over it in bytes (three-byte characters) is never parsed', pad: (n: number) => '€'.repeat(Math.ceil(n / 3)) },
  ])('$name', async ({ pad }) => {
    const head = '{"jsonrpc":"2.0","id":1,"method":"approval.list_pending","params":{"pad":"';
    const tail = '"}}';
    const text = head + pad(1024 * 1024 + 1 - head.length - tail.length) + tail;
    expect(Buffer.byteLength(text)).toBeGreaterThan(1024 * 1024);
    const c = await rawClient(server.path);
    c.write(text + '\n');
    expect(await c.next()).toMatchObject({ id: null, error: { code: -32011, data: { code: 'message_too_large' } } });
    await c.closed;
  });
});
