// History at 100,000 calls: frame times while Chromium scrolls the windowed list through a real daemon
// (calls seeded through the real store), and how long a page of calls and a filtered count take.
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ControlClient } from '../../main/control/client';
import { ROOT } from '../support/cli';
import { seededDataDir } from '../support/seed-history';
import { fixture, startWeb } from '../e2e/support';
import { atMost, percentile, type BenchSuite } from './harness';

const CALLS = 100_000;
/** Frames measured per pass; each pass scrolls a fixed distance a frame. */
const FRAMES = 400;

/**
 * Runs in the page: scrolls the list by `step` pixels a frame for `frames` frames and returns the time
 * between frames. The browser runs without its frame-rate cap, so a frame takes as long as its work
 * (script, style, layout, paint), not the 16.7 ms a display would impose.
 */
const SCROLL = `async ([step, frames]) => {
  const el = document.querySelector('[data-testid="call-list"]');
  const deltas = [];
  let last = performance.now();
  await new Promise((done) => {
    let n = 0;
    const tick = () => {
      const t = performance.now();
      if (n > 0) deltas.push(t - last);
      last = t;
      if (n++ >= frames) return done();
      el.scrollTop = Math.min(el.scrollHeight - el.clientHeight, el.scrollTop + step);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return { deltas, rows: document.querySelectorAll('li.call-row').length };
}`;

export const suites: BenchSuite[] = [
  {
    name: 'history',
    async run(report) {
      const f = fixture(null);
      seededDataDir(f.dataDir, CALLS, join(ROOT, '.test-tmp'));
      const web = await startWeb(f);
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-frame-rate-limit', '--disable-gpu-vsync'] });
      try {
        const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
        await page.goto(web.url);
        await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
        const opened = performance.now();
        await page.getByRole('button', { name: 'History', exact: true }).click();
        await page.locator('.history-count').filter({ hasText: `${CALLS.toLocaleString('en-US')} calls` }).waitFor();
        await page.locator('li.call-row[data-call-id]').first().waitFor();
        report({ name: `History opened → first rows shown (${CALLS.toLocaleString('en-US')} calls)`, value: performance.now() - opened, unit: 'ms' });

        // Diagnostics beside the frame times: the renderer's main-thread time per frame (Chromium's own
        // counters), split into script, style and layout; what is left of a frame is paint, compositing and
        // waiting for a core.
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Performance.enable');
        const counters = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value])) as Record<string, number>;
        const scroll = async (step: number) => {
          const before = await counters();
          const r = (await page.evaluate(`(${SCROLL})([${step}, ${FRAMES}])`)) as { deltas: number[]; rows: number };
          const after = await counters();
          const perFrame = (k: string) => ((after[k]! - before[k]!) * 1000) / r.deltas.length;
          return { ...r, main: perFrame('TaskDuration'), script: perFrame('ScriptDuration'), styleLayout: perFrame('RecalcStyleDuration') + perFrame('LayoutDuration') };
        };
        // Warm up, then a slow scroll (a wheel: 2 rows a frame) and a fast one (a flung scrollbar: 5 pages a frame).
        await scroll(72);
        const slow = await scroll(72);
        const fast = await scroll(4500);
        for (const [label, r] of [['scrolling 2 rows a frame', slow], ['scrolling 5 screens a frame', fast]] as const) {
          const d = [...r.deltas].sort((a, b) => a - b);
          report({ name: `History, ${label}: frame time p50`, value: percentile(d, 50), unit: 'ms' });
          const p95 = percentile(d, 95);
          report({ name: `History, ${label}: frame time p95`, value: p95, unit: 'ms', ...atMost(p95, 16) });
          report({ name: `History, ${label}: rows in the DOM`, value: r.rows, unit: 'rows' });
          report({ name: `History, ${label}: main thread busy a frame, mean`, value: r.main, unit: 'ms' });
          report({ name: `History, ${label}: of it script, mean`, value: r.script, unit: 'ms' });
          report({ name: `History, ${label}: of it style and layout, mean`, value: r.styleLayout, unit: 'ms' });
        }

        // The daemon's side: a page far down (offset), and a filtered count (what a filter change waits for).
        const client = await ControlClient.connect(join(f.dataDir, 'control.sock'));
        try {
          const timeOp = async (label: string, params: Record<string, unknown>) => {
            const samples: number[] = [];
            for (let i = 0; i < 7; i++) {
              const t = performance.now();
              await client.call('call.list', params);
              samples.push(performance.now() - t);
            }
            report({ name: `call.list ${label}, median of 7`, value: percentile(samples.sort((a, b) => a - b), 50), unit: 'ms' });
          };
          const { upto } = await client.call<{ upto: string }>('call.list', { limit: 1 });
          await timeOp('first page of 200 with the total', { limit: 200, with_total: true });
          await timeOp('the last page of 200 (offset 99,800)', { limit: 200, offset: CALLS - 200, upto });
          await timeOp('decided by a grant, with the total', { limit: 200, decided_by: 'grant', with_total: true });
          await timeOp('text search, with the total', { limit: 200, text: 'module-4242', with_total: true });
        } finally {
          client.close();
        }
      } finally {
        await browser.close();
        await web.daemon.kill('SIGTERM');
      }
    },
  },
];
