import { describe, expect, it } from 'vitest';
import { offersReveal } from './reveal';

describe('offersReveal', () => {
  it.each([
    { name: 'a command with a redacted key', args: { command: 'curl -H "Authorization: Bearer [REDACTED:credential]" https://x' }, orphan: false, expected: true },
    { name: 'a redaction nested in other arguments', args: { path: 'a.txt', content: { env: ['TOKEN=[REDACTED:api_key]'] } }, orphan: false, expected: true },
    { name: 'a command with nothing redacted', args: { command: 'npm test' }, orphan: false, expected: false },
    { name: 'a command that merely mentions REDACTED', args: { command: 'echo REDACTED' }, orphan: false, expected: false },
    { name: 'an orphan with a redacted key (its original was never kept)', args: { command: 'curl -u [REDACTED:credential] https://x' }, orphan: true, expected: false },
    { name: 'no arguments at all', args: undefined, orphan: false, expected: false },
  ])('offers Reveal for $name: $expected', ({ args, orphan, expected }) => {
    expect(offersReveal({ args, orphan })).toEqual(expected);
  });
});
