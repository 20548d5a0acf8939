// The agent's own latency, in process, over the real HTTP wire protocol (the fake provider) and the real
// gate, store and jail: from the moment the provider finished sending a tool call to the approval's
// broadcast, and from the user's decision to the executor starting the command.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShadowGit } from '../../executor/checkpoints';
import { Agent } from '../../main/agent/agent';
import { createModel } from '../../main/providers/create-model';
import type { ProviderConfig } from '../../main/config/load';
import { Store } from '../../main/store/store';
import { FakeProvider } from '../fake-provider/server';
import { testCore } from '../support/core';
import { jailFixture } from '../support/jail';
import { atMost, percentile, type BenchSuite } from './harness';
import { agentParts } from '../../main/runtime/parts';

const ROUNDS = 150;
const WARMUP = 20;

export const suites: BenchSuite[] = (['openai-compatible', 'anthropic'] as const).map((kind) => ({
  name: `agent (${kind})`,
  async run(report) {
    const fx = await jailFixture();
    const fake = await FakeProvider.start();
    // A file database (WAL) like the app's, beside the fixture's decoy data directory.
    const dataDir = join(fx.root, 'bench-data');
    mkdirSync(dataDir, { mode: 0o700 });
    const store = Store.openDataDir(dataDir);
    const core = await testCore({ level: 'supervised', store, paths: { home: fx.home, workspace: fx.workspace, appDirs: [fx.configDir, fx.dataDir, dataDir] }, dataDir });
    const cfg: ProviderConfig = { kind, baseUrl: `${fake.url}/v1`, model: 'bench-model', apiKeyEnv: null, timeoutMs: 30_000 };
    const agent = new Agent({ ...agentParts(core), model: createModel(cfg, 'bench-key').model, modelLabel: 'bench', provider: cfg, maxSteps: 4, questionTimeoutMs: 5_000, maxRetries: 0 });

    // Executor start: the moment the executor is handed the approved command.
    let executorStartedAt = 0;
    const run = core.executor.run.bind(core.executor);
    core.executor.run = (req, signal) => {
      executorStartedAt = performance.now();
      return run(req, signal);
    };
    // The workspace checkpoint taken before a command that can write: part of "decision → executor start".
    let checkpointMs = 0;
    const before = core.checkpoints.before.bind(core.checkpoints);
    core.checkpoints.before = async (...a) => {
      const t = performance.now();
      try {
        return await before(...a);
      } finally {
        checkpointMs = performance.now() - t;
      }
    };
    const checkpoints: number[] = [];
    const toBroadcast: number[] = [];
    const toExecutor: number[] = [];
    for (let i = 0; i < ROUNDS + WARMUP; i++) {
      fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: `touch bench-${i}.txt` } }] }, { text: 'Done.' });
      const parked = new Promise<{ at: number; emittedAt: number; id: string; hash: string }>((resolve) => {
        const off = core.events.on('approval.requested', (p) => {
          off();
          resolve({ at: performance.now(), emittedAt: fake.lastStreamEndedAt, id: p.id, hash: p.hash });
        });
      });
      const turn = agent.send(null, `Touch bench-${i}.txt`);
      const p = await parked;
      const decidedAt = performance.now();
      await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
      const summary = await turn.done;
      if (summary.reason !== 'completed') throw new Error(`bench turn ended ${summary.reason}: ${summary.error}`);
      if (i < WARMUP) continue;
      toBroadcast.push(p.at - p.emittedAt);
      toExecutor.push(executorStartedAt - decidedAt);
      checkpoints.push(checkpointMs);
    }
    toBroadcast.sort((a, b) => a - b);
    toExecutor.sort((a, b) => a - b);
    checkpoints.sort((a, b) => a - b);
    report({ name: 'model emits a call → approval.requested broadcast, p50', value: percentile(toBroadcast, 50), unit: 'ms' });
    report({ name: 'model emits a call → approval.requested broadcast, p95', value: percentile(toBroadcast, 95), unit: 'ms', ...atMost(percentile(toBroadcast, 95), 50) });
    report({ name: 'decision → executor start (incl. workspace checkpoint), p50', value: percentile(toExecutor, 50), unit: 'ms', ...atMost(percentile(toExecutor, 50), 30) });
    report({ name: 'decision → executor start (incl. workspace checkpoint), p95', value: percentile(toExecutor, 95), unit: 'ms' });
    report({ name: '  of which the workspace checkpoint, p50', value: percentile(checkpoints, 50), unit: 'ms' });
    if (kind === 'openai-compatible') {
      // The snapshot alone, side by side in this process (as large as a daemon with an agent): its git
      // commands through the long-lived runner, and spawned straight from here as before.
      const viaRunner = new ShadowGit(fx.workspace, join(fx.root, 'cp-runner'));
      const direct = new ShadowGit(fx.workspace, join(fx.root, 'cp-direct'), undefined, null);
      await viaRunner.snapshot('first');
      await direct.snapshot('first');
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < 40; i++) {
        writeFileSync(join(fx.workspace, `side-${i}.txt`), String(i));
        let t = performance.now();
        await viaRunner.snapshot(`s${i}`);
        a.push(performance.now() - t);
        t = performance.now();
        await direct.snapshot(`s${i}`);
        b.push(performance.now() - t);
      }
      a.sort((x, y) => x - y);
      b.sort((x, y) => x - y);
      report({ name: 'checkpoint, git through the runner, p50 / p99', value: percentile(a, 50), unit: 'ms', note: `p99 ${percentile(a, 99).toFixed(1)} ms` });
      report({ name: 'checkpoint, git spawned from the daemon, p50 / p99', value: percentile(b, 50), unit: 'ms', note: `p99 ${percentile(b, 99).toFixed(1)} ms; RSS ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB` });
    }
    await agent.dispose();
    core.dispose();
    await fake.close();
    await fx.close();
  },
}));
