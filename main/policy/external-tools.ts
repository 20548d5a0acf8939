// Tools of another agent (Claude Code, Codex, Gemini CLI) that have no Threshold equivalent, as the
// policy sees them: `external.<agent>.<tool>`. Pure data and one function. The agent's shell, file,
// fetch and MCP tools are mapped onto Threshold's own tools before they get here (main/hooks/tool-map.ts);
// what is left is either a tool Threshold knows to act on nothing but the agent's own bookkeeping
// (listed below with the reason, judged read) or a tool it does not know, judged at least a write whose
// effect is only known when it runs. The list is Threshold's, never the hook input's: an agent cannot
// make a tool harmless by naming it.
import type { Effect, Flag } from '../../common/domain';

import { EXTERNAL_AGENT_NAMES, isExternalAgent, type ExternalAgent } from '../../common/external-agents';

/**
 * Tools that change nothing outside the agent's own conversation: a to-do list, a plan, a question to
 * the person at the agent, loading instructions, waiting, delegating to a sub-agent whose every tool call
 * crosses the same hook. Each carries why.
 */
export const BOOKKEEPING_TOOLS: Readonly<Record<string, string>> = {
  'external.claude-code.TodoWrite': "updates Claude Code's own to-do list",
  'external.claude-code.ToolSearch': "looks up the descriptions of Claude Code's own tools",
  'external.claude-code.ListAgents': "lists Claude Code's own sub-agents",
  'external.claude-code.ReportFindings': 'reports findings back to the conversation',
  'external.claude-code.ExitPlanMode': 'shows the plan to the person at Claude Code',
  'external.claude-code.EnterPlanMode': 'switches Claude Code to planning',
  'external.claude-code.AskUserQuestion': 'asks the person at Claude Code a question',
  'external.claude-code.Skill': 'loads instructions for a skill into the conversation',
  'external.claude-code.BashOutput': 'reads the output of a command that already ran through this gate',
  'external.claude-code.Agent': "starts a sub-agent; each of its tool calls crosses Threshold's hook on its own",
  'external.claude-code.Task': "starts a sub-agent; each of its tool calls crosses Threshold's hook on its own",
  'external.codex.update_plan': "updates Codex's own plan",
  'external.codex.request_user_input': 'asks the person at Codex a question',
  'external.gemini.write_todos': "updates Gemini CLI's own to-do list",
  'external.gemini.ask_user': 'asks the person at Gemini CLI a question',
  'external.gemini.enter_plan_mode': 'switches Gemini CLI to planning',
  'external.gemini.exit_plan_mode': 'shows the plan to the person at Gemini CLI',
  'external.gemini.activate_skill': 'loads instructions for a skill into the conversation',
  'external.gemini.update_topic': "sets the title of Gemini CLI's own conversation",
  'external.gemini.list_background_processes': 'lists commands that already ran through this gate',
  'external.gemini.read_background_output': 'reads the output of a command that already ran through this gate',
};

/** `external.<agent>.<tool>`, when the name has that shape. */
export function parseExternalTool(tool: string): { agent: ExternalAgent; name: string } | null {
  const m = /^external\.([a-z-]+)\.([A-Za-z0-9_-]{1,64})$/.exec(tool);
  if (!m || !isExternalAgent(m[1]!)) return null;
  return { agent: m[1], name: m[2]! };
}

/**
 * The facts of another agent's tool: bookkeeping reads, anything else at least a write that what it does
 * is only known when it runs (so no level lets it run unasked, and no review rule answers for it).
 */
export function externalToolFacts<Facts extends { flags: Flag[] }>(tool: string, base: (tool: string, tier: 'read' | 'write', cls: 'read' | 'write', effects: Effect[], reasons: string[]) => Facts): Facts | null {
  const parsed = parseExternalTool(tool);
  if (!parsed) return null;
  const agent = EXTERNAL_AGENT_NAMES[parsed.agent];
  const bookkeeping = Object.hasOwn(BOOKKEEPING_TOOLS, tool) ? BOOKKEEPING_TOOLS[tool] : undefined;
  if (bookkeeping !== undefined) return base(tool, 'read', 'read', [], [`${parsed.name} ${bookkeeping}`]);
  const f = base(tool, 'write', 'write', ['command_exec'], [`${parsed.name} is a tool of ${agent} that Threshold does not know, so what it does is only known when it runs`]);
  f.flags.push('dynamic');
  return f;
}
