// Runs fuzz targets: the hand-made inputs once, then `runs` generated cases, each within a deadline (a
// case that takes longer counts as a hang). Reports cases, time and memory per target.
import fc from 'fast-check';
import type { FuzzTarget } from './targets';

export interface FuzzReport {
  target: string;
  cases: number;
  seconds: number;
  /** RSS of the process before and after the target's cases, in MB. */
  rssBeforeMb: number;
  rssAfterMb: number;
  heapAfterMb: number;
}

const HANG_MS = 15_000;

function withDeadline<T>(p: Promise<T>, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hang: no answer within ${HANG_MS} ms for ${what()}`)), HANG_MS)));
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

const mb = (n: number) => Math.round(n / 1024 / 1024);
const describeInput = (x: unknown) => {
  try {
    return (typeof x === 'string' ? x : JSON.stringify(x) ?? String(x)).slice(0, 200);
  } catch {
    return String(x).slice(0, 200);
  }
};

export async function runTarget<T>(target: FuzzTarget<T>, runs: number, opts: { seed?: number } = {}): Promise<FuzzReport> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const { check, dispose } = await target.setup();
  let cases = 0;
  try {
    for (const input of target.nasty) {
      await withDeadline(check(input), () => describeInput(input));
      cases++;
    }
    await fc.assert(
      fc.asyncProperty(target.arbitrary, async (input) => {
        await withDeadline(check(input), () => describeInput(input));
        cases++;
      }),
      { numRuns: runs, seed: opts.seed, endOnFailure: true },
    );
  } finally {
    await dispose();
  }
  gc?.();
  const mem = process.memoryUsage();
  return { target: target.name, cases, seconds: Math.round((performance.now() - started) / 100) / 10, rssBeforeMb: mb(rssBefore), rssAfterMb: mb(mem.rss), heapAfterMb: mb(mem.heapUsed) };
}
