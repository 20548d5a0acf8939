// The surfaces under floods (issue 26), side by side in one run: a quick control call (what `ctl pending`
// sends) and a signed-in page's call, each without a flood and during one, on a real control server and
// a real web server over one core; and the reviewer's fence check on a field at the size limit, against
// a bare NFKC pass over the same text.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect as netConnect, createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { forgesFence } from '../../main/reviewer/fence';
import { createHandlers } from '../../main/runtime/handlers';
import { startWebServer } from '../../main/web/server';
import { loadWebToken } from '../../main/web/token';
import { testCore } from '../support/core';
import { rawClient } from '../support/raw-control-client';
import { percentile, sampleSync, type BenchSuite } from './harness';
import { serveControl } from '../support/control';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timedCalls(n: number, call: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    samples.push(performance.now() - t);
  }
  return samples.sort((a, b) => a - b);
}

export const suites: BenchSuite[] = [
  {
    name: 'control socket during floods',
    async run(report) {
      const core = await testCore({ ttlSeconds: 0 });
      const dir = mkdtempSync(join(tmpdir(), 'threshold-bench-ctl-'));
      const server = await serveControl(core, dir);
      // A new connection per call, as `ctl` makes one; settings.get, whose answer does not grow with the
      // flood's own pending approvals, so the two phases compare the socket and not the reply's size.
      const pending = async () => {
        const c = await rawClient(server.path);
        c.write('{"jsonrpc":"2.0","id":1,"method":"settings.get"}\n');
        await c.next();
        c.close();
      };
      const quiet = await timedCalls(300, pending);
      const silent: Socket[] = Array.from({ length: 40 }, () => createConnection(server.path).on('error', () => undefined));
      const waiting = await Promise.all(Array.from({ length: 32 }, () => rawClient(server.path)));
      waiting.forEach((w, i) => w.write(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'approval.request', params: { tool: 'run_command', args: { command: `touch b${i}` }, session_id: `b${i}` } }) + '\n'));
      while (core.gate.listPending().length < 32) await settle(10);
      const flooded = await timedCalls(300, pending);
      report({ name: 'a quick call (settings.get) on a new connection, no flood, median', value: percentile(quiet, 50), unit: 'ms' });
      report({ name: 'same, during 40 silent + 32 waiting connections, median', value: percentile(flooded, 50), unit: 'ms' });
      report({ name: 'same, during the flood, p99', value: percentile(flooded, 99), unit: 'ms', note: `no flood p99 ${percentile(quiet, 99).toFixed(2)} ms` });
      report({ name: 'flooded / quiet median', value: percentile(flooded, 50) / percentile(quiet, 50), unit: 'ratio' });
      for (const s of silent) s.destroy();
      for (const w of waiting) w.close();
      await server.close();
      core.dispose();
    },
  },
  {
    name: 'web page during a flood of idle sockets',
    async run(report) {
      const core = await testCore();
      const dir = mkdtempSync(join(tmpdir(), 'threshold-bench-web-'));
      mkdirSync(join(dir, 'r'));
      writeFileSync(join(dir, 'r', 'index.html'), '<!doctype html>');
      const token = loadWebToken(dir);
      const web = await startWebServer({ port: 0, rendererDir: join(dir, 'r'), token, handlers: createHandlers({ version: '0', core, surface: 'web' }), subscribe: () => () => undefined });
      // Signing in and one call, as a page someone opens does.
      const openPage = async () => {
        const auth = await fetch(`${web.origin}/auth`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
        const cookie = auth.headers.get('set-cookie')!.split(';')[0]!;
        const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, { headers: { Cookie: cookie }, origin: web.origin });
        await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
        await new Promise<void>((resolve) => {
          ws.once('message', () => resolve());
          ws.send('{"id":1,"op":"approval.list_pending"}');
        });
        ws.close();
      };
      const quiet = await timedCalls(100, openPage);
      let stopped = false;
      let opened = 0;
      const hold = () => {
        if (stopped) return;
        opened++;
        netConnect({ host: '127.0.0.1', port: web.port })
          .on('error', () => undefined)
          .once('close', () => setTimeout(hold, 20));
      };
      for (let i = 0; i < 300; i++) hold();
      await settle(500);
      const flooded = await timedCalls(100, openPage);
      stopped = true;
      report({ name: 'sign in + WebSocket + one call, no flood, median', value: percentile(quiet, 50), unit: 'ms' });
      report({ name: 'same, while 300 idle sockets are held open (reopened as closed), median', value: percentile(flooded, 50), unit: 'ms', note: `${opened} flood connections opened` });
      report({ name: 'same, during the flood, p99', value: percentile(flooded, 99), unit: 'ms', note: `no flood p99 ${percentile(quiet, 99).toFixed(2)} ms` });
      report({ name: 'flooded / quiet median', value: percentile(flooded, 50) / percentile(quiet, 50), unit: 'ratio' });
      await web.dispose();
      core.dispose();
    },
  },
  {
    name: 'reviewer fence check',
    async run(report) {
      // A 2,000-character field (the most a reviewer is shown), mixed scripts, brackets and escapes.
      const field = ('Refactor <b>the</b> parser — «ничего» ⟨x⟩ 《注意》 &lt;ok&gt; \\u003c 𝐮𝐧𝐭𝐫 untrustworthy ').repeat(40).slice(0, 2000);
      const fence = sampleSync(() => void forgesFence(field), { ms: 1500, batch: 5 });
      const nfkc = sampleSync(() => void field.normalize('NFKC'), { ms: 1500, batch: 50 });
      report({ name: 'forgesFence on a 2,000-character field, median', value: percentile(fence, 50) * 1000, unit: 'µs' });
      report({ name: 'forgesFence, p99', value: percentile(fence, 99) * 1000, unit: 'µs' });
      report({ name: 'forgesFence / a bare NFKC pass over the same field, medians', value: percentile(fence, 50) / percentile(nfkc, 50), unit: 'ratio' });
    },
  },
];
