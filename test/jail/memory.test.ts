// The memory limit of a jailed call: a run that grows past it is killed and reported as such (to the
// model and in the call's outcome); a run within it is not; where no cgroup or scope can hold it, the
// address-space limit applies instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planContainment, rlimitOnly } from '../../executor/containment';
import { Executor } from '../../executor/run';
import type { RunRequest } from '../../executor/types';
import type { ThresholdCore } from '../../main/runtime/core';
import { DEFAULT_CONFIG } from '../../main/config/load';
import { testCore } from '../support/core';
import { jailFixture, type JailFixture } from '../support/jail';

const MB = 1024 * 1024;
/** Doubles a string until it holds about 2^n bytes: memory that grows fast, with only awk. */
const grow = (n: number) => `awk 'BEGIN { s = "a"; for (i = 0; i < ${n}; i++) s = s s; print length(s) }'`;

// Where this machine can hold the limit for a whole run (root with a memory cgroup, a user's systemd).
const plan = planContainment();
const wholeRun = plan.ok && plan.memory !== 'rlimit-as';

let fx: JailFixture;
let ex: Executor;
beforeAll(async () => {
  fx = await jailFixture();
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir], limits: { maxMemoryBytes: 96 * MB } });
});
afterAll(async () => {
  ex.dispose();
  await fx.close();
});

const run = (e: Executor, script: string): Promise<Awaited<ReturnType<Executor['run']>>> => e.run({ argv: ['bash', '-c', script], cwd: fx.workspace, env: process.env, jail: { class: 'write', workspace: fx.workspace } } satisfies RunRequest);

describe.runIf(wholeRun)('the memory limit (cgroup or systemd scope)', () => {
  it.each([
    { name: 'a run that grows past the limit is killed and says so', script: grow(28), want: { exceeded: true, code: 137, limitMb: 96 } },
    { name: 'a run within the limit is not', script: grow(20), want: { exceeded: false, code: 0, limitMb: 96 } },
  ])('$name', async ({ script, want }) => {
    const r = await run(ex, script);
    expect({ exceeded: r.memory?.exceeded, code: r.exitCode, limitMb: (r.memory?.limitBytes ?? 0) / MB }).toEqual(want);
  });

  it('is held per run: the next run starts with nothing charged', async () => {
    await run(ex, grow(28));
    const after = await run(ex, grow(25));
    expect({ exceeded: after.memory?.exceeded, code: after.exitCode }).toEqual({ exceeded: false, code: 0 });
  });
});

describe('the fallback: RLIMIT_AS', () => {
  it('limits the address space of each process, so an allocation past it fails instead of growing', async () => {
    const rl = new Executor({ home: fx.home, appDirs: [], containment: rlimitOnly(), limits: { maxMemoryBytes: 96 * MB } });
    try {
      const limit = await run(rl, 'ulimit -v');
      const big = await run(rl, grow(28));
      expect({ heldBy: limit.memory?.heldBy, kib: limit.stdout.text.trim(), failed: big.exitCode !== 0 }).toEqual({ heldBy: 'rlimit-as', kib: String(96 * 1024), failed: true });
    } finally {
      rl.dispose();
    }
  });
});

describe.runIf(wholeRun)('through the gate', () => {
  let core: ThresholdCore;
  beforeAll(async () => {
    core = await testCore({ level: 'auto-edit', config: { executor: { ...DEFAULT_CONFIG.executor, limits: { ...DEFAULT_CONFIG.executor.limits, maxMemoryBytes: 96 * MB } } }, paths: { home: fx.home, workspace: fx.workspace, appDirs: [fx.configDir, fx.dataDir] }, dataDir: fx.dataDir });
    core.events.on('approval.requested', (p) => void core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' }));
  });
  afterAll(() => core.dispose());

  it('a call killed for memory fails with that reason in its outcome, and the model is told', async () => {
    const command = grow(28);
    const v = await core.calls.review({ sessionId: 's-mem', turnId: 't-mem', turnKind: 'reactive', tool: 'run_command', args: { command }, cwd: fx.workspace });
    if (!v.run) throw new Error(`not allowed: ${v.message}`);
    const report = await core.calls.runCommand({ callId: v.callId, sessionId: 's-mem', command, cwd: fx.workspace, evaluation: v.evaluation });
    const reason = 'out of memory: the system killed it for using more than its memory limit of 96 MB ([executor] max_memory_mb)';
    expect({ status: report.status, outcome: core.store.outcomes.get(v.callId)?.error, told: report.text.includes(`[threshold] The sandbox, not the task, stopped this command: ${reason}.`) }).toEqual({ status: 'failed', outcome: reason, told: true });
  });
});
