import { beforeAll, describe, expect, it } from 'vitest';
import { classRank } from '../../../common/domain';
import { optionTable, scanOptions } from './args';
import { ShellAnalyzer } from './analyze';
import { initShellParser } from './parser';
import { PROGRAM_RULES } from './programs';
import { PROBE_OPTION, checkRuleExamples } from './verify';

beforeAll(async () => {
  await initShellParser();
});

const ctx = { home: '/home/user', workspace: '/home/user/project', appDirs: [] };
const classify = (cmd: string) => ShellAnalyzer.classify(cmd, { ctx });

describe('built-in program rules', () => {
  it('every rule example holds: match stays at the base, notMatch is severer, every judged option has a notMatch, read examples turn write with an unknown option', () => {
    expect(checkRuleExamples()).toEqual([]);
  });
  it('every rule that can escalate (it analyses its arguments or lists judged options) carries notMatch examples', () => {
    const canEscalate = PROGRAM_RULES.filter((r) => r.analyze !== undefined && r.base !== 'destructive');
    const without = canEscalate.filter((r) => r.notMatch.length === 0).map((r) => r.names[0]);
    expect(without).toEqual([]);
  });
  it('every rule whose base is read lists its options or reads them itself', () => {
    const without = PROGRAM_RULES.filter((r) => r.base === 'read' && r.options === undefined && !r.checksOwnOptions).map((r) => r.names[0]);
    expect(without).toEqual([]);
  });
  it.each(PROGRAM_RULES.filter((r) => r.base === 'read' && r.match.length > 0).map((r) => [r.names[0]!, r] as const))(
    'an unknown option after %s makes its first read example at least write',
    (_name, rule) => {
      const example = rule.match.find((m) => rule.names.includes(m.split(' ')[0]!) && classify(m).class === 'read');
      if (!example) return;
      const first = example.split(' ')[0]!;
      if (classify(`${first} ${PROBE_OPTION}`).class === 'read' && /@data/.test(JSON.stringify(rule.options ?? ''))) return;
      expect(classRank(classify(`${first} ${PROBE_OPTION}${example.slice(first.length)}`).class)).toBeGreaterThanOrEqual(classRank('write'));
    },
  );
  it('no program has two rules', () => {
    const names = PROGRAM_RULES.flatMap((r) => r.names);
    expect(names.length).toBe(new Set(names).size);
  });
});

describe('option tables (args.ts)', () => {
  const table = optionTable('-n: -a -i? --lines= --all --color? --split-string= --sort= --size @in-order');
  it.each([
    { argv: ['-n', '5', 'f'], unknown: [], operands: [2] },
    { argv: ['-n5', 'f'], unknown: [], operands: [1] },
    { argv: ['-an5', 'f'], unknown: [], operands: [1] },
    { argv: ['-ai.bak', 'f'], unknown: [], operands: [1] },
    { argv: ['--lines=5', 'f'], unknown: [], operands: [1] },
    { argv: ['--lines', '5', 'f'], unknown: [], operands: [2] },
    { argv: ['--li', '5', 'f'], unknown: [], operands: [2] },
    { argv: ['--sp', 'x'], unknown: [], operands: [] },
    { argv: ['--s', 'x'], unknown: ['--s'], operands: [1] },
    { argv: ['--color', 'f'], unknown: [], operands: [1] },
    { argv: ['--all=x'], unknown: ['--all'], operands: [] },
    { argv: ['-q', 'f'], unknown: ['-q'], operands: [1] },
    { argv: ['-aq5', 'f'], unknown: ['-q'], operands: [1] },
    { argv: ['--frob', 'f'], unknown: ['--frob'], operands: [1] },
    { argv: ['f', '--frob'], unknown: [], operands: [0, 1] },
    { argv: ['--', '--frob'], unknown: [], operands: [1] },
  ])('reads $argv as unknown $unknown and operands $operands', ({ argv, unknown, operands }) => {
    const scan = scanOptions(argv, table);
    expect({ unknown: scan.unknown, operands: scan.operands }).toEqual({ unknown, operands });
  });
  it('lets GNU programs take options after operands unless @in-order', () => {
    expect(scanOptions(['f', '--frob'], optionTable('-a')).unknown).toEqual(['--frob']);
  });
  it('reads a dashless first bundle (tar tvf) and @bundle letters (ps aux)', () => {
    expect(scanOptions(['tvf', 'a.tar'], optionTable('@bundle -t -v -f:')).found.map((f) => [f.name, f.value])).toEqual([['-t', null], ['-v', null], ['-f', 'a.tar']]);
    expect(scanOptions(['auxq'], optionTable('@bundle=aux')).unknown).toEqual(['-q']);
  });
  it('refuses a malformed table', () => {
    expect(() => optionTable('--ok bad')).toThrow(/bad option-table token "bad"/);
  });
});
