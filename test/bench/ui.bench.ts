// The web UI: how long from the model emitting a call that asks to its card being on screen in
// Chromium (through the real gate, store, web server and renderer), and how big the renderer bundle is.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureRendererBundle } from '../../main/web/bundle';
import { FakeProvider } from '../fake-provider/server';
import { card, fixture, launch, say, startWeb } from '../e2e/support';
import { atMost, percentile, type BenchSuite } from './harness';

const SAMPLES = 30;
const WARMUP = 3;

/**
 * Runs in the page: reports each new card at the first frame after it is in the DOM (requestAnimationFrame
 * runs just before paint), and when its approval.requested message arrived, on the epoch clock.
 */
const OBSERVE_CARDS = `
  const now = () => performance.timeOrigin + performance.now();
  const seen = new Set();
  const arrived = new Map();
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => {
        const m = /"approval\\.requested","payload":\\{"id":"([^"]+)"/.exec(String(e.data));
        if (m) arrived.set(m[1], now());
      });
    }
  };
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('[data-approval-id]')) {
      const id = el.dataset.approvalId;
      if (seen.has(id)) continue;
      seen.add(id);
      requestAnimationFrame(() => window.cardShown(id, now(), arrived.get(id) ?? null));
    }
  }).observe(document, { childList: true, subtree: true });
`;

export const suites: BenchSuite[] = [
  {
    name: 'web UI',
    async run(report) {
      const out = await ensureRendererBundle();
      const assets = readdirSync(join(out, 'assets')).filter((a) => /\.(js|css)$/.test(a));
      const bytes = (pick: (a: string) => boolean) => assets.filter(pick).reduce((n, a) => n + readFileSync(join(out, 'assets', a)).length, 0);
      const gzipped = (pick: (a: string) => boolean) => assets.filter(pick).reduce((n, a) => n + gzipSync(readFileSync(join(out, 'assets', a)), { level: 9 }).length, 0);
      const js = (a: string) => a.endsWith('.js');
      const css = (a: string) => a.endsWith('.css');
      report({ name: 'renderer bundle: JavaScript', value: bytes(js), unit: 'bytes' });
      report({ name: 'renderer bundle: JavaScript, gzip', value: gzipped(js), unit: 'bytes' });
      report({ name: 'renderer bundle: CSS, gzip', value: gzipped(css), unit: 'bytes' });

      const fake = await FakeProvider.start();
      const f = fixture(fake);
      const [web, browser] = await Promise.all([startWeb(f), launch()]);
      try {
        const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
        const shown = new Map<string, { at: number; arrived: number | null }>();
        await page.exposeFunction('cardShown', (id: string, at: number, arrived: number | null) => shown.set(id, { at, arrived }));
        await page.addInitScript(OBSERVE_CARDS);
        await page.goto(web.url);
        await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
        const samples: number[] = [];
        const server: number[] = [];
        const renderer: number[] = [];
        for (let i = 0; i < SAMPLES + WARMUP; i++) {
          fake.clear();
          fake.enqueue({ toolCalls: [{ name: 'write_file', args: { path: `bench-${i}.txt`, content: `${i}\n` } }] });
          const before = shown.size;
          await say(page, `write bench-${i}.txt`);
          const c = card(page, 'write_file');
          await c.waitFor();
          while (shown.size === before) await new Promise((r) => setTimeout(r, 5));
          const { at, arrived } = [...shown.values()].pop()!;
          const emitted = performance.timeOrigin + fake.lastStreamEndedAt;
          if (i >= WARMUP) samples.push(at - emitted);
          if (i >= WARMUP && arrived !== null) {
            server.push(arrived - emitted);
            renderer.push(at - arrived);
          }
          // Deny ends the turn, so the next sample starts from a quiet session.
          await c.getByRole('button', { name: 'Deny', exact: true }).click();
          await c.waitFor({ state: 'detached' });
        }
        for (const list of [samples, server, renderer]) list.sort((x, y) => x - y);
        report({ name: `model emits a call → card visible in Chromium, p50 (${SAMPLES} calls)`, value: percentile(samples, 50), unit: 'ms' });
        const p95 = percentile(samples, 95);
        report({ name: 'model emits a call → card visible in Chromium, p95', value: p95, unit: 'ms', ...atMost(p95, 100) });
        report({ name: '  of which the daemon (agent, gate, store, web server → page), p50', value: percentile(server, 50), unit: 'ms' });
        report({ name: '  of which the daemon, p95', value: percentile(server, 95), unit: 'ms' });
        report({ name: '  of which the renderer (message → card painted), p50', value: percentile(renderer, 50), unit: 'ms' });
        report({ name: '  of which the renderer, p95', value: percentile(renderer, 95), unit: 'ms' });
      } finally {
        await browser.close();
        await web.daemon.kill('SIGTERM');
        await fake.close();
      }
    },
  },
];
