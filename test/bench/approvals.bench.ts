// Approval lifecycle: a parked call through decision and audit write, history queries over a large
// audit history, and verifying that history.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../main/config/load';
import { ThresholdCore } from '../../main/runtime/core';
import { Redactor } from '../../main/redact/redactor';
import { Store } from '../../main/store/store';
import { TEST_PATHS } from '../support/policy';
import { atMost, percentile, type BenchSuite } from './harness';

async function fileCore(dir: string): Promise<ThresholdCore> {
  const core = await ThresholdCore.open({ dataDir: dir, config: { ...DEFAULT_CONFIG }, paths: TEST_PATHS, store: Store.openDataDir(dir) });
  core.approvers.add('desktop');
  return core;
}

export const suites: BenchSuite[] = [
  {
    name: 'approval lifecycle',
    async run(report) {
      const dir = mkdtempSync(join(tmpdir(), 'threshold-bench-'));
      const core = await fileCore(dir);
      // Decide as soon as the request is broadcast: the measured time is the gate's own work.
      core.events.on('approval.requested', (p) => void core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' }));
      const samples: number[] = [];
      for (let i = 0; i < 1200; i++) {
        const t = performance.now();
        const v = await core.calls.review({ sessionId: 'bench', turnId: `t${i}`, turnKind: 'reactive', tool: 'run_command', args: { command: `touch file-${i}.txt` }, cwd: TEST_PATHS.workspace });
        if (i >= 200) samples.push(performance.now() - t);
        if (!v.run) throw new Error('the benchmark call was not approved');
      }
      samples.sort((a, b) => a - b);
      report({ name: 'ask → pending row → decision → audit write (file DB, WAL), median', value: percentile(samples, 50), unit: 'ms' });
      report({ name: 'ask → pending row → decision → audit write, p99', value: percentile(samples, 99), unit: 'ms' });
      core.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  },
  {
    name: 'history at scale',
    async run(report) {
      const dir = mkdtempSync(join(tmpdir(), 'threshold-bench-big-'));
      const store = Store.openDataDir(dir);
      const AUDIT_ROWS = 1_000_000;
      const DECISIONS = 250_000;
      const t0 = performance.now();
      store.sessions.ensure('big', 0);
      const insertCall = store.db.prepare("INSERT INTO tool_calls (id, session_id, tool, args_redacted, content_hash, state, created_at, updated_at) VALUES (?, 'big', 'run_command', '{\"command\":\"make\"}', ?, 'succeeded', ?, ?)");
      const insertApproval = store.db.prepare(
        "INSERT INTO approvals (id, call_id, session_id, tool, args_redacted, content_hash, class, effects, reason, outcomes, created_at, owner, status, outcome, decided_at, decided_by) VALUES (?, ?, 'big', 'run_command', '{\"command\":\"make\"}', ?, 'write', '[]', 'Asks', '[]', ?, 'rt', 'decided', ?, ?, 'desktop')",
      );
      const outcomes = ['approve_once', 'deny', 'skip', 'approve_session', 'expired'];
      const hash = 'a'.repeat(64);
      for (let batch = 0; batch < DECISIONS; batch += 50_000) {
        store.transaction(() => {
          for (let i = batch; i < batch + 50_000; i++) {
            insertCall.run(`c${i}`, hash, i, i);
            insertApproval.run(`a${i}`, `c${i}`, hash, i, outcomes[i % outcomes.length], i + 1);
          }
        });
      }
      const redactor = new Redactor({ home: '/home/bench' });
      const entryData = outcomes.map((outcome) => redactor.redactRecord({ outcome, tool: 'run_command' }));
      for (let batch = 0; batch < AUDIT_ROWS; batch += 100_000) {
        store.transaction(() => {
          for (let i = batch; i < batch + 100_000; i++) store.audit.append({ at: i, kind: i % 2 ? 'approval.decided' : 'call.decided', subject: `a${i >> 1}`, data: entryData[i % 5]! });
        });
      }
      report({ name: `fill ${AUDIT_ROWS.toLocaleString('en-US')} audit rows + ${DECISIONS.toLocaleString('en-US')} decisions (setup)`, value: (performance.now() - t0) / 1000, unit: 's' });

      const times: number[] = [];
      for (let i = 0; i < 300; i++) {
        const t = performance.now();
        const rows = store.approvals.listDecisions({ limit: 50 });
        times.push(performance.now() - t);
        if (rows.length !== 50) throw new Error('expected 50 decisions');
      }
      times.sort((a, b) => a - b);
      report({ name: 'list_recent_decisions(50) with 1M audit rows, median', value: percentile(times, 50), unit: 'ms', ...atMost(percentile(times, 50), 5) });
      report({ name: 'list_recent_decisions(50) with 1M audit rows, p99', value: percentile(times, 99), unit: 'ms' });
      const filtered: number[] = [];
      for (let i = 0; i < 100; i++) {
        const t = performance.now();
        store.approvals.listDecisions({ limit: 50, outcome: 'deny' });
        filtered.push(performance.now() - t);
      }
      filtered.sort((a, b) => a - b);
      report({ name: 'list_recent_decisions(50, outcome=deny), median', value: percentile(filtered, 50), unit: 'ms' });

      const tv = performance.now();
      const result = store.audit.verify();
      const verifyS = (performance.now() - tv) / 1000;
      if (!result.ok || result.entries !== AUDIT_ROWS) throw new Error('verification failed');
      report({ name: 'audit verification of 1M rows', value: verifyS, unit: 's', note: `${Math.round(AUDIT_ROWS / verifyS).toLocaleString('en-US')} rows/s` });
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  },
];
