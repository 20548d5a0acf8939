// Building the agent for a core: the configured provider (or the demo's scripted model) and MCP servers.
import type { LanguageModel } from 'ai';
import type { ThresholdCore } from '../gate/core';
import { Agent } from './agent';
import { createDemoModel, DEMO_LABEL } from './demo-model';
import { McpManager } from './mcp';
import { createModel, resolveApiKey } from './providers';
import type { Notifier } from './questions';

export interface AgentSetup {
  demo?: boolean;
  env?: NodeJS.ProcessEnv;
  /** The app's OS-keychain lookup for the provider key. */
  keychain?: () => string | null;
  notifier?: Notifier;
}

export function createAgent(core: ThresholdCore, setup: AgentSetup = {}): Agent {
  const cfg = core.config;
  const env = setup.env ?? process.env;
  let model: LanguageModel;
  let label: string;
  if (setup.demo) {
    model = createDemoModel();
    label = DEMO_LABEL;
  } else {
    const key = resolveApiKey(cfg.provider, env, setup.keychain);
    // The key lives in memory only; anything that would show it is redacted.
    if (key) core.redactor.addKnownSecret(key);
    const handle = createModel(cfg.provider, key);
    model = handle.model;
    label = handle.label;
  }
  // Problems are noted in the session whose turn meets them (see Agent.noteMcpProblems).
  const mcp = new McpManager(cfg.mcpServers, env);
  core.setMcpTools(() => mcp.declarations());
  return new Agent({ core, model, modelLabel: label, provider: cfg.provider, maxSteps: cfg.agent.maxSteps, questionTimeoutMs: cfg.agent.questionTimeoutMs, mcp, notifier: setup.notifier });
}
