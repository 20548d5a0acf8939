import { describe, expect, it } from 'vitest';
import { offersReveal } from './reveal';

describe('offersReveal', () => {
  it.each([
    { name: 'a command with a redacted key', tool: 'run_command', args: { command: 'curl -H "Authorization: Bearer [REDACTED:credential]" https://x' }, expected: true },
    { name: 'a redaction nested in other arguments', tool: 'mcp_call', args: { path: 'a.txt', content: { env: ['TOKEN=[REDACTED:api_key]'] } }, expected: true },
    { name: 'a command with nothing redacted', tool: 'run_command', args: { command: 'npm test' }, expected: false },
    { name: 'a command that merely mentions REDACTED', tool: 'run_command', args: { command: 'echo REDACTED' }, expected: false },
    { name: 'an orphan with a redacted key (its original was never kept)', tool: 'run_command', args: { command: 'curl -u [REDACTED:credential] https://x' }, orphan: true, expected: false },
    { name: 'a file write shown as a diff (the card shows the diff, not the arguments)', tool: 'write_file', args: { path: 'a.env', content: 'KEY=[REDACTED:api_key]' }, preview: '+KEY=[REDACTED:api_key]', expected: false },
    { name: 'a file write without a diff (the card shows the arguments)', tool: 'write_file', args: { path: 'a.env', content: 'KEY=[REDACTED:api_key]' }, expected: true },
    { name: 'no arguments at all', tool: 'run_command', args: undefined, expected: false },
  ])('offers Reveal for $name: $expected', ({ tool, args, orphan, preview, expected }) => {
    expect(offersReveal({ tool, args, orphan: orphan ?? false, preview: preview ?? null })).toEqual(expected);
  });
});
