// Calls another agent runs itself (its hook asked Threshold): what the levels allow only because the jail
// confines it asks instead; grants, explicit rules and reads hold. And that agent's own tools: bookkeeping
// reads, anything unknown at least a write whose effect is known only when it runs.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Decision, Level } from '../../common/domain';
import { grant, policyContext } from '../../test/support/policy';
import { initClassifier } from './classifier';
import { evaluate, type PolicyContext } from './evaluate';

beforeAll(async () => {
  await initClassifier();
});

const cmd = (command: string) => ({ tool: 'run_command', args: { command } });
const at = (level: Level, extra: Partial<PolicyContext> = {}) => policyContext({ level, runsOutsideJail: true, hostAllowed: (h) => h === 'example.com', ...extra });

describe('a call another agent runs outside the jail', () => {
  const cases: { name: string; call: { tool: string; args: unknown }; ctx: PolicyContext; want: { decision: Decision; decidedBy: string } }[] = [
    { name: 'at auto-edit a command that writes inside the workspace asks (no jail, no checkpoint before it)', call: cmd('touch a.txt'), ctx: at('auto-edit'), want: { decision: 'ask', decidedBy: 'level:auto-edit' } },
    { name: 'the same command inside the jail is allowed at auto-edit', call: cmd('touch a.txt'), ctx: at('auto-edit', { runsOutsideJail: false }), want: { decision: 'allow', decidedBy: 'level:auto-edit' } },
    { name: 'at auto-edit a file edit inside the workspace is allowed (the core checkpoints before it answers)', call: { tool: 'edit_file', args: { path: 'src/a.ts', old: 'a', new: 'b' } }, ctx: at('auto-edit'), want: { decision: 'allow', decidedBy: 'level:auto-edit' } },
    { name: 'at auto-edit a file edit outside the workspace asks', call: { tool: 'write_file', args: { path: '/home/user/notes.txt', content: '' } }, ctx: at('auto-edit'), want: { decision: 'ask', decidedBy: 'level:auto-edit' } },
    { name: 'reads run at every level, jail or not', call: cmd('ls -la'), ctx: at('supervised'), want: { decision: 'allow', decidedBy: 'level:supervised' } },
    { name: 'a credential read still asks', call: cmd('cat ~/.ssh/id_rsa'), ctx: at('full'), want: { decision: 'ask', decidedBy: 'floor:secret_read' } },
    { name: 'at full a command that writes inside the workspace is allowed', call: cmd('touch a.txt'), ctx: at('full'), want: { decision: 'allow', decidedBy: 'level:full' } },
    { name: 'at full a command that writes outside the workspace asks (the jail would have stopped it)', call: cmd('touch ~/elsewhere.txt'), ctx: at('full'), want: { decision: 'ask', decidedBy: 'level:full' } },
    { name: 'at full a download from an allowed host asks (no egress proxy outside the jail)', call: cmd('curl -o page.html https://example.com/'), ctx: at('full'), want: { decision: 'ask', decidedBy: 'level:full' } },
    { name: 'at full a command whose code is only known at run time asks', call: cmd('bash -c "$SCRIPT"'), ctx: at('full'), want: { decision: 'ask', decidedBy: 'level:full' } },
    { name: 'at full inside the jail the same download runs', call: cmd('curl -o page.html https://example.com/'), ctx: at('full', { runsOutsideJail: false }), want: { decision: 'allow', decidedBy: 'level:full' } },
    { name: 'a grant the user made still allows the command', call: cmd('touch a.txt'), ctx: at('supervised', { grants: [grant('run_command', { kind: 'argv', argv: ['touch'], match: 'prefix' }, { id: 'gt' })] }), want: { decision: 'allow', decidedBy: 'grant:gt' } },
    { name: 'an explicit allow rule still allows it', call: cmd('touch a.txt'), ctx: at('auto-edit', { rules: { tools: { run_command: 'allow' }, effects: {} } }), want: { decision: 'allow', decidedBy: 'rule:tool:run_command=allow' } },
    { name: 'the hardline still denies', call: cmd('rm -rf ~'), ctx: at('full'), want: { decision: 'deny', decidedBy: 'floor:hardline' } },
  ];
  it.each(cases)('$name', ({ call, ctx, want }) => {
    const e = evaluate(call, ctx);
    expect({ decision: e.decision, decidedBy: e.decidedBy }).toEqual(want);
  });

  it('says why, naming the jail, when auto-edit asks', () => {
    expect(evaluate(cmd('touch a.txt'), at('auto-edit')).explanation).toMatch(/outside it \(the agent that asked runs it itself\)/);
  });
});

describe("another agent's own tools", () => {
  const cases: { name: string; tool: string; ctx: PolicyContext; want: { decision: Decision; decidedBy: string; class?: string } }[] = [
    { name: "Claude Code's to-do list is bookkeeping: it runs even at read-only", tool: 'external.claude-code.TodoWrite', ctx: at('read-only'), want: { decision: 'allow', decidedBy: 'level:read-only', class: 'read' } },
    { name: 'an unknown tool is at least a write: it asks when supervised', tool: 'external.claude-code.Workflow', ctx: at('supervised'), want: { decision: 'ask', decidedBy: 'level:supervised', class: 'write' } },
    { name: 'an unknown tool asks at auto-edit (not a workspace file edit)', tool: 'external.codex.mystery', ctx: at('auto-edit'), want: { decision: 'ask', decidedBy: 'level:auto-edit', class: 'write' } },
    { name: 'an unknown tool asks at full (what it does is known only when it runs)', tool: 'external.gemini.mystery', ctx: at('full'), want: { decision: 'ask', decidedBy: 'level:full', class: 'write' } },
    { name: 'an unknown tool is denied at read-only', tool: 'external.claude-code.Workflow', ctx: at('read-only'), want: { decision: 'deny', decidedBy: 'level:read-only', class: 'write' } },
    { name: "a tool grant lets the person say 'this tool never asks'", tool: 'external.claude-code.Workflow', ctx: at('supervised', { grants: [grant('external.claude-code.Workflow', { kind: 'tool' }, { id: 'gw' })] }), want: { decision: 'allow', decidedBy: 'grant:gw', class: 'write' } },
    { name: 'a per-tool deny rule refuses it', tool: 'external.claude-code.Workflow', ctx: at('full', { rules: { tools: { 'external.claude-code.Workflow': 'deny' }, effects: {} } }), want: { decision: 'deny', decidedBy: 'rule:tool:external.claude-code.Workflow=deny', class: 'write' } },
    { name: 'an agent Threshold does not answer for is not a tool', tool: 'external.cursor.Shell', ctx: at('full'), want: { decision: 'deny', decidedBy: 'tool:unknown_tool', class: 'write' } },
    { name: 'a name that only looks like a bookkeeping tool is unknown', tool: 'external.claude-code.TodoWrite2', ctx: at('supervised'), want: { decision: 'ask', decidedBy: 'level:supervised', class: 'write' } },
    { name: "the object prototype's names are not bookkeeping", tool: 'external.claude-code.constructor', ctx: at('supervised'), want: { decision: 'ask', decidedBy: 'level:supervised', class: 'write' } },
    { name: 'a bookkeeping name from another agent is not borrowed', tool: 'external.codex.TodoWrite', ctx: at('supervised'), want: { decision: 'ask', decidedBy: 'level:supervised', class: 'write' } },
  ];
  it.each(cases)('$name', ({ tool, ctx, want }) => {
    const e = evaluate({ tool, args: {} }, ctx);
    expect({ decision: e.decision, decidedBy: e.decidedBy, class: e.class }).toEqual({ class: 'write', ...want });
  });

  it('refuses arguments that are not an object', () => {
    expect(evaluate({ tool: 'external.claude-code.Workflow', args: 'rm -rf /' }, at('full')).decidedBy).toBe('tool:invalid_args');
  });
});
