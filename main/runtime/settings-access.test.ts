// Settings → Agent access through the operations: the page's layer changes the next call, is validated
// like the config file, never loosens a managed policy, never rewrites the file; the preview replays.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/load';
import type { ManagedPolicy } from '../config/managed';
import { shellCall, testCore } from '../../test/support/core';
import type { AccessChange } from '../config/layers';
import { createHandlers } from './handlers';

const MANAGED: ManagedPolicy = { file: '/etc/threshold/managed.toml', maxLevel: 'auto-edit', effects: { network: 'deny' }, tools: {}, neverAutoApprove: [], reviewerForbidden: true };

async function setup(toml = '', managed: ManagedPolicy | null = null) {
  const config = { ...(await parseConfig(toml, '/home/u/.config/threshold/threshold.toml')), managed };
  const core = await testCore({ config });
  const h = createHandlers({ version: 't', core, surface: 'web' });
  return { core, h };
}

/** Reviews a call in an unattended turn: an ask is refused at once, so nothing waits. */
async function decided(core: Awaited<ReturnType<typeof testCore>>, command: string) {
  const v = await core.calls.review(shellCall(command, { turnKind: 'unattended' }));
  return { decision: v.evaluation.decision, by: v.evaluation.decidedBy };
}

describe('settings.update', () => {
  it('a level chosen on the page decides the next call', async () => {
    const { core, h } = await setup();
    expect(await decided(core, 'touch a')).toEqual({ decision: 'ask', by: 'level:supervised' });
    const r = await h['settings.update']({ changes: { level: 'auto-edit' } });
    expect(r.ok && r.value.access.level).toMatchObject({ value: 'auto-edit', source: 'ui', layers: { default: 'supervised', file: null, ui: 'auto-edit', managed: null } });
    expect(await decided(core, 'touch a')).toEqual({ decision: 'allow', by: 'level:auto-edit' });
  });

  it('a rule chosen on the page decides the next call, and clearing it brings back the file’s', async () => {
    const { core, h } = await setup('[rules.tools]\nrun_command = "ask"\n');
    await h['settings.update']({ changes: { level: 'full', tools: { run_command: 'deny' } } });
    expect(await decided(core, 'ls')).toEqual({ decision: 'deny', by: 'rule:tool:run_command=deny' });
    const r = await h['settings.update']({ changes: { tools: { run_command: null } } });
    expect(r.ok && r.value.access.tools.find((t) => t.key === 'rules.tools.run_command')).toMatchObject({ value: 'ask', source: 'file' });
    expect(await decided(core, 'ls')).toEqual({ decision: 'ask', by: 'rule:tool:run_command=ask' });
  });

  it('the approval timeout chosen on the page applies to the next card; 0 waits indefinitely', async () => {
    const { core, h } = await setup();
    await h['settings.update']({ changes: { approval_ttl_seconds: 0 } });
    const review = core.calls.review(shellCall('touch a'));
    for (let i = 0; i < 100 && core.gate.listPending().length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    const expires = core.gate.listPending()[0]?.expires_at;
    core.gate.dispose();
    await review;
    expect(expires).toEqual(null);
  });

  it.each<{ name: string; changes: AccessChange; error: unknown }>([
    { name: 'auto on a floor effect (the config file’s own check)', changes: { effects: { destructive: 'auto' as const } }, error: { code: 'invalid_setting', message: 'rules.effects.destructive: "auto" would do nothing: destructive is a floor that always needs a human decision.' } },
    { name: 'a rule for a tool that does not exist', changes: { tools: { rm_rf: 'allow' as const } }, error: { code: 'invalid_setting', message: 'rules.tools.rm_rf: there is no tool named "rm_rf".' } },
    { name: 'allow for questions', changes: { tools: { ask_user: 'allow' as const } }, error: { code: 'invalid_setting', message: 'rules.tools.ask_user: "allow" would do nothing: questions always go to you.' } },
  ])('refuses $name, and nothing changes', async ({ changes, error }) => {
    const { core, h } = await setup();
    expect(await h['settings.update']({ changes })).toEqual({ ok: false, error });
    expect(core.uiLayer()).toEqual({});
  });

  it.each([
    { name: 'a level above the managed maximum', changes: { level: 'full' as const }, message: 'autonomy.level: "full" is above the highest level the managed policy /etc/threshold/managed.toml allows ("auto-edit").' },
    { name: 'an effect looser than a managed deny', changes: { effects: { network: 'auto' as const } }, message: 'rules.effects.network: "auto" would loosen the managed policy /etc/threshold/managed.toml, which sets network = "deny".' },
    { name: 'the reviewer switched on where the managed policy forbids it', changes: { auto_approval_enabled: true }, message: 'security.auto_approval.enabled: true is not allowed: the managed policy /etc/threshold/managed.toml turns the reviewer off.' },
  ])('refuses $name', async ({ changes, message }) => {
    const { core, h } = await setup('', MANAGED);
    expect(await h['settings.update']({ changes })).toEqual({ ok: false, error: { code: 'managed_policy', message } });
    expect(core.uiLayer()).toEqual({});
  });

  it('settings.set_level cannot pass the managed maximum either (the older operation, same layer)', async () => {
    const { h } = await setup('', MANAGED);
    expect(await h['settings.set_level']({ level: 'full' })).toMatchObject({ ok: false, error: { code: 'managed_policy' } });
    expect(await h['settings.set_level']({ level: 'auto-edit' })).toEqual({ ok: true, value: { level: 'auto-edit' } });
  });

  it.each([
    { name: 'a managed rule', file: '', expected: 'Denied: the managed policy’s rule network = "deny" covers this call, which can reach network (curl -s https://example.com).' },
    { name: 'the user’s own (stricter) rule', file: '[rules.effects]\nnetwork = "deny"\n', expected: 'Denied: your rule network = "deny" covers this call, which can reach network (curl -s https://example.com).' },
  ])('a card names whose rule decided: $name', async ({ file, expected }) => {
    const { core } = await setup(file, MANAGED);
    const v = await core.calls.review(shellCall('curl -s https://example.com', { turnKind: 'unattended' }));
    expect(v.evaluation.explanation).toEqual(expected);
  });

  it('shows the managed policy on settings.get: where each rule came from', async () => {
    const { h } = await setup('[rules.effects]\nfile_write = "ask"\n', MANAGED);
    const r = await h['settings.get'](undefined);
    const access = r.ok ? r.value.access : null;
    expect({
      managed: access?.managed,
      network: access?.effects.find((e) => e.key === 'rules.effects.network'),
      file_write: access?.effects.find((e) => e.key === 'rules.effects.file_write')?.source,
      reviewer: access?.auto_approval.forbidden_by,
    }).toEqual({
      managed: { file: '/etc/threshold/managed.toml', max_level: 'auto-edit' },
      network: { key: 'rules.effects.network', value: 'deny', source: 'managed', layers: { default: null, file: null, ui: null, managed: 'deny' }, capped: false },
      file_write: 'file',
      reviewer: '/etc/threshold/managed.toml',
    });
  });

  it('never rewrites the config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-layer-'));
    const file = join(dir, 'threshold.toml');
    const text = '# mine\n[autonomy]\nlevel = "supervised"\n';
    writeFileSync(file, text);
    const core = await testCore({ config: await parseConfig(text, file) });
    const h = createHandlers({ version: 't', core, surface: 'web' });
    await h['settings.update']({ changes: { level: 'full', effects: { network: 'ask' }, approval_ttl_seconds: 30 } });
    expect(readFileSync(file, 'utf8')).toEqual(text);
  });
});

describe('policy.preview', () => {
  it('replays the last calls under the proposed change through the evaluator, saying what changes', async () => {
    const { core, h } = await setup();
    await decided(core, 'ls');
    await decided(core, 'touch notes.txt');
    await decided(core, 'curl -s https://example.com');
    const r = await h['policy.preview']({ changes: { level: 'auto-edit', effects: { network: 'deny' }, tools: {} }, limit: 10 });
    const rows = r.ok ? r.value.calls.map((c) => [c.text, c.current.decision, c.proposed.decision, c.change]) : r;
    expect(rows).toEqual([
      ['curl -s https://example.com', 'ask', 'deny', 'now_denied'],
      ['touch notes.txt', 'ask', 'allow', 'now_allowed'],
      ['ls', 'allow', 'allow', null],
    ]);
    expect(r.ok && { replayed: r.value.replayed, counts: r.value.counts, problem: r.value.problem }).toEqual({ replayed: 3, counts: { allow: 2, ask: 0, deny: 1, changed: 2 }, problem: null });
  });

  it('shows calls that would now be asked, and changes nothing', async () => {
    const { core, h } = await setup();
    await decided(core, 'ls');
    const r = await h['policy.preview']({ changes: { tools: { run_command: 'ask' } } });
    expect(r.ok && r.value.calls.map((c) => [c.text, c.change, c.proposed.decided_by])).toEqual([['ls', 'now_asked', 'rule:tool:run_command=ask']]);
    expect({ layer: core.uiLayer(), now: await decided(core, 'ls') }).toEqual({ layer: {}, now: { decision: 'allow', by: 'level:supervised' } });
  });

  it('says when the proposed change would be refused on saving, and replays it under the managed ceiling', async () => {
    const { core, h } = await setup('', MANAGED);
    await decided(core, 'touch a');
    const r = await h['policy.preview']({ changes: { level: 'full' } });
    expect(r.ok && { problem: r.value.problem, proposed: r.value.calls[0]?.proposed.decided_by }).toEqual({
      problem: 'autonomy.level: "full" is above the highest level the managed policy /etc/threshold/managed.toml allows ("auto-edit").',
      proposed: 'level:auto-edit',
    });
  });
});
