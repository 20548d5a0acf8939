// A small benchmark harness: timed samples, percentiles, a table, and bench-results.json.
export interface BenchResult {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** The target, as text (e.g. ">= 20000", "<= 1"). */
  target?: string;
  /** Whether the value meets the target. */
  ok?: boolean;
  note?: string;
}

export interface BenchSuite {
  name: string;
  run(report: (r: Omit<BenchResult, 'suite'>) => void): Promise<void>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** Runs fn repeatedly for about `ms` milliseconds after a warm-up; returns per-call durations in ms, sorted. */
export function sampleSync(fn: () => void, opts: { ms?: number; warmup?: number; batch?: number } = {}): number[] {
  const warmupMs = opts.warmup ?? 300;
  const batch = opts.batch ?? 1;
  let t0 = performance.now();
  while (performance.now() - t0 < warmupMs) fn();
  const samples: number[] = [];
  t0 = performance.now();
  while (performance.now() - t0 < (opts.ms ?? 2000)) {
    const s = performance.now();
    for (let i = 0; i < batch; i++) fn();
    samples.push((performance.now() - s) / batch);
  }
  return samples.sort((a, b) => a - b);
}

export function atMost(value: number, target: number): { target: string; ok: boolean } {
  return { target: `<= ${target}`, ok: value <= target };
}
export function atLeast(value: number, target: number): { target: string; ok: boolean } {
  return { target: `>= ${target}`, ok: value >= target };
}
