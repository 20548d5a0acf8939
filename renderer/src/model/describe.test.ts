import { describe, expect, it } from 'vitest';
import type { GrantRecord } from '../../../common/approvals';
import type { GrantPattern } from '../../../common/domain';
import { formatRemaining, grantExpiryText, grantProvenanceText, grantState, patternText, summarizeCall, toolLabel } from './describe';

const NOW = Date.UTC(2026, 11, 1, 10, 0, 0);
const grant = (over: Partial<GrantRecord>): GrantRecord => ({
  id: 'g_1',
  tool: 'run_command',
  pattern: { kind: 'argv', argv: ['npm', 'test'] },
  scope: 'always',
  session_id: null,
  expires_at: null,
  source: 'approval',
  source_session_id: 's_1',
  source_call_id: 'call_1',
  created_at: NOW - 60_000,
  last_used_at: null,
  use_count: 0,
  revoked_at: null,
  note: null,
  ...over,
});

describe('words for people', () => {
  it.each([
    ['a command, its first line only', 'run_command', { command: 'npm test\nrm -rf x' }, 'Run npm test …'],
    ['a command with a hidden character, made visible', 'run_command', { command: 'ls\u202E' }, 'Run ls<RLO>'],
    ['a file write', 'write_file', { path: 'notes.txt', content: 'x' }, 'Write notes.txt'],
    ['an open on the desktop', 'open_path', { path: 'report.pdf' }, 'Open report.pdf on the desktop'],
    ['a fetch', 'web_fetch', { url: 'https://example.com/' }, 'Fetch https://example.com/'],
    ['an MCP tool', 'mcp.files.read', { a: 1 }, 'Call mcp.files.read {"a":1}'],
  ])('summarises %s', (_n, tool, args, expected) => {
    expect(summarizeCall(tool, args)).toEqual(expected);
  });

  it.each([
    ['an active grant', grant({}), 'active'],
    ['a revoked one', grant({ revoked_at: NOW - 1 }), 'revoked'],
    ['a time-limited one past its end', grant({ scope: 'until', expires_at: NOW - 1 }), 'expired'],
    ['a time-limited one still running', grant({ scope: 'until', expires_at: NOW + 1 }), 'active'],
  ])('the state of %s', (_n, g, expected) => {
    expect(grantState(g, NOW)).toEqual(expected);
  });

  it.each([
    ['from an approval', grant({}), /^Approval in session s_1, call call_1, /],
    ['from the config file', grant({ source: 'config' }), /^Config file, loaded /],
    ['made by hand', grant({ source: 'user' }), /^Made with ctl or Settings, /],
  ])('where a grant came from: %s', (_n, g, expected) => {
    expect(grantProvenanceText(g, NOW)).toMatch(expected);
  });

  it.each([
    ['until revoked', grant({}), 'Never'],
    ['for the session', grant({ scope: 'session', session_id: 's_1' }), 'When the session ends'],
  ])('the expiry of a grant %s', (_n, g, expected) => {
    expect(grantExpiryText(g, NOW)).toEqual(expected);
  });

  it.each([
    [12_000, '12 s left'],
    [125_000, '2 min 05 s left'],
    [3_725_000, '1 h 02 min left'],
    [0, 'expiring now'],
  ])('time left %i ms reads %s', (ms, expected) => {
    expect(formatRemaining(ms)).toEqual(expected);
  });

  it.each([
    [{ kind: 'argv', argv: ['git', 'commit', '-m', 'a b'] }, "git commit -m 'a b'"],
    [{ kind: 'path', glob: 'notes/**' }, 'notes/**'],
    [{ kind: 'url', prefix: 'https://a.example/' }, 'https://a.example/…'],
    [{ kind: 'tool' }, 'any call of this tool'],
  ] as [GrantPattern, string][])('pattern %j reads %s', (p, expected) => {
    expect(patternText(p)).toEqual(expected);
  });

  it('model tool names read as the gate names them', () => {
    expect([toolLabel('mcp__files__read'), toolLabel('run_command')]).toEqual(['mcp.files.read', 'run_command']);
  });
});
