// The narrow pieces of a core each service above it works with: the agent, other agents' calls, the MCP
// gateway. Only the composition root (this folder) holds the whole core; a service gets what it uses.
import type { AgentOptions } from '../agent/agent';
import { Conversations } from '../agent/conversations';
import type { ExternalCallsDeps } from '../hooks/external-calls';
import type { GatewayDeps } from '../mcp-gateway/service';
import type { ThresholdCore } from './core';

/** What of a core the agent works with: its pipeline, its conversations, its events, the redaction, the workspace. */
export function agentParts(core: ThresholdCore): Pick<AgentOptions, 'calls' | 'conversations' | 'events' | 'redact' | 'workspace' | 'reviewsPerTurn'> {
  return {
    calls: core.calls,
    conversations: new Conversations(core.store, core.redactor),
    events: core.events,
    redact: (text) => core.redactor.redactTextSync(text),
    workspace: () => core.paths.workspace,
    reviewsPerTurn: () => core.config.autoApproval.maxPerTurn,
  };
}


/** What other agents' calls (their hooks) use: the pipeline without a runner, checkpoints, paths, redaction. */
export function externalParts(core: ThresholdCore): ExternalCallsDeps {
  return { calls: core.calls, checkpoints: core.checkpoints, paths: () => core.paths, redact: (text) => core.redactor.redactTextSync(text) };
}

/** What the MCP gateway uses: the pipeline, the workspace, redaction, session notes. */
export function gatewayParts(core: ThresholdCore): GatewayDeps {
  return { calls: core.calls, workspace: () => core.paths.workspace, redact: (text) => core.redactor.redactTextSync(text), events: core.events };
}
