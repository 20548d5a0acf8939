// Grants: what the width judge costs (once per pattern, then cached), and what the stored-grant check
// adds to a call the gate judges — side by side, the same calls with no grants and with 50 stored ones.
import { DEFAULT_CONFIG } from '../../main/config/load';
import { ThresholdCore } from '../../main/runtime/core';
import { initClassifier } from '../../main/policy/classifier';
import { judgeGrantWidth } from '../../main/policy/grant-width';
import { Store } from '../../main/store/store';
import { TEST_PATHS } from '../support/policy';
import { atMost, percentile, type BenchSuite } from './harness';

async function coreWithGrants(n: number): Promise<ThresholdCore> {
  const core = await ThresholdCore.open({ dataDir: '/nonexistent', config: { ...DEFAULT_CONFIG }, paths: TEST_PATHS, store: Store.inMemory() });
  core.approvers.add('desktop');
  for (let i = 0; i < n; i++) {
    const r = core.createGrant({ tool: 'run_command', pattern: { kind: 'argv', argv: ['make', `target-${i}`], match: 'prefix' } }, 'control');
    if (!r.ok) throw new Error(r.error.message);
  }
  return core;
}

/** Milliseconds per gate review of calls that ask and are approved at once (the gate's own work). */
async function reviewTimes(core: ThresholdCore, count: number): Promise<number[]> {
  const off = core.events.on('approval.requested', (p) => void core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' }));
  const samples: number[] = [];
  for (let i = 0; i < count + 100; i++) {
    const t = performance.now();
    await core.calls.review({ sessionId: 'bench', turnId: `t${i}`, turnKind: 'reactive', tool: 'run_command', args: { command: `touch file-${i}.txt` }, cwd: TEST_PATHS.workspace });
    if (i >= 100) samples.push(performance.now() - t);
  }
  off();
  return samples.sort((a, b) => a - b);
}

export const suites: BenchSuite[] = [
  {
    name: 'grant width judge',
    async run(report) {
      await initClassifier();
      // The first judgement classifies the corpus once for this home and workspace.
      let t = performance.now();
      judgeGrantWidth('run_command', { kind: 'argv', argv: ['npm', 'test'], match: 'prefix' }, TEST_PATHS);
      report({ name: 'first judgement after start (corpus classified once), ms', value: performance.now() - t, unit: 'ms' });
      const cold: number[] = [];
      for (let i = 0; i < 300; i++) {
        t = performance.now();
        judgeGrantWidth('run_command', { kind: 'argv', argv: ['make', `target-${i}`], match: 'prefix' }, TEST_PATHS);
        cold.push(performance.now() - t);
      }
      cold.sort((a, b) => a - b);
      report({ name: 'a new prefix pattern (make target-N *), median', value: percentile(cold, 50), unit: 'ms' });
      report({ name: 'a new prefix pattern, p99', value: percentile(cold, 99), unit: 'ms', ...atMost(percentile(cold, 99), 100) });
      const warm: number[] = [];
      for (let i = 0; i < 20_000; i++) {
        t = performance.now();
        judgeGrantWidth('run_command', { kind: 'argv', argv: ['make', `target-${i % 300}`], match: 'prefix' }, TEST_PATHS);
        warm.push(performance.now() - t);
      }
      warm.sort((a, b) => a - b);
      report({ name: 'a pattern judged before (cached), p99', value: percentile(warm, 99), unit: 'ms' });
    },
  },
  {
    name: 'stored grants on the call path',
    async run(report) {
      const none = await coreWithGrants(0);
      const fifty = await coreWithGrants(50);
      // Alternate so both see the same machine load.
      const a: number[] = [];
      const b: number[] = [];
      for (let round = 0; round < 3; round++) {
        a.push(...(await reviewTimes(none, 300)));
        b.push(...(await reviewTimes(fifty, 300)));
      }
      a.sort((x, y) => x - y);
      b.sort((x, y) => x - y);
      report({ name: 'ask → decision, no stored grants, median', value: percentile(a, 50), unit: 'ms' });
      report({ name: 'ask → decision, 50 stored grants (each judged, cached), median', value: percentile(b, 50), unit: 'ms' });
      report({ name: 'ask → decision, 50 stored grants, p95', value: percentile(b, 95), unit: 'ms', ...atMost(percentile(b, 95), 100) });
      report({ name: 'median ratio, 50 grants / none', value: percentile(b, 50) / percentile(a, 50), unit: 'x' });
      none.dispose();
      fifty.dispose();
    },
  },
];
