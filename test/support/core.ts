// A core over an in-memory store, with an approver surface attached, for gate tests.
import { afterEach } from 'vitest';
import type { Level } from '../../common/domain';
import type { Resolver } from '../../executor/net/destination';
import type { PathContext } from '../../main/policy/paths';
import { DEFAULT_CONFIG, type ThresholdConfig } from '../../main/config/load';
import { ThresholdCore } from '../../main/runtime/core';
import type { ToolOutput } from '../../main/calls/runner';
import type { GateCall } from '../../main/gate/gate';
import type { Evaluation } from '../../main/policy/evaluate';
import { parseToolName } from '../../main/policy/tools';
import { Store } from '../../main/store/store';
import { TEST_PATHS } from './policy';

export interface TestCoreOptions {
  level?: Level;
  ttlSeconds?: number;
  config?: Partial<ThresholdConfig>;
  store?: Store;
  approver?: boolean;
  now?: () => number;
  paths?: PathContext;
  dataDir?: string;
  resolveHost?: Resolver;
}

export async function testCore(opts: TestCoreOptions = {}) {
  const config: ThresholdConfig = { ...DEFAULT_CONFIG, level: opts.level ?? 'supervised', approvalTtlSeconds: opts.ttlSeconds ?? 600, ...opts.config };
  const core = await ThresholdCore.open({ dataDir: opts.dataDir ?? '/nonexistent', config, paths: opts.paths ?? TEST_PATHS, store: opts.store ?? Store.inMemory(), now: opts.now, ...(opts.resolveHost ? { resolveHost: opts.resolveHost } : {}) });
  if (opts.approver !== false) core.approvers.add('desktop');
  return core;
}

/** Cores for one test file, each disposed after its test: `const core = useCores();` then `await core({ level: 'full' })`. */
export function useCores(): (opts?: TestCoreOptions) => Promise<ThresholdCore> {
  const live: ThresholdCore[] = [];
  afterEach(() => {
    for (const c of live.splice(0)) c.dispose();
  });
  return async (opts = {}) => {
    const c = await testCore(opts);
    live.push(c);
    return c;
  };
}

export function shellCall(command: string, extra: Partial<GateCall> = {}): GateCall {
  return { sessionId: 's1', turnId: 't1', turnKind: 'reactive', tool: 'run_command', args: { command }, cwd: TEST_PATHS.workspace, ...extra };
}

/** Runs a tool's runner as the pipeline would once the gate allowed it, without recording anything: what the runner itself does. */
export function runTool(core: ThresholdCore, tool: string, args: Record<string, unknown>, ctx: { sessionId: string; callId: string; cwd: string; evaluation: Evaluation; signal?: AbortSignal }): Promise<ToolOutput> {
  const name = parseToolName(tool);
  const runner = core.calls.runnerFor(name);
  if (!runner) throw new Error(`no runner for ${tool}`);
  return runner.run(args, { ...ctx, tool: name, workspace: core.paths.workspace, signal: ctx.signal ?? new AbortController().signal });
}

/** Waits until the gate has parked an approval and returns it. */
export async function nextPending(core: ThresholdCore, known = 0) {
  for (let i = 0; i < 200; i++) {
    const pending = core.gate.listPending();
    if (pending.length > known) return pending[pending.length - 1]!;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('no approval was parked');
}
