import { describe, expect, it } from 'vitest';
import { draftIsEmpty, draftedRule, mergeDraft, sourceText, timeoutText, type AccessDraft } from './access';

describe('Agent access words', () => {
  it.each([
    { source: 'default' as const, expected: 'built-in default' },
    { source: 'file' as const, expected: 'config file (/home/u/.config/threshold/threshold.toml)' },
    { source: 'ui' as const, expected: 'this page' },
    { source: 'managed' as const, expected: 'managed policy (/etc/threshold/managed.toml)' },
  ])('names the $source layer as "$expected"', ({ source, expected }) => {
    expect(sourceText(source, { config: '/home/u/.config/threshold/threshold.toml', managed: '/etc/threshold/managed.toml' })).toEqual(expected);
  });

  it.each([
    { seconds: 0, expected: 'waits indefinitely' },
    { seconds: 600, expected: '10 min' },
    { seconds: 7200, expected: '2 h' },
    { seconds: 45, expected: '45 s' },
  ])('says a timeout of $seconds s as "$expected"', ({ seconds, expected }) => {
    expect(timeoutText(seconds)).toEqual(expected);
  });
});

describe('the draft', () => {
  it('merges edits, rule by rule, and a later edit of the same rule wins', () => {
    const d = mergeDraft(mergeDraft({ level: 'full', effects: { network: 'ask' } }, { effects: { install: 'deny' } }), { effects: { network: null }, tools: { run_command: 'ask' } });
    expect(d).toEqual({ level: 'full', effects: { network: null, install: 'deny' }, tools: { run_command: 'ask' } });
  });

  it.each<{ name: string; draft: AccessDraft; expected: boolean }>([
    { name: 'nothing', draft: {}, expected: true },
    { name: 'empty rule maps', draft: { effects: {}, tools: {} }, expected: true },
    { name: 'a level', draft: { level: 'full' as const }, expected: false },
    { name: 'a cleared rule', draft: { tools: { run_command: null } }, expected: false },
  ])('is empty with $name: $expected', ({ draft, expected }) => {
    expect(draftIsEmpty(draft)).toEqual(expected);
  });

  it('tells unchanged, cleared and set rules apart', () => {
    const d = { tools: { run_command: null, web_fetch: 'deny' as const } };
    expect([draftedRule(d, 'tools', 'read_file'), draftedRule(d, 'tools', 'run_command'), draftedRule(d, 'tools', 'web_fetch')]).toEqual([undefined, null, 'deny']);
  });
});
