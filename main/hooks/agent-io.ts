// What each agent's hook sends on stdin and what it reads back on stdout, for the three agents whose hooks
// Threshold answers. Pure: the hook client (main/hooks/client.ts) reads, asks the core, prints exactly one
// JSON object. Contracts as the agents' own sources and docs state them:
//   Claude Code 2.1  PreToolUse: {session_id, cwd, tool_name, tool_input, tool_use_id, prompt_id, …};
//                    answers hookSpecificOutput.permissionDecision allow|deny|ask (+ reason, updatedInput).
//   Codex 0.171      PreToolUse: {session_id, turn_id, cwd, tool_name: "Bash"|"apply_patch"|"mcp__s__t", tool_input, tool_use_id};
//                    answers permissionDecision deny (reason required) or allow with updatedInput only;
//                    an empty object leaves the call to Codex's own sandbox and approvals.
//                    PermissionRequest (Codex is about to ask its user): decision.behavior allow|deny.
//   Gemini CLI 0.61  BeforeTool: {session_id, cwd, tool_name, tool_input, mcp_context?};
//                    answers decision deny|ask (+ reason), hookSpecificOutput.tool_input rewrites the call.
import { EXTERNAL_AGENT_NAMES, type ExternalAgent } from '../../common/external-agents';

export type HookEvent = 'pre_tool_use' | 'permission_request';

export interface HookInput {
  agent: ExternalAgent;
  event: HookEvent;
  sessionId: string;
  turnId: string | null;
  toolUseId: string | null;
  /** Where the call runs (absolute). */
  cwd: string;
  /** The agent's project (absolute): its hook environment's project folder, else the cwd. */
  workspace: string;
  toolName: string;
  toolInput: unknown;
  /** Gemini CLI's MCP calls say which server and tool they are. */
  mcp: { server: string; tool: string } | null;
}

export type HookAnswer =
  | { kind: 'allow'; reason: string; rewrite?: { command: string } }
  | { kind: 'deny'; reason: string }
  /** Threshold could not judge the call: the agent's own prompt decides (never an allow). */
  | { kind: 'defer'; why: string };

const EVENTS: Record<ExternalAgent, Record<string, HookEvent>> = {
  'claude-code': { PreToolUse: 'pre_tool_use' },
  codex: { PreToolUse: 'pre_tool_use', PermissionRequest: 'permission_request' },
  gemini: { BeforeTool: 'pre_tool_use' },
};

/** The environment variable each agent sets to its project folder for a hook. */
const PROJECT_DIR_ENV: Record<ExternalAgent, string | null> = { 'claude-code': 'CLAUDE_PROJECT_DIR', codex: null, gemini: 'GEMINI_PROJECT_DIR' };

const isAbsolute = (p: string) => p.startsWith('/');
const id = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

/** Reads one hook's stdin (already JSON-parsed); a refusal names what is missing or wrong. */
export function readHookInput(agent: ExternalAgent, raw: unknown, env: Readonly<Record<string, string | undefined>>): { ok: true; input: HookInput } | { ok: false; why: string } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, why: 'the hook input is not a JSON object' };
  const r = raw as Record<string, unknown>;
  const eventName = typeof r['hook_event_name'] === 'string' ? r['hook_event_name'] : '';
  const event = Object.hasOwn(EVENTS[agent], eventName) ? EVENTS[agent][eventName]! : null;
  if (!event) return { ok: false, why: `"${eventName.slice(0, 40) || '(none)'}" is not a hook event Threshold answers for ${EXTERNAL_AGENT_NAMES[agent]} (install it for ${Object.keys(EVENTS[agent]).join(' and ')})` };
  const toolName = typeof r['tool_name'] === 'string' && r['tool_name'] ? r['tool_name'] : null;
  if (!toolName) return { ok: false, why: 'the hook input names no tool_name' };
  const sessionId = id(r['session_id']);
  if (!sessionId) return { ok: false, why: 'the hook input has no session_id' };
  const cwd = typeof r['cwd'] === 'string' ? r['cwd'] : '';
  if (!isAbsolute(cwd)) return { ok: false, why: 'the hook input has no absolute cwd' };
  const projectEnv = PROJECT_DIR_ENV[agent];
  const project = projectEnv ? env[projectEnv] : undefined;
  const ctx = r['mcp_context'];
  const mcp = ctx && typeof ctx === 'object' && typeof (ctx as Record<string, unknown>)['server_name'] === 'string' && typeof (ctx as Record<string, unknown>)['tool_name'] === 'string'
    ? { server: (ctx as Record<string, string>)['server_name']!, tool: (ctx as Record<string, string>)['tool_name']! }
    : null;
  return {
    ok: true,
    input: {
      agent,
      event,
      sessionId,
      turnId: id(r['turn_id']) ?? id(r['prompt_id']),
      toolUseId: id(r['tool_use_id']),
      cwd,
      workspace: project && isAbsolute(project) ? project : cwd,
      toolName,
      toolInput: r['tool_input'] ?? {},
      mcp,
    },
  };
}

const CLAUDE_EVENT = 'PreToolUse';

/** The one JSON object the agent reads back. */
export function formatAnswer(input: Pick<HookInput, 'agent' | 'event' | 'toolInput'>, answer: HookAnswer): Record<string, unknown> {
  switch (input.agent) {
    case 'claude-code': {
      const out = (decision: string, reason: string, extra: Record<string, unknown> = {}) => ({ hookSpecificOutput: { hookEventName: CLAUDE_EVENT, permissionDecision: decision, permissionDecisionReason: reason, ...extra } });
      if (answer.kind === 'allow') return out('allow', answer.reason, answer.rewrite ? { updatedInput: { ...objectOf(input.toolInput), command: answer.rewrite.command } } : {});
      if (answer.kind === 'deny') return out('deny', answer.reason);
      return out('ask', `Threshold: ${answer.why}. Claude Code asks instead.`);
    }
    case 'codex': {
      if (input.event === 'permission_request') {
        const out = (decision: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
        if (answer.kind === 'allow') return out({ behavior: 'allow' });
        if (answer.kind === 'deny') return out({ behavior: 'deny', message: answer.reason });
        return { systemMessage: `Threshold: ${answer.why}. Codex asks you instead.` };
      }
      // An allow may not stand alone in Codex (only with a rewrite): without one the call goes on under Codex's own sandbox and approvals.
      if (answer.kind === 'allow') return answer.rewrite ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { ...objectOf(input.toolInput), command: answer.rewrite.command } } } : {};
      if (answer.kind === 'deny') return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason } };
      return { systemMessage: `Threshold: ${answer.why}. Codex's own approval settings decide.` };
    }
    case 'gemini': {
      if (answer.kind === 'allow') return answer.rewrite ? { decision: 'allow', reason: answer.reason, hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: answer.rewrite.command } } } : { decision: 'allow', reason: answer.reason };
      if (answer.kind === 'deny') return { decision: 'deny', reason: answer.reason };
      return { decision: 'ask', reason: `Threshold: ${answer.why}. Gemini CLI asks instead.`, systemMessage: `Threshold: ${answer.why}.` };
    }
  }
}

function objectOf(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** A string as one word for a POSIX shell. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
