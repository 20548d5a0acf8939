import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextPending, testCore } from '../../test/support/core';
import type { ThresholdCore } from '../runtime/core';
import type { Socket } from 'node:net';
import { ControlClient, type RemoteError } from './client';
import { handleMessage, type ControlServer } from './server';
import { createMethods, serveControl } from '../../test/support/control';

let core: ThresholdCore;
let server: ControlServer;
let client: ControlClient;

beforeAll(async () => {
  core = await testCore();
  const dir = mkdtempSync(join(tmpdir(), 'threshold-rpc-'));
  server = await serveControl(core, dir);
  client = await ControlClient.connect(server.path);
});
afterAll(async () => {
  client.close();
  await server.close();
  core.dispose();
});

const send = (text: string) => handleMessage(text, createMethods(core)).then((r) => (r === null ? null : (JSON.parse(r) as Record<string, unknown>)));

describe('JSON-RPC bad input gets a JSON-RPC error with a stable code', () => {
  it.each([
    { name: 'text that is not JSON', text: '{"jsonrpc":"2.0",', code: -32700, data: 'parse_error' },
    { name: 'a request without jsonrpc', text: '{"id":1,"method":"settings.get"}', code: -32600, data: 'invalid_request' },
    { name: 'a request that is not an object', text: '42', code: -32600, data: 'invalid_request' },
    { name: 'an empty batch', text: '[]', code: -32600, data: 'invalid_request' },
    { name: 'an unknown method', text: '{"jsonrpc":"2.0","id":1,"method":"approval.approve_everything"}', code: -32601, data: 'method_not_found' },
    { name: 'an unknown parameter', text: '{"jsonrpc":"2.0","id":1,"method":"approval.list_pending","params":{"x":1}}', code: -32602, data: 'invalid_params' },
    { name: 'a limit above 500', text: '{"jsonrpc":"2.0","id":1,"method":"approval.list_recent_decisions","params":{"limit":501}}', code: -32602, data: 'invalid_params' },
    { name: 'a limit of 0', text: '{"jsonrpc":"2.0","id":1,"method":"approval.list_recent_decisions","params":{"limit":0}}', code: -32602, data: 'invalid_params' },
    { name: 'a decision without a hash', text: '{"jsonrpc":"2.0","id":1,"method":"approval.decide","params":{"id":"ap_x","outcome":"approve_once"}}', code: -32602, data: 'invalid_params' },
    { name: 'a malformed hash', text: '{"jsonrpc":"2.0","id":1,"method":"approval.decide","params":{"id":"ap_x","hash":"abc","outcome":"deny"}}', code: -32602, data: 'invalid_params' },
    { name: 'a decision for an unknown approval', text: `{"jsonrpc":"2.0","id":1,"method":"approval.decide","params":{"id":"ap_x","hash":"${'a'.repeat(64)}","outcome":"deny"}}`, code: -32001, data: 'not_found' },
    { name: 'an unknown level', text: '{"jsonrpc":"2.0","id":1,"method":"settings.set_level","params":{"level":"yolo"}}', code: -32602, data: 'invalid_params' },
    { name: 'revoking an unknown grant', text: '{"jsonrpc":"2.0","id":1,"method":"grants.revoke","params":{"id":"gr_x"}}', code: -32001, data: 'not_found' },
    { name: 'a grant with a pattern of the wrong kind', text: '{"jsonrpc":"2.0","id":1,"method":"grants.create","params":{"tool":"run_command","pattern":{"kind":"path","glob":"x"}}}', code: -32005, data: 'invalid_grant' },
  ])('$name', async ({ text, code, data }) => {
    const r = await send(text);
    expect(r).toMatchObject({ jsonrpc: '2.0', error: { code, data: { code: data }, message: expect.stringMatching(/\S/) } });
  });

  it('answers a notification with nothing', async () => {
    expect(await send('{"jsonrpc":"2.0","method":"settings.get"}')).toBeNull();
  });

  it('answers a batch with a batch', async () => {
    const r = (await handleMessage('[{"jsonrpc":"2.0","id":1,"method":"approval.list_pending"},{"jsonrpc":"2.0","id":2,"method":"nope"}]', createMethods(core))) as string;
    expect((JSON.parse(r) as { id: number }[]).map((x) => x.id)).toEqual([1, 2]);
  });
});

describe('the control socket', () => {
  it('returns empty lists as lists', async () => {
    expect(await client.call('approval.list_pending')).toEqual([]);
    expect(await client.call('approval.list_recent_decisions', { limit: 5 })).toEqual([]);
    expect(await client.call('grants.list')).toEqual([]);
  });

  it('parks a submitted call and decides it, end to end', async () => {
    const request = client.call<{ run: boolean; outcome: string }>('approval.request', { tool: 'run_command', args: { command: 'touch rpc.txt' } });
    const p = await nextPending(core);
    const other = await ControlClient.connect(server.path);
    const decided = await other.call<{ outcome: string; decided_by: string }>('approval.decide', { id: p.id, hash: p.hash, outcome: 'approve_once' });
    other.close();
    expect(decided).toMatchObject({ outcome: 'approve_once', decided_by: 'control' });
    expect(await request).toMatchObject({ run: true, outcome: 'approve_once' });
    const again = await client.call('approval.decide', { id: p.id, hash: p.hash, outcome: 'deny' }).catch((e: RemoteError) => e.error);
    expect(again).toMatchObject({ code: -32002, data: { code: 'already_decided' } });
  });

  it('pushes events to a subscriber', async () => {
    const sub = await ControlClient.connect(server.path);
    await sub.call('events.subscribe');
    const got = new Promise<string>((resolve) => {
      (sub as unknown as { socket: Socket }).socket.on('data', (chunk: string) => {
        if (chunk.includes('"settings.changed"')) resolve(chunk);
      });
    });
    await client.call('settings.set_level', { level: 'auto-edit' });
    expect(await got).toContain('"level":"auto-edit"');
    await client.call('settings.set_level', { level: 'supervised' });
    sub.close();
  });

  it('refuses a data directory others can write to', async () => {
    const { chmodSync } = await import('node:fs');
    const dir = mkdtempSync(join(tmpdir(), 'threshold-rpc-open-'));
    chmodSync(dir, 0o777);
    await expect(serveControl(core, dir)).rejects.toThrow(/writable by other users.*chmod 700/);
  });

  it('creates the socket with mode 0600', async () => {
    const { statSync } = await import('node:fs');
    expect(statSync(server.path).mode & 0o777).toBe(0o600);
  });
});
