// The fuzzers' short run (a few hundred generated cases per boundary, plus every hand-made input);
// `npm run fuzz` runs 10,000+ each.
import { describe, expect, it } from 'vitest';
import { runTarget } from './runner';
import { classifierTarget, configTarget, ipcTarget, remotePressTarget, rpcTarget, toolCallTarget, type FuzzTarget } from './targets';

const SHORT = Number(process.env['THRESHOLD_FUZZ_RUNS'] ?? 200);

describe('fuzzing every boundary: a valid answer or a clear error, never a crash or a hang', () => {
  it.each<{ target: FuzzTarget<never> }>([ipcTarget, rpcTarget, configTarget, classifierTarget, toolCallTarget, remotePressTarget].map((t) => ({ target: t as FuzzTarget<never> })))('$target.name', async ({ target }) => {
    const report = await runTarget(target, SHORT);
    expect(report.cases).toEqual(target.nasty.length + SHORT);
  }, 240_000);
});
