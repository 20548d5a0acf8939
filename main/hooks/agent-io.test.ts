// Each agent's hook contract: what Threshold reads from its stdin and the one object it prints back, per
// answer. The shapes are the agents' own (their sources and docs, checked against the real binaries in
// test/peers); a defer is never an allow in any of them.
import { describe, expect, it } from 'vitest';
import type { ExternalAgent } from '../../common/external-agents';
import { formatAnswer, readHookInput, type HookAnswer, type HookEvent } from './agent-io';

describe('reading a hook input', () => {
  const claude = { session_id: 'b805', transcript_path: '/t', cwd: '/p/sub', prompt_id: 'pr1', permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' };
  it.each([
    { name: 'Claude Code: the project folder comes from CLAUDE_PROJECT_DIR, the turn from prompt_id', agent: 'claude-code' as const, raw: claude, env: { CLAUDE_PROJECT_DIR: '/p' }, want: { ok: true, input: { agent: 'claude-code', event: 'pre_tool_use', sessionId: 'b805', turnId: 'pr1', toolUseId: 'toolu_1', cwd: '/p/sub', workspace: '/p', toolName: 'Bash', toolInput: { command: 'ls' }, mcp: null } } },
    { name: 'Claude Code without its project variable: the cwd is the project', agent: 'claude-code' as const, raw: claude, env: {}, want: { ok: true, input: expect.objectContaining({ workspace: '/p/sub' }) } },
    { name: 'a relative project variable is not trusted', agent: 'claude-code' as const, raw: claude, env: { CLAUDE_PROJECT_DIR: 'p' }, want: { ok: true, input: expect.objectContaining({ workspace: '/p/sub' }) } },
    { name: 'Codex: PermissionRequest is answered too', agent: 'codex' as const, raw: { session_id: 's', turn_id: 't', cwd: '/p', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'curl x' } }, env: {}, want: { ok: true, input: expect.objectContaining({ event: 'permission_request', turnId: 't', toolUseId: null }) } },
    { name: 'Gemini CLI: BeforeTool with its MCP context', agent: 'gemini' as const, raw: { session_id: 's', cwd: '/p', hook_event_name: 'BeforeTool', tool_name: 'x', tool_input: {}, mcp_context: { server_name: 'fs', tool_name: 'read' } }, env: { GEMINI_PROJECT_DIR: '/p' }, want: { ok: true, input: expect.objectContaining({ mcp: { server: 'fs', tool: 'read' }, workspace: '/p' }) } },
    { name: 'an event this agent does not send is refused by name', agent: 'claude-code' as const, raw: { ...claude, hook_event_name: 'PostToolUse' }, env: {}, want: { ok: false, why: '"PostToolUse" is not a hook event Threshold answers for Claude Code (install it for PreToolUse)' } },
    { name: 'another agent\'s event name is refused', agent: 'gemini' as const, raw: claude, env: {}, want: { ok: false, why: '"PreToolUse" is not a hook event Threshold answers for Gemini CLI (install it for BeforeTool)' } },
    { name: 'no tool name', agent: 'claude-code' as const, raw: { ...claude, tool_name: '' }, env: {}, want: { ok: false, why: 'the hook input names no tool_name' } },
    { name: 'no session', agent: 'claude-code' as const, raw: { ...claude, session_id: undefined }, env: {}, want: { ok: false, why: 'the hook input has no session_id' } },
    { name: 'a relative cwd', agent: 'claude-code' as const, raw: { ...claude, cwd: 'p' }, env: {}, want: { ok: false, why: 'the hook input has no absolute cwd' } },
    { name: 'not an object', agent: 'codex' as const, raw: ['PreToolUse'], env: {}, want: { ok: false, why: 'the hook input is not a JSON object' } },
    { name: 'an event name from the prototype is not an event', agent: 'codex' as const, raw: { ...claude, hook_event_name: 'constructor' }, env: {}, want: { ok: false, why: '"constructor" is not a hook event Threshold answers for Codex (install it for PreToolUse and PermissionRequest)' } },
  ])('$name', ({ agent, raw, env, want }) => {
    expect(readHookInput(agent, raw, env)).toEqual(want);
  });
});

describe('answering in the agent\'s format', () => {
  const allow: HookAnswer = { kind: 'allow', reason: 'Allowed: reads run at every level.' };
  const jailed: HookAnswer = { kind: 'allow', reason: 'Approved.', rewrite: { command: "/usr/bin/node /t/bin/threshold.js hook run --data-dir /d TICKET" } };
  const deny: HookAnswer = { kind: 'deny', reason: 'Denied: hardline.' };
  const defer: HookAnswer = { kind: 'defer', why: 'Threshold is not running for /d' };
  const input = { command: 'rm x', description: 'cleanup', timeout: 1000 };
  const cases: { name: string; agent: ExternalAgent; event: HookEvent; answer: HookAnswer; want: unknown }[] = [
    { name: 'Claude Code allow', agent: 'claude-code', event: 'pre_tool_use', answer: allow, want: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: allow.reason } } },
    { name: 'Claude Code allow into the jail keeps the other fields of the call', agent: 'claude-code', event: 'pre_tool_use', answer: jailed, want: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'Approved.', updatedInput: { command: '/usr/bin/node /t/bin/threshold.js hook run --data-dir /d TICKET', description: 'cleanup', timeout: 1000 } } } },
    { name: 'Claude Code deny carries the reason', agent: 'claude-code', event: 'pre_tool_use', answer: deny, want: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Denied: hardline.' } } },
    { name: 'Claude Code defer is its own prompt (ask), never allow', agent: 'claude-code', event: 'pre_tool_use', answer: defer, want: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'Threshold: Threshold is not running for /d. Claude Code asks instead.' } } },
    { name: 'Codex allow without a rewrite says nothing (Codex rejects a bare allow)', agent: 'codex', event: 'pre_tool_use', answer: allow, want: {} },
    { name: 'Codex allow into the jail rewrites the command', agent: 'codex', event: 'pre_tool_use', answer: jailed, want: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: '/usr/bin/node /t/bin/threshold.js hook run --data-dir /d TICKET', description: 'cleanup', timeout: 1000 } } } },
    { name: 'Codex deny carries the reason', agent: 'codex', event: 'pre_tool_use', answer: deny, want: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Denied: hardline.' } } },
    { name: 'Codex defer leaves Codex\'s own approvals in charge, with a line', agent: 'codex', event: 'pre_tool_use', answer: defer, want: { systemMessage: "Threshold: Threshold is not running for /d. Codex's own approval settings decide." } },
    { name: 'Codex PermissionRequest allow', agent: 'codex', event: 'permission_request', answer: allow, want: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } } },
    { name: 'Codex PermissionRequest deny', agent: 'codex', event: 'permission_request', answer: deny, want: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'Denied: hardline.' } } } },
    { name: 'Codex PermissionRequest defer is Codex\'s own prompt', agent: 'codex', event: 'permission_request', answer: defer, want: { systemMessage: 'Threshold: Threshold is not running for /d. Codex asks you instead.' } },
    { name: 'Gemini CLI allow', agent: 'gemini', event: 'pre_tool_use', answer: allow, want: { decision: 'allow', reason: allow.reason } },
    { name: 'Gemini CLI allow into the jail rewrites only the command', agent: 'gemini', event: 'pre_tool_use', answer: jailed, want: { decision: 'allow', reason: 'Approved.', hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: '/usr/bin/node /t/bin/threshold.js hook run --data-dir /d TICKET' } } } },
    { name: 'Gemini CLI deny', agent: 'gemini', event: 'pre_tool_use', answer: deny, want: { decision: 'deny', reason: 'Denied: hardline.' } },
    { name: 'Gemini CLI defer forces its own prompt (ask)', agent: 'gemini', event: 'pre_tool_use', answer: defer, want: { decision: 'ask', reason: 'Threshold: Threshold is not running for /d. Gemini CLI asks instead.', systemMessage: 'Threshold: Threshold is not running for /d.' } },
  ];
  it.each(cases)('$name', ({ agent, event, answer, want }) => {
    expect(formatAnswer({ agent, event, toolInput: input }, answer)).toEqual(want);
  });

  it.each(['claude-code', 'codex', 'gemini'] as const)('a defer for %s never reads as an allow', (agent) => {
    const out = JSON.stringify(formatAnswer({ agent, event: 'pre_tool_use', toolInput: {} }, defer));
    expect(out).not.toMatch(/"(permissionDecision|decision|behavior)":"allow"/);
  });
});
