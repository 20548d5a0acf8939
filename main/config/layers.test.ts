import { describe, expect, it } from 'vitest';
import { applyChange, fileLayerOf, layerFromRows, layerToRows, looseningProblems, mergeLayers, type AccessLayer } from './layers';
import type { ManagedPolicy } from './managed';

const MANAGED: ManagedPolicy = { file: '/etc/threshold/managed.toml', maxLevel: 'auto-edit', effects: { network: 'deny', install: 'ask' }, tools: { web_fetch: 'ask' }, neverAutoApprove: ['write_file'], reviewerForbidden: true };

/** The level's provenance, and one effect's and one tool's, as a compact picture. */
function picture(file: AccessLayer, ui: AccessLayer, managed: ManagedPolicy | null) {
  const a = mergeLayers(file, ui, managed);
  const eff = (e: string) => a.provenance.effects.find((p) => p.key === `rules.effects.${e}`)!;
  const tool = (t: string) => a.provenance.tools.find((p) => p.key === `rules.tools.${t}`)!;
  return {
    level: [a.level, a.provenance.level.source, a.provenance.level.capped],
    network: [eff('network').value, eff('network').source],
    web_fetch: [tool('web_fetch').value, tool('web_fetch').source],
    ttl: [a.approvalTtlSeconds, a.provenance.approvalTtlSeconds.source],
    reviewer: [a.autoApprovalEnabled, a.provenance.autoApprovalEnabled.source],
  };
}

describe('the layers merge default < file < this page, with the managed policy as a ceiling', () => {
  it.each([
    { name: 'nothing set: the defaults', file: {}, ui: {}, managed: null, expected: { level: ['supervised', 'default', false], network: [null, 'default'], web_fetch: [null, 'default'], ttl: [600, 'default'], reviewer: [false, 'default'] } },
    { name: 'the file sets values', file: { level: 'auto-edit', effects: { network: 'ask' }, approvalTtlSeconds: 0 } as AccessLayer, ui: {}, managed: null, expected: { level: ['auto-edit', 'file', false], network: ['ask', 'file'], web_fetch: [null, 'default'], ttl: [0, 'file'], reviewer: [false, 'default'] } },
    { name: 'the page wins over the file', file: { level: 'auto-edit', tools: { web_fetch: 'ask' } } as AccessLayer, ui: { level: 'read-only', tools: { web_fetch: 'deny' }, autoApprovalEnabled: true } as AccessLayer, managed: null, expected: { level: ['read-only', 'ui', false], network: [null, 'default'], web_fetch: ['deny', 'ui'], ttl: [600, 'default'], reviewer: [true, 'ui'] } },
    { name: 'the managed ceiling lowers a level above it and fills unset rules', file: {}, ui: { level: 'full', autoApprovalEnabled: true } as AccessLayer, managed: MANAGED, expected: { level: ['auto-edit', 'managed', true], network: ['deny', 'managed'], web_fetch: ['ask', 'managed'], ttl: [600, 'default'], reviewer: [false, 'managed'] } },
    { name: 'a stricter choice below the ceiling keeps its own source', file: { level: 'supervised' } as AccessLayer, ui: { tools: { web_fetch: 'deny' } } as AccessLayer, managed: MANAGED, expected: { level: ['supervised', 'file', false], network: ['deny', 'managed'], web_fetch: ['deny', 'ui'], ttl: [600, 'default'], reviewer: [false, 'managed'] } },
    { name: 'a looser stored value (saved before the policy came) is overridden, not obeyed', file: {}, ui: { effects: { network: 'auto' }, tools: { web_fetch: 'allow' } } as AccessLayer, managed: MANAGED, expected: { level: ['supervised', 'default', false], network: ['deny', 'managed'], web_fetch: ['ask', 'managed'], ttl: [600, 'default'], reviewer: [false, 'managed'] } },
  ])('$name', ({ file, ui, managed, expected }) => {
    expect(picture(file, ui, managed)).toEqual(expected);
  });

  it('gives the evaluator only the rules that are set, the strictest layer applied', () => {
    expect(mergeLayers({ effects: { file_write: 'auto' } }, { tools: { run_command: 'ask' } }, MANAGED).rules).toEqual({
      effects: { file_write: 'auto', network: 'deny', install: 'ask' },
      tools: { run_command: 'ask', web_fetch: 'ask' },
      managed: { effects: ['network', 'install'], tools: ['web_fetch'] },
    });
  });

  it('adds the managed never_auto_approve entries to the user’s, each with its source', () => {
    expect(mergeLayers({ neverAutoApprove: ['run_command', 'write_file'] }, {}, MANAGED).provenance.neverAutoApprove).toEqual([
      { entry: 'write_file', source: 'managed' },
      { entry: 'run_command', source: 'file' },
    ]);
  });
});

describe('what would loosen a managed policy', () => {
  it.each([
    { name: 'a level above the maximum', layer: { level: 'full' } as AccessLayer, keys: ['autonomy.level'] },
    { name: 'the maximum itself is fine', layer: { level: 'auto-edit' } as AccessLayer, keys: [] },
    { name: 'an auto where the policy asks', layer: { effects: { install: 'auto' } } as AccessLayer, keys: ['rules.effects.install'] },
    { name: 'an ask where the policy denies', layer: { effects: { network: 'ask' } } as AccessLayer, keys: ['rules.effects.network'] },
    { name: 'a deny where the policy asks (stricter)', layer: { effects: { install: 'deny' } } as AccessLayer, keys: [] },
    { name: 'a tool allow where the policy asks', layer: { tools: { web_fetch: 'allow' } } as AccessLayer, keys: ['rules.tools.web_fetch'] },
    { name: 'the reviewer on where it is forbidden', layer: { autoApprovalEnabled: true } as AccessLayer, keys: ['security.auto_approval.enabled'] },
    { name: 'a review rule for a tool the managed never_auto_approve lists', layer: { tools: { write_file: 'review' } } as AccessLayer, keys: ['rules.tools.write_file'] },
    { name: 'a review rule for an effect only a listed tool has is allowed (never_auto_approve names the tool)', layer: { effects: { file_write: 'review' } } as AccessLayer, keys: [] },
    { name: 'the reviewer off', layer: { autoApprovalEnabled: false } as AccessLayer, keys: [] },
  ])('$name', ({ layer, keys }) => {
    expect(looseningProblems(layer, MANAGED).map(([k]) => k)).toEqual(keys);
  });
});

describe("the page's layer", () => {
  it('sets and clears values: null brings back the file’s value', () => {
    const a = applyChange({}, { level: 'full', effects: { network: 'ask' }, tools: { run_command: 'allow' }, approval_ttl_seconds: 0 });
    expect(a).toEqual({ level: 'full', effects: { network: 'ask' }, tools: { run_command: 'allow' }, approvalTtlSeconds: 0 });
    expect(applyChange(a, { level: null, effects: { network: null }, approval_ttl_seconds: null })).toEqual({ tools: { run_command: 'allow' } });
  });

  it('round-trips through the stored rows', () => {
    const layer: AccessLayer = { level: 'read-only', effects: { network: 'deny' }, tools: { 'mcp.fs.read': 'ask' }, approvalTtlSeconds: 0, autoApprovalEnabled: false };
    expect(layerFromRows(layerToRows(layer))).toEqual(layer);
  });

  it('reads which keys a config file itself sets', () => {
    expect(fileLayerOf({ autonomy: { level: 'full' }, rules: { effects: {}, tools: { web_fetch: 'ask' } }, approvals: { ttl_seconds: 30 }, security: { auto_approval: { enabled: false }, never_auto_approve: ['x'] } })).toEqual({
      level: 'full',
      tools: { web_fetch: 'ask' },
      approvalTtlSeconds: 30,
      autoApprovalEnabled: false,
      neverAutoApprove: ['x'],
    });
  });
});
