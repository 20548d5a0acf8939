// Hostile input (issue 10): nesting that would overflow a recursive walk, and text too long to analyse,
// end in a classification that asks, never in an exception.
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand, initClassifier } from './index';
import { MAX_COMMAND_LENGTH, MAX_TREE_DEPTH } from './analyze';

const ctx = { home: '/home/user', workspace: '/home/user/project', appDirs: [] };

beforeAll(async () => {
  await initClassifier();
});

const nest = (open: string, inner: string, close: string, n: number) => open.repeat(n) + inner + close.repeat(n);

describe('classifier limits', () => {
  it.each([
    { what: '3,000 nested $(', cmd: 'echo ' + nest('$(', 'id', ')', 3000) },
    { what: '3,000 nested backticks inside $(', cmd: 'echo ' + nest('$(echo ', 'x', ')', 3000) },
    { what: '3,000 nested subshells', cmd: nest('(', 'ls', ')', 3000) },
    { what: '3,000 nested braces', cmd: nest('{ ', 'ls; ', '}; ', 3000) },
    { what: '2,000 nested ifs', cmd: nest('if true; then ', 'ls', '; fi', 2000) },
    { what: '3,000 nested ${x:-', cmd: 'echo ' + nest('${x:-', 'y', '}', 3000) },
    { what: '3,000 nested arithmetic parentheses', cmd: 'echo $((' + nest('(', '1', ')', 3000) + '))' },
  ])('$what asks: write, flagged, reason "too deeply nested to analyse"', ({ cmd }) => {
    const c = classifyCommand(cmd, { ctx });
    expect({ class: c.class, parseError: c.flags.includes('parse_error'), deep: c.reasons.some((r) => r.startsWith('too deeply nested to analyse')) }).toEqual({
      class: 'write',
      parseError: true,
      deep: true,
    });
  });

  it(`nesting just under the limit (${MAX_TREE_DEPTH} levels) is still analysed`, () => {
    const c = classifyCommand('echo ' + nest('$(', 'rm -rf ~', ')', 40), { ctx });
    expect({ class: c.class, hardline: c.hardline }).toEqual({ class: 'destructive', hardline: true });
  });

  it('a long flat chain (2,000 commands joined by &&) is not "deep"', () => {
    const c = classifyCommand(Array(2000).fill('ls').join(' && '), { ctx });
    expect({ class: c.class, segments: c.segments.length }).toEqual({ class: 'read', segments: 2000 });
  });

  it.each([
    { what: 'one character over the limit', length: MAX_COMMAND_LENGTH + 1 },
    { what: '10 MB of words', length: 10 * 1024 * 1024 },
  ])('$what asks with "too long to analyse"', ({ length }) => {
    const cmd = 'echo ' + 'a '.repeat(Math.ceil(length / 2)).slice(0, length - 5);
    const c = classifyCommand(cmd, { ctx });
    expect({ class: c.class, flagged: c.flags.includes('parse_error'), long: c.reasons.some((r) => r.startsWith('too long to analyse')), effects: c.effects.includes('network') }).toEqual({
      class: 'write',
      flagged: true,
      long: true,
      effects: true,
    });
  });

  it('a command at the limit is analysed', () => {
    // One long word: the many-words case at this size is measured in test/bench/classify.bench.ts (time and peak memory).
    const cmd = 'echo ' + 'a'.repeat(MAX_COMMAND_LENGTH - 5);
    expect(classifyCommand(cmd, { ctx }).class).toBe('read');
  });
});
