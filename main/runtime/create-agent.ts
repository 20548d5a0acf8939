// Building the agent for a core: the configured provider (or the demo's scripted model), the reviewer,
// MCP servers, and the narrow pieces of the core the agent works with (agentParts).
import type { LanguageModel } from 'ai';
import { Agent } from '../agent/agent';
import { createDemoModel, DEMO_LABEL } from '../agent/demo-model';
import type { Notifier } from '../agent/questions';
import { McpManager } from '../calls/mcp-servers';
import { createModel, resolveApiKey } from '../providers/create-model';
import { reviewerModels } from '../reviewer/model';
import { Reviewer } from '../reviewer/review';
import type { ThresholdCore } from './core';
import { agentParts } from './parts';

export interface AgentSetup {
  demo?: boolean;
  env?: NodeJS.ProcessEnv;
  /** The app's OS-keychain lookup for the provider key. */
  keychain?: () => string | null;
  notifier?: Notifier;
  /** Where the reviewer logs a failure that is a bug (stderr by default). */
  log?: (line: string) => void;
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
  // Auto-approval needs a turn to review against, which only the agent opens: it lives with the agent.
  // Built whenever reviewers are declared, even with the file's switch off: the switch in force (the
  // Settings page may turn it on, a managed policy off) is read at every call.
  if (cfg.autoApproval.reviewers.length > 0) {
    const log = setup.log ?? ((line: string) => process.stderr.write(`threshold: ${line}\n`));
    const models = reviewerModels(cfg.autoApproval.reviewers, cfg.autoApproval.timeoutMs, env, (k) => core.redactor.addKnownSecret(k));
    const reviewer = new Reviewer({ config: cfg.autoApproval, model: models, log: (line) => log(core.redactor.redactTextSync(line)) });
    // The effective access (file < Settings page, under the managed policy) decides at every call.
    const access = () => {
      const a = core.access();
      return { enabled: a.autoApprovalEnabled, neverAutoApprove: [...new Set([...cfg.autoApproval.neverAutoApprove, ...a.neverAutoApprove])] };
    };
    core.gate.setReviewer(reviewer, access, cfg.autoApproval.reviewers.map((r) => ({ name: r.name, model: r.model })));
  }
  // Problems are noted in the session whose turn meets them (see Agent.noteMcpProblems).
  const mcp = new McpManager(cfg.mcpServers, env);
  core.setMcpTools(() => mcp.declarations());
  return new Agent({ ...agentParts(core), model, modelLabel: label, provider: cfg.provider, maxSteps: cfg.agent.maxSteps, questionTimeoutMs: cfg.agent.questionTimeoutMs, mcp, notifier: setup.notifier });
}
