import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from './parser';
import { PROGRAM_RULES } from './programs';
import { checkRuleExamples } from './verify';

beforeAll(async () => {
  await initShellParser();
});

describe('built-in program rules', () => {
  it('every rule example holds (match stays at the base class, notMatch is judged more severely)', () => {
    expect(checkRuleExamples()).toEqual([]);
  });
  it('every rule that can escalate carries at least one notMatch example, or says what it does', () => {
    for (const rule of PROGRAM_RULES) expect(rule.what, rule.names[0]).toMatch(/\S/);
  });
  it('no program has two rules', () => {
    const names = PROGRAM_RULES.flatMap((r) => r.names);
    expect(names.length).toBe(new Set(names).size);
  });
});
