import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REVIEWER_PROMPT } from './reviewer-prompt';
import { ConfigError, parseConfig } from './load';

const FILE = '/home/me/.config/threshold/threshold.toml';
const ON = '[security.auto_approval]\nenabled = true\n';
const REVIEWER = '[reviewers.approval]\nkind = "anthropic"\nmodel = "claude-haiku-4-5"\n';

async function problem(toml: string): Promise<{ key: string; message: string } | null> {
  try {
    await parseConfig(toml, FILE);
    return null;
  } catch (err) {
    if (err instanceof ConfigError) return { key: err.key, message: err.message };
    throw err;
  }
}

describe('auto-approval config: start-up errors name the key and the file', () => {
  it.each([
    { name: 'review on the destructive floor', toml: '[rules.effects]\ndestructive = "review"', key: 'rules.effects.destructive' },
    { name: 'review on the secret_read floor', toml: '[rules.effects]\nsecret_read = "review"', key: 'rules.effects.secret_read' },
    { name: 'review on the capability_change floor', toml: '[rules.effects]\ncapability_change = "review"', key: 'rules.effects.capability_change' },
    { name: 'review on the human_input floor', toml: '[rules.effects]\nhuman_input = "review"', key: 'rules.effects.human_input' },
    { name: 'review for ask_user, which always goes to you', toml: '[rules.tools]\nask_user = "review"', key: 'rules.tools.ask_user' },
    { name: 'review for a tool in never_auto_approve', toml: '[security]\nnever_auto_approve = ["write_file"]\n[rules.tools]\nwrite_file = "review"', key: 'rules.tools.write_file' },
    { name: 'review for an effect in never_auto_approve', toml: '[security]\nnever_auto_approve = ["network"]\n[rules.effects]\nnetwork = "review"', key: 'rules.effects.network' },
    { name: 'review for an MCP tool whose whole toolset (mcp.*) is in never_auto_approve, before its server has loaded', toml: '[mcp.servers.github]\ncommand = "gh-mcp"\n[security]\nnever_auto_approve = ["mcp.*"]\n[rules.tools]\n"mcp.github.create_issue" = "review"', key: 'rules.tools.mcp.github.create_issue' },
    { name: 'review for an MCP tool whose server toolset (mcp.github.*) is in never_auto_approve', toml: '[mcp.servers.github]\ncommand = "gh-mcp"\n[security]\nnever_auto_approve = ["mcp.github.*"]\n[rules.tools]\n"mcp.github.create_issue" = "review"', key: 'rules.tools.mcp.github.create_issue' },
    { name: 'a never_auto_approve entry that names nothing', toml: '[security]\nnever_auto_approve = ["wirte_file"]', key: 'security.never_auto_approve[0]' },
    { name: 'enabled with no review rule anywhere', toml: `${ON}${REVIEWER}`, key: 'security.auto_approval.enabled' },
    { name: 'a reviewer named but not declared', toml: `[rules.tools]\nwrite_file = "review"\n${ON}reviewers = ["approval"]\n`, key: 'security.auto_approval.reviewers[0]' },
    { name: 'a reviewer declared but named nowhere', toml: `[rules.tools]\nwrite_file = "review"\n${ON}reviewers = ["approval"]\n${REVIEWER}[reviewers.spare]\nkind = "anthropic"\nmodel = "claude-haiku-4-5"\n`, key: 'reviewers.spare' },
    { name: 'a reviewer declared but named nowhere, even with the feature off', toml: '[reviewers.spare]\nkind = "anthropic"\nmodel = "claude-haiku-4-5"\n', key: 'reviewers.spare' },
    { name: 'a model the Anthropic catalogue does not know', toml: `[rules.tools]\nwrite_file = "review"\n${ON}[reviewers.approval]\nkind = "anthropic"\nmodel = "claude-haiku-4.5"\n`, key: 'reviewers.approval.model' },
    { name: 'a model the OpenAI catalogue does not know', toml: `[rules.tools]\nwrite_file = "review"\n${ON}[reviewers.approval]\nkind = "openai"\nmodel = "gpt-4o-mimi"\n`, key: 'reviewers.approval.model' },
    { name: 'a reviewer named twice', toml: `[rules.tools]\nwrite_file = "review"\n${ON}reviewers = ["approval", "approval"]\n${REVIEWER}`, key: 'security.auto_approval.reviewers' },
    { name: 'a reasoning effort for a server that has none', toml: `[rules.tools]\nwrite_file = "review"\n${ON}[reviewers.approval]\nkind = "openai-compatible"\nmodel = "llama3.2"\nreasoning_effort = "low"\n`, key: 'reviewers.approval.reasoning_effort' },
    { name: 'a model the catalogue does not know, even with the feature off (the Settings page could switch it on)', toml: '[reviewers.approval]\nkind = "anthropic"\nmodel = "claude-haiku-4.5"\n', key: 'reviewers.approval.model' },
    { name: 'a timeout that is zero', toml: '[security.auto_approval]\ntimeout_seconds = 0', key: 'security.auto_approval.timeout_seconds' },
  ])('$name', async ({ toml, key }) => {
    const p = await problem(toml);
    expect(p?.key).toEqual(key);
    expect(p?.message).toMatch(new RegExp(`^Config error in ${FILE.replace(/[./]/g, '\\$&')}: ${key.replace(/[.[\]*]/g, '\\$&')}: \\S`));
  });
});

describe('auto-approval config: what a valid file resolves to', () => {
  it('is off with no keys, and review rules stay plain asks', async () => {
    const c = await parseConfig('[rules.tools]\nwrite_file = "review"', FILE);
    expect({ auto: c.autoApproval, warnings: c.warnings, rules: c.rules.tools }).toEqual({ auto: { enabled: false, maxPerTurn: 5, timeoutMs: 10_000, reviewers: [], neverAutoApprove: [] }, warnings: [], rules: { write_file: 'review' } });
  });

  it('resolves the declared reviewers with the switch off too, so the Settings page can turn them on', async () => {
    const c = await parseConfig(`[rules.tools]\nwrite_file = "review"\n[security.auto_approval]\nenabled = false\n${REVIEWER}`, FILE);
    expect({ enabled: c.autoApproval.enabled, reviewers: c.autoApproval.reviewers.map((r) => `${r.name} ${r.kind} ${r.model}`) }).toEqual({ enabled: false, reviewers: ['approval anthropic claude-haiku-4-5'] });
  });

  it('resolves a quorum in the order named, with the shipped prompt where none is written', async () => {
    const c = await parseConfig(`[rules.effects]\nfile_write = "review"\n${ON}max_per_turn = 3\ntimeout_seconds = 4\nreviewers = ["approval", "second"]\n${REVIEWER}[reviewers.second]\nkind = "openai-compatible"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "llama3.2"\nsystem_prompt = "Be strict."\ntemperature = 0.5\n`, FILE);
    expect(c.autoApproval).toEqual({
      enabled: true,
      maxPerTurn: 3,
      timeoutMs: 4000,
      neverAutoApprove: [],
      reviewers: [
        { name: 'approval', kind: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY', systemPrompt: DEFAULT_REVIEWER_PROMPT, reasoningEffort: null, temperature: 0 },
        { name: 'second', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'llama3.2', apiKeyEnv: null, systemPrompt: 'Be strict.', reasoningEffort: null, temperature: 0.5 },
      ],
    });
    expect(c.warnings).toEqual([]);
  });

  it('accepts any model at an endpoint that is not the provider\'s own (a proxy has no catalogue)', async () => {
    const c = await parseConfig(`[rules.tools]\nwrite_file = "review"\n${ON}[reviewers.approval]\nkind = "anthropic"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "fake-model"\n`, FILE);
    expect(c.autoApproval.reviewers.map((r) => r.model)).toEqual(['fake-model']);
  });

  it('warns when the reviewer uses the agent\'s own model', async () => {
    const c = await parseConfig(`[provider]\nkind = "anthropic"\nmodel = "claude-haiku-4-5"\n[rules.tools]\nwrite_file = "review"\n${ON}${REVIEWER}`, FILE);
    expect(c.warnings).toEqual(['reviewer "approval" uses the agent\'s own model (anthropic claude-haiku-4-5): text that talks the agent into a call can talk its reviewer into approving it; point [reviewers.approval] at another model']);
  });

  it('ships an example config that loads, off, with the default reviewer prompt written out in full', async () => {
    const text = readFileSync(join(import.meta.dirname, '..', '..', 'threshold.example.toml'), 'utf8');
    const c = await parseConfig(text, 'threshold.example.toml');
    expect({ enabled: c.autoApproval.enabled, level: c.level }).toEqual({ enabled: false, level: 'supervised' });
    const enabled = await parseConfig(text.replace('enabled = false', 'enabled = true').replace('# write_file = "review"', 'write_file = "review"'), 'threshold.example.toml');
    expect(enabled.autoApproval.reviewers.map((r) => ({ name: r.name, model: r.model, prompt: r.systemPrompt }))).toEqual([{ name: 'approval', model: 'claude-haiku-4-5', prompt: DEFAULT_REVIEWER_PROMPT }]);
  });
});
