// `ctl` reports a refusal as what it is: the daemon's own sentence and code, and exit code 4 ("running,
// but no place for you now") for the socket's budgets, never 3 ("not running") or a dropped connection.
// A real control server (main/control/server.ts) with its budgets set to refuse, and the real ctl code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli';
import { testCore } from '../../test/support/core';
import { framingError, type ControlLimits } from '../control/connection';
import { socketPath } from '../control/socket-path';
import type { ThresholdCore } from '../runtime/core';
import { EXIT } from './ctl';
import { serveControl } from '../../test/support/control';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function daemon(limits: Partial<ControlLimits>): Promise<{ dataDir: string; core: ThresholdCore }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'threshold-ctl-refused-'));
  const core = await testCore();
  const server = await serveControl(core, dataDir, limits);
  cleanup.push(async () => {
    await server.close();
    core.dispose();
  });
  return { dataDir, core };
}

const ctl = (dataDir: string, ...args: string[]) => runCli(['ctl', '--data-dir', dataDir, ...args]);

describe('ctl says what refused it', () => {
  it.each([
    {
      name: 'no place for quick operations: too_many_connections, exit 4',
      limits: { maxQuick: 0 },
      args: ['pending'],
      code: EXIT.busy,
      stderr: /^threshold ctl: The control socket is busy: at most 0 connections run quick operations at once and none of them is idle\. Try again in a moment\. \(too_many_connections\)\n$/,
    },
    {
      name: 'no waiting place for a request that waits: too_many_waiting, exit 4',
      limits: { maxWaiting: 0 },
      args: ['request', '--tool', 'write_file', '--args', '{"path":"a.txt","content":"x"}'],
      code: EXIT.busy,
      stderr: /^threshold ctl: 0 connections are already waiting .*this request was not started\..* \(too_many_waiting\)\n$/,
    },
    {
      name: 'a request over the message cap: message_too_large, exit 1 (the call failed; the daemon runs)',
      limits: { maxMessage: 2048 },
      args: ['request', '--tool', 'write_file', '--args', JSON.stringify({ path: 'a.txt', content: 'x'.repeat(4096) })],
      code: EXIT.failed,
      stderr: /^threshold ctl: A message may be at most 2048 bytes; this one is longer, so the connection is closed\. \(message_too_large\)\n$/,
    },
  ])('$name', async ({ limits, args, code, stderr }) => {
    const { dataDir } = await daemon(limits);
    const r = await ctl(dataDir, ...args);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code, stderr: expect.stringMatching(stderr) });
  });

  it('a request refused for want of a waiting place started nothing, and pending still answers (exit 0)', async () => {
    const { dataDir, core } = await daemon({ maxWaiting: 0 });
    await ctl(dataDir, 'request', '--tool', 'write_file', '--args', '{"path":"a.txt","content":"x"}');
    const pending = await ctl(dataDir, '--json', 'pending');
    expect({ code: pending.code, pending: JSON.parse(pending.stdout), calls: core.store.calls.listRecent(10).length }).toEqual({ code: 0, pending: [], calls: 0 });
  });

  it('a daemon that is not there is still exit 3', async () => {
    const r = await ctl(mkdtempSync(join(tmpdir(), 'threshold-ctl-none-')), 'pending');
    expect({ code: r.code, notRunning: /Threshold is not running/.test(r.stderr) }).toEqual({ code: EXIT.notRunning, notRunning: true });
  });
});

/**
 * A socket that answers as the daemon does when its budgets are full (the same refusal line, from the
 * same framingError) for the first `refusals` connections, then answers every request with an empty list.
 */
async function refusingThen(refusals: number): Promise<{ dataDir: string; connections: () => number; requests: () => number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'threshold-ctl-retry-'));
  let connections = 0;
  let requests = 0;
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    connections++;
    if (connections <= refusals) {
      socket.end(framingError('too_many_connections', 'The control socket had more than 16 connections that had sent nothing yet; this one, the oldest, was closed. Send the request as soon as you connect.'));
      return;
    }
    socket.setEncoding('utf8');
    socket.on('end', () => socket.end());
    socket.on('data', (line: string) => {
      for (const text of line.split('\n').filter(Boolean)) {
        requests++;
        const { id } = JSON.parse(text) as { id: number };
        socket.write(JSON.stringify({ jsonrpc: '2.0', id, result: [] }) + '\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(socketPath(dataDir), () => r()));
  cleanup.push(() => {
    for (const s of open) s.destroy();
    return new Promise<void>((r) => server.close(() => r()));
  });
  return { dataDir, connections: () => connections, requests: () => requests };
}

describe('a connection the daemon refused as a whole is tried again, as its sentence says', () => {
  it.each([
    { name: 'refused twice, then answered: ctl prints the answer once and exits 0', refusals: 2, code: 0, connections: 3, stdout: 'No approvals are pending.\n' },
    { name: 'refused three times, then answered: still within the three retries', refusals: 3, code: 0, connections: 4, stdout: 'No approvals are pending.\n' },
    { name: 'refused every time: after three retries, the daemon\'s sentence and exit 4', refusals: 99, code: EXIT.busy, connections: 4, stdout: '' },
  ])('$name', async ({ refusals, code, connections, stdout }) => {
    const d = await refusingThen(refusals);
    const r = await ctl(d.dataDir, 'pending');
    expect({ code: r.code, connections: d.connections(), stdout: r.stdout, said: code === 0 ? '' : r.stderr.includes('(too_many_connections)') ? 'refusal' : r.stderr }).toEqual({ code, connections, stdout, said: code === 0 ? '' : 'refusal' });
  });

  it('a request the daemon refused on its own (too_many_waiting) is not sent again', async () => {
    const { dataDir } = await daemon({ maxWaiting: 0 });
    const r = await ctl(dataDir, 'request', '--tool', 'write_file', '--args', '{"path":"a.txt","content":"x"}');
    expect({ code: r.code, waiting: /too_many_waiting/.test(r.stderr), once: (r.stderr.match(/threshold ctl:/g) ?? []).length }).toEqual({ code: EXIT.busy, waiting: true, once: 1 });
  });
});
