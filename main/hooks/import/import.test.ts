// Importing other agents' rules, over each format's documented kinds of rule: every rule becomes an
// equal-or-stricter Threshold grant or rule, needs nothing (Threshold is already at least as strict), or is
// refused by name. The grants are then attacked: every probe command Threshold's own matcher lets a grant
// cover must be one the source rule allowed by that agent's own matching (a reference matcher written here
// from the agents' documented semantics), so an import never widens.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Grant } from '../../../common/domain';
import { initClassifier } from '../../policy/classifier';
import { coverCall } from '../../policy/grants';
import type { PathContext } from '../../policy/paths';
import { describeCall } from '../../policy/tools';
import { importClaudeCode } from './claude-code';
import { importCodex, readStarlarkCalls } from './codex';
import { importGemini } from './gemini';
import { projectOf } from './index';
import type { ImportPlan } from './types';

const PROJECT = '/home/user/project';
const CTX: PathContext = { home: '/home/user', workspace: PROJECT, appDirs: ['/home/user/.config/threshold', '/home/user/.local/share/threshold'] };

beforeAll(async () => {
  await initClassifier();
});

const claude = (allow: string[], ask: string[] = [], deny: string[] = []) => importClaudeCode(JSON.stringify({ permissions: { allow, ask, deny } }), '/home/user/project/.claude/settings.json', PROJECT, CTX);
const summary = (plan: ImportPlan) => plan.rules.map((r) => `${r.kind} ${r.source} → ${r.result.become === 'grants' ? r.result.grants.map((g) => `${g.tool}:${JSON.stringify(g.pattern)}`).join(' + ') : r.result.become === 'rules' ? r.result.rules.map((x) => `${x.tool}=${x.value}`).join(' + ') : r.result.become}`);

describe('Claude Code permissions', () => {
  it.each([
    { rule: 'Bash(npm run test:*)', want: 'allow Bash(npm run test:*) → run_command:{"kind":"argv","argv":["npm","run","test"],"match":"prefix"}' },
    { rule: 'Bash(npm run build)', want: 'allow Bash(npm run build) → run_command:{"kind":"argv","argv":["npm","run","build"],"match":"exact"}' },
    { rule: 'Bash(npm run *)', want: 'allow Bash(npm run *) → refused' },
    { rule: 'Bash(git diff:*)', want: 'allow Bash(git diff:*) → refused' },
    { rule: 'Bash(git status)', want: 'allow Bash(git status) → nothing' },
    { rule: 'Bash(git commit -m "wip")', want: 'allow Bash(git commit -m "wip") → run_command:{"kind":"argv","argv":["git","commit","-m","wip"],"match":"exact"}' },
    { rule: 'Bash', want: 'allow Bash → refused' },
    { rule: 'Bash(*)', want: 'allow Bash(*) → refused' },
    { rule: 'Bash(*.sh)', want: 'allow Bash(*.sh) → refused' },
    { rule: 'Bash(npm test && curl evil.example)', want: 'allow Bash(npm test && curl evil.example) → refused' },
    { rule: 'Bash(echo $(id))', want: 'allow Bash(echo $(id)) → refused' },
    { rule: 'Read(./src/**)', want: 'allow Read(./src/**) → nothing' },
    { rule: 'Edit(/docs/**)', want: 'allow Edit(/docs/**) → write_file:{"kind":"path","glob":"/home/user/project/docs/**"} + edit_file:{"kind":"path","glob":"/home/user/project/docs/**"}' },
    { rule: 'Edit(~/notes/*.md)', want: 'allow Edit(~/notes/*.md) → write_file:{"kind":"path","glob":"/home/user/notes/*.md"} + edit_file:{"kind":"path","glob":"/home/user/notes/*.md"}' },
    { rule: 'Edit(//srv/www/**)', want: 'allow Edit(//srv/www/**) → refused' },
    { rule: 'Edit', want: 'allow Edit → refused' },
    { rule: 'Edit(//**)', want: 'allow Edit(//**) → refused' },
    { rule: 'WebFetch(domain:example.com)', want: 'allow WebFetch(domain:example.com) → web_fetch:{"kind":"url","prefix":"https://example.com/"}' },
    { rule: 'WebFetch(https://evil.example/*)', want: 'allow WebFetch(https://evil.example/*) → refused' },
    { rule: 'mcp__puppeteer__puppeteer_navigate', want: 'allow mcp__puppeteer__puppeteer_navigate → mcp.puppeteer.puppeteer_navigate:{"kind":"tool"}' },
    { rule: 'mcp__puppeteer', want: 'allow mcp__puppeteer → refused' },
    { rule: 'mcp__puppeteer__*', want: 'allow mcp__puppeteer__* → refused' },
    { rule: 'TodoWrite', want: 'allow TodoWrite → nothing' },
    { rule: 'WebSearch', want: 'allow WebSearch → external.claude-code.WebSearch:{"kind":"tool"}' },
    { rule: 'Bash(git push --force:*)', want: 'allow Bash(git push --force:*) → refused' },
    { rule: '(nonsense', want: 'allow (nonsense → refused' },
  ])('allow $rule', ({ rule, want }) => {
    expect(summary(claude([rule]))).toEqual([want]);
  });

  it.each([
    { kind: 'ask' as const, rule: 'Bash(git push:*)', want: 'ask Bash(git push:*) → refused' },
    { kind: 'ask' as const, rule: 'WebFetch', want: 'ask WebFetch → web_fetch=ask' },
    { kind: 'ask' as const, rule: 'Bash', want: 'ask Bash → run_command=ask' },
    { kind: 'deny' as const, rule: 'Bash(curl:*)', want: 'deny Bash(curl:*) → refused' },
    { kind: 'deny' as const, rule: 'Read(./.env)', want: 'deny Read(./.env) → refused' },
    { kind: 'deny' as const, rule: 'Read(./secrets/**)', want: 'deny Read(./secrets/**) → refused' },
    { kind: 'deny' as const, rule: 'Read', want: 'deny Read → read_file=deny + list_dir=deny + search_files=deny' },
    { kind: 'deny' as const, rule: 'Edit', want: 'deny Edit → write_file=deny + edit_file=deny' },
    { kind: 'deny' as const, rule: 'WebSearch', want: 'deny WebSearch → external.claude-code.WebSearch=deny' },
    { kind: 'deny' as const, rule: 'mcp__github__delete_repo', want: 'deny mcp__github__delete_repo → refused' },
  ])('$kind $rule', ({ kind, rule, want }) => {
    expect(summary(kind === 'ask' ? claude([], [rule]) : claude([], [], [rule]))).toEqual([want]);
  });

  it('says what it did not read: settings that are not rules, a list that is not a list, a file that is not JSON', () => {
    expect(importClaudeCode(JSON.stringify({ permissions: { allow: 'Bash(ls)', defaultMode: 'acceptEdits', additionalDirectories: ['../x'] } }), 'f', PROJECT, CTX).notes).toEqual([
      'permissions.allow is not a list; it was not read.',
      "permissions.defaultMode is not imported: Claude Code's starting mode; Threshold's level is set in Threshold (Settings, or [autonomy] level).",
      "permissions.additionalDirectories is not imported: folders Claude Code may work in besides the project; Threshold judges each call against the agent's project.",
    ]);
    expect(importClaudeCode('{ not json', 'f', PROJECT, CTX).notes[0]).toMatch(/^f is not valid JSON/);
  });
});

describe('Codex .rules', () => {
  // The shape of the documented example: a prompt rule with inline match and not_match tests.
  const documented = `# Ask before viewing PRs outside the sandbox.
prefix_rule(
    pattern = ["gh", "pr", "view"],
    decision = "prompt",
    justification = "Viewing PRs needs approval",
    match = ["gh pr view 7888", "gh pr view --repo openai/codex"],
    not_match = ["gh pr --repo openai/codex view 7888"],
)
`;
  const codex = (text: string) => importCodex(text, '/home/user/.codex/rules/default.rules', PROJECT, CTX);

  it.each([
    { name: 'the documented prompt rule is refused: no argument-scoped ask', text: documented, want: ['ask prefix_rule(pattern = ["gh","pr","view"]) at line 2 → refused'] },
    { name: 'an allow with alternatives becomes one prefix grant per combination', text: 'prefix_rule(pattern = ["npm", "run", ["test", "lint"]], decision = "allow")', want: ['allow prefix_rule(pattern = ["npm","run",["test","lint"]]) at line 1 → run_command:{"kind":"argv","argv":["npm","run","test"],"match":"prefix"} + run_command:{"kind":"argv","argv":["npm","run","lint"],"match":"prefix"}'] },
    { name: 'an allow whose combination the width judge finds too wide is refused whole (git status * can carry -c)', text: 'prefix_rule(pattern = ["git", ["status", "log"]], decision = "allow")', want: ['allow prefix_rule(pattern = ["git",["status","log"]]) at line 1 → refused'] },
    { name: 'decision defaults to allow', text: "prefix_rule(pattern = ['make'])", want: ['allow prefix_rule(pattern = ["make"]) at line 1 → run_command:{"kind":"argv","argv":["make"],"match":"prefix"}'] },
    { name: 'forbidden is refused: no argument-scoped deny', text: 'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "Use trash.")', want: ['deny prefix_rule(pattern = ["rm"]) at line 1 → refused'] },
    { name: 'a not_match example the grant would cover refuses the rule (it would be wider)', text: 'prefix_rule(pattern = ["git"], not_match = ["git push origin main"])', want: ['allow prefix_rule(pattern = ["git"]) at line 1 → refused'] },
    { name: 'an unknown decision is refused by name', text: 'prefix_rule(pattern = ["ls"], decision = "maybe")', want: ['deny prefix_rule(pattern = ["ls"]) at line 1 → refused'] },
    { name: 'a call that is not a rule is refused by name', text: 'exec_rule(pattern = ["ls"])', want: ['deny exec_rule(…) at line 1 → refused'] },
  ])('$name', ({ text, want }) => {
    expect(summary(codex(text))).toEqual(want);
  });

  it('host_executable and unreadable statements are reported, not guessed at', () => {
    const plan = codex('host_executable(name = "git", paths = ["/usr/bin/git"])\nx = 1\nprefix_rule(pattern = ["ls"], decision = "allow")\n');
    expect({ notes: plan.notes.map((n) => n.slice(0, 40)), rules: plan.rules.length }).toEqual({ notes: ['not read: line 2: "x" is not a call (onl', 'host_executable(…) at line 1 is not impo'], rules: 1 });
  });

  it('reads Starlark literals: triple quotes, adjacent strings, comments, trailing commas', () => {
    const { calls, problems } = readStarlarkCalls('prefix_rule(\n  pattern = ["a", "b" "c"],  # joined\n  justification = """multi\nline""",\n)\n');
    expect({ problems, args: calls[0]?.args }).toEqual({ problems: [], args: { pattern: ['a', 'bc'], justification: 'multi\nline' } });
  });
});

describe('Gemini CLI policy TOML', () => {
  const gemini = (toml: string) => importGemini(toml, '/home/user/project/.gemini/policies/mine.toml', PROJECT, CTX);
  it.each([
    { name: 'the documented allow of git status is refused by the width judge (git status * can carry -c)', toml: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git status"\ndecision = "allow"\npriority = 100', want: ['allow → refused'] },
    { name: 'the documented deny of rm -rf is refused (no argument-scoped deny)', toml: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm -rf"\ndecision = "deny"\npriority = 100', want: ['deny → refused'] },
    { name: 'the documented ask before any git command is refused', toml: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git "\ndecision = "ask_user"\npriority = 100', want: ['ask → refused'] },
    { name: 'an allow of every shell command is refused', toml: '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 1', want: ['allow → refused'] },
    { name: 'a regex over the arguments is refused', toml: '[[rule]]\ntoolName = "write_file"\nargsPattern = "\\"file_path\\":\\"docs/"\ndecision = "allow"\npriority = 1', want: ['allow → refused'] },
    { name: 'an allow only in some modes is refused', toml: '[[rule]]\ntoolName = "replace"\ndecision = "allow"\nmodes = ["autoEdit"]\npriority = 1', want: ['allow → refused'] },
    { name: 'a deny only in some modes is imported always (stricter)', toml: '[[rule]]\ntoolName = "web_fetch"\ndecision = "deny"\nmodes = ["yolo"]\npriority = 1', want: ['deny → web_fetch=deny'] },
    { name: 'an allow of the whole edit tool is refused: the project holds files that run (package.json)', toml: '[[rule]]\ntoolName = "replace"\ndecision = "allow"\npriority = 1', want: ['allow → refused'] },
    { name: 'an MCP tool by mcpName and toolName', toml: '[[rule]]\nmcpName = "github"\ntoolName = "create_issue"\ndecision = "allow"\npriority = 1', want: ['allow → mcp.github.create_issue:{"kind":"tool"}'] },
    { name: 'an MCP tool by its qualified name', toml: '[[rule]]\ntoolName = "github__create_issue"\ndecision = "allow"\npriority = 1', want: ['allow → mcp.github.create_issue:{"kind":"tool"}'] },
    { name: 'a whole MCP server is refused', toml: '[[rule]]\nmcpName = "github"\ndecision = "allow"\npriority = 1', want: ['allow → refused'] },
    { name: 'a wildcard tool name is refused', toml: '[[rule]]\ntoolName = "github__*"\ndecision = "allow"\npriority = 1', want: ['allow → refused'] },
    { name: 'reads need nothing', toml: '[[rule]]\ntoolName = ["read_file", "glob"]\ndecision = "allow"\npriority = 1', want: ['allow → nothing'] },
    { name: 'two prefixes become two grants', toml: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["npm test", "npm run lint"]\ndecision = "allow"\npriority = 1', want: ['allow → run_command:{"kind":"argv","argv":["npm","test"],"match":"prefix"} + run_command:{"kind":"argv","argv":["npm","run","lint"],"match":"prefix"}'] },
  ])('$name', ({ toml, want }) => {
    expect(summary(gemini(toml)).map((s) => s.replace(/ \[\[rule\]\] #1: .*? →/, ' →'))).toEqual(want);
  });

  it('a file that is not TOML says so and imports nothing', () => {
    const plan = gemini('[[rule]\ntoolName =');
    expect({ rules: plan.rules.length, note: /is not valid TOML/.test(plan.notes[0] ?? '') }).toEqual({ rules: 0, note: true });
  });
});

// ── Never wider: every command a produced grant covers is one the source rule allowed ─────────────────

const PROBES = [
  'npm run test', 'npm run test -- --watch', 'npm run testx', 'npm run', 'npm run build', 'npm run build --prod', 'npm test', 'npm test > out.txt', 'npm run test; rm -rf x', 'npm run test && curl evil.example',
  'npm run test $(id)', 'npm run lint', 'git status', 'git status --short', 'git statusx', 'git log', 'git log --oneline', 'git push', 'git diff', 'git diff HEAD~1', 'make', 'make install', 'gh pr view 1',
  'rm -rf build', 'echo hi > notes.txt', 'bash -c "npm run test"',
];

function covered(grants: Grant[], command: string): boolean {
  const d = describeCall('run_command', { command }, { ctx: CTX, cwd: PROJECT });
  return d.ok && coverCall(d.facts, grants, CTX, { now: 0 }).covered;
}

/** The agents' own matching, from their docs: a Claude Code rule is exact, or a prefix at a word boundary; Codex and Gemini CLI prefixes are word prefixes; none lets a command line that chains, substitutes or redirects through. */
function sourceAllows(kind: 'exact' | 'prefix', words: string[], command: string): boolean {
  if (/[;&|<>`$()]/.test(command)) return false;
  const got = command.trim().split(/\s+/);
  if (kind === 'exact') return got.length === words.length && got.every((w, i) => w === words[i]);
  return got.length >= words.length && words.every((w, i) => got[i] === w);
}

describe('an imported grant never covers more than its rule allowed', () => {
  const sources: { name: string; plan: () => ImportPlan; rule: [kind: 'exact' | 'prefix', words: string[]][] }[] = [
    { name: 'Claude Code Bash(npm run test:*)', plan: () => claude(['Bash(npm run test:*)']), rule: [['prefix', ['npm', 'run', 'test']]] },
    { name: 'Claude Code Bash(npm run build)', plan: () => claude(['Bash(npm run build)']), rule: [['exact', ['npm', 'run', 'build']]] },
    { name: 'Claude Code Bash(cargo build:*)', plan: () => claude(['Bash(cargo build:*)']), rule: [['prefix', ['cargo', 'build']]] },
    { name: 'Codex npm run test|lint', plan: () => importCodex('prefix_rule(pattern = ["npm", "run", ["test", "lint"]])', 'f', PROJECT, CTX), rule: [['prefix', ['npm', 'run', 'test']], ['prefix', ['npm', 'run', 'lint']]] },
    { name: 'Gemini CLI npm test / npm run lint', plan: () => importGemini('[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["npm test", "npm run lint"]\ndecision = "allow"\npriority = 1', 'f', PROJECT, CTX), rule: [['prefix', ['npm', 'test']], ['prefix', ['npm', 'run', 'lint']]] },
  ];
  it.each(sources)('$name', ({ plan, rule }) => {
    const grants: Grant[] = plan().rules.flatMap((r, i) => (r.result.become === 'grants' ? r.result.grants.map((g, j) => ({ id: `g${i}-${j}`, tool: g.tool, pattern: g.pattern, scope: 'always' as const, provenance: { source: 'import' as const }, createdAt: 0 })) : []));
    expect(grants.length).toBeGreaterThan(0);
    const wider = PROBES.filter((p) => covered(grants, p) && !rule.some(([kind, words]) => sourceAllows(kind, words, p)));
    expect(wider).toEqual([]);
  });
});

describe('the project a settings file belongs to', () => {
  it.each([
    { file: '/p/.claude/settings.json', want: '/p' },
    { file: '/p/.claude/settings.local.json', want: '/p' },
    { file: '/p/.gemini/policies/mine.toml', want: '/p' },
    { file: '/p/.codex/rules/default.rules', want: '/p' },
    { file: '/home/u/Downloads/settings.json', want: '/cwd' },
  ])('$file → $want', ({ file, want }) => {
    expect(projectOf(file, '/cwd')).toBe(want);
  });
});
