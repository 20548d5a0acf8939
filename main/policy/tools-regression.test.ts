// Each line: a tool call that broke describeCall once (found by the fuzzers), and what it gets now.
import { describe, expect, it } from 'vitest';
import { TEST_PATHS } from '../../test/support/policy';
import { describeCall } from './tools';

const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('describeCall regressions', () => {
  it.each([
    { name: 'a tool named __proto__ is unknown (it threw: the prototype has no safeParse)', tool: '__proto__', args: { command: 'ls' }, expected: { ok: false, code: 'unknown_tool', message: 'There is no tool named "__proto__".' } },
    { name: 'a tool named constructor is unknown', tool: 'constructor', args: {}, expected: { ok: false, code: 'unknown_tool', message: 'There is no tool named "constructor".' } },
    { name: 'a tool named toString is unknown', tool: 'toString', args: {}, expected: { ok: false, code: 'unknown_tool', message: 'There is no tool named "toString".' } },
    { name: 'arguments nested 65 deep are refused before any schema walks them', tool: 'run_command', args: { command: 'ls', x: nested(64) }, expected: { ok: false, code: 'invalid_args', message: 'Invalid arguments for run_command: they nest deeper than 64 levels, more than Threshold accepts.' } },
    { name: 'MCP arguments nested 100,000 deep are refused', tool: 'mcp.srv.tool', args: { x: nested(100_000) }, expected: { ok: false, code: 'invalid_args', message: 'Invalid arguments for mcp.srv.tool: they nest deeper than 64 levels, more than Threshold accepts.' } },
  ])('$name', ({ tool, args, expected }) => {
    expect(describeCall(tool, args, { ctx: TEST_PATHS })).toEqual(expected);
  });

  it('arguments nested exactly 64 deep are still described', () => {
    expect(describeCall('mcp.srv.tool', { x: nested(63) }, { ctx: TEST_PATHS }).ok).toEqual(true);
  });
});
