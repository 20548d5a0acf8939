// Whole-turn tests' common ground: a jail fixture, the fake provider, and agents over real cores that
// are disposed after each test. `useAgentHarness()` registers the hooks of the calling test file.
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { PendingApproval } from '../../common/approvals';
import { Agent, type AgentOptions } from '../../main/agent/agent';
import { createModel } from '../../main/providers/create-model';
import type { ProviderConfig, ThresholdConfig } from '../../main/config/load';
import type { ThresholdCore } from '../../main/runtime/core';
import type { Store } from '../../main/store/store';
import { FakeProvider } from '../fake-provider/server';
import { testCore } from './core';
import { jailFixture, type JailFixture } from './jail';
import { agentParts } from '../../main/runtime/parts';

export type Protocol = 'anthropic' | 'openai-compatible';

export interface SetupOptions {
  level?: 'supervised' | 'auto-edit';
  store?: Store;
  url?: string;
  approver?: boolean;
  maxRetries?: number;
  timeoutMs?: number;
  config?: Partial<ThresholdConfig>;
  agent?: Partial<AgentOptions>;
}

export interface AgentHarness {
  fx: JailFixture;
  fake: FakeProvider;
  live: { core: ThresholdCore; agent: Agent }[];
  provider(kind: Protocol, url?: string, timeoutMs?: number): ProviderConfig;
  setup(kind: Protocol, opts?: SetupOptions): Promise<{ core: ThresholdCore; agent: Agent }>;
  /** The next parked approval of a core. */
  pending(core: ThresholdCore): Promise<PendingApproval>;
  /** The tool results the provider received in the last request, as plain strings. */
  lastResults(): string[];
}

export function useAgentHarness(): AgentHarness {
  const h = { live: [] } as unknown as AgentHarness;
  beforeAll(async () => {
    h.fx = await jailFixture();
    h.fake = await FakeProvider.start();
  });
  afterAll(async () => {
    await h.fake.close();
    await h.fx.close();
  });
  afterEach(async () => {
    for (const { core, agent } of h.live.splice(0)) {
      await agent.dispose();
      core.dispose();
    }
    h.fake.requests.length = 0;
    h.fake.clear();
  });
  h.provider = (kind, url = h.fake.url, timeoutMs = 20_000) => ({ kind, baseUrl: `${url}/v1`, model: kind === 'anthropic' ? 'claude-test' : 'test-model', apiKeyEnv: null, timeoutMs });
  h.setup = async (kind, opts = {}) => {
    const fx = h.fx;
    const core = await testCore({ level: opts.level ?? 'supervised', store: opts.store, paths: { home: fx.home, workspace: fx.workspace, appDirs: [fx.configDir, fx.dataDir] }, dataDir: fx.dataDir, approver: opts.approver, config: opts.config });
    const cfg = h.provider(kind, opts.url, opts.timeoutMs);
    const agent = new Agent({ ...agentParts(core), model: createModel(cfg, 'test-key').model, modelLabel: 'fake', provider: cfg, maxSteps: 8, questionTimeoutMs: 5_000, maxRetries: opts.maxRetries ?? 0, ...opts.agent });
    h.live.push({ core, agent });
    return { core, agent };
  };
  h.pending = async (core) => {
    for (let i = 0; i < 400; i++) {
      const p = core.gate.listPending();
      if (p.length) return p[0]!;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('nothing was parked');
  };
  h.lastResults = () => {
    const req = h.fake.requests[h.fake.requests.length - 1]!;
    const messages = req.body['messages'] as { role: string; content: unknown }[];
    if (req.protocol === 'openai') return messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    return messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; content?: unknown }[]).filter((b) => b.type === 'tool_result').map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content))) : []));
  };
  return h;
}

/** The URL of a port nothing listens on. */
export async function closedPort(): Promise<string> {
  const { createServer } = await import('node:net');
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}
