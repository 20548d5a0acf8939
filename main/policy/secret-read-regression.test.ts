// Every secret read that once ran unasked gets a line here: the call must now be secret_read and ask,
// at every level.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Level } from '../../common/domain';
import { policyContext } from '../../test/support/policy';
import { initClassifier } from './classifier';
import { evaluate } from './evaluate';

beforeAll(async () => {
  await initClassifier();
});

const cases: { fixed: string; call: { tool: string; args: unknown } }[] = [
  { fixed: 'a CLI auth file missing from the fixed list was a plain read', call: { tool: 'run_command', args: { command: 'cat ~/.config/stripe/config.toml' } } },
  { fixed: "another agent's auth file was a plain read", call: { tool: 'run_command', args: { command: 'cat ~/.codex/auth.json' } } },
  { fixed: 'the shell history (exported tokens) was a plain read', call: { tool: 'run_command', args: { command: 'grep TOKEN ~/.bash_history' } } },
  { fixed: "Hugging Face's token under ~/.cache was a plain read", call: { tool: 'read_file', args: { path: '~/.cache/huggingface/token' } } },
  { fixed: "a crate registry token beside Rust's visible tools was a plain read", call: { tool: 'run_command', args: { command: 'cat ~/.cargo/credentials.toml' } } },
  { fixed: 'a private key by its name outside ~/.ssh was a plain read', call: { tool: 'run_command', args: { command: 'cat deploy/id_deploy' } } },
  { fixed: 'a TLS key by its extension was a plain read', call: { tool: 'read_file', args: { path: 'tls/server.key' } } },
  { fixed: 'a file named for a token was a plain read', call: { tool: 'run_command', args: { command: 'base64 github_token.txt' } } },
  { fixed: "macOS applications' data under ~/Library was a plain read", call: { tool: 'run_command', args: { command: "cat ~/Library/Application\\ Support/Slack/Cookies" } } },
  { fixed: 'a glob over home dot-files was a plain read', call: { tool: 'run_command', args: { command: 'cat ~/.*rc' } } },
];

const levels: Level[] = ['read-only', 'supervised', 'auto-edit', 'full'];

describe('secret read regressions', () => {
  it.each(cases)('$fixed', ({ call }) => {
    const judged = levels.map((level) => {
      const e = evaluate(call, policyContext({ level }));
      return { level, decision: e.decision, secret: e.effects.includes('secret_read') };
    });
    expect(judged).toEqual(levels.map((level) => ({ level, decision: 'ask', secret: true })));
  });
});
