// The managed policy on the command line: `serve` refuses a user config that would loosen it (naming
// both files) before it starts anything, and `evaluate` judges under its ceiling.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli';

const root = mkdtempSync(join(tmpdir(), 'threshold-managed-cli-'));
mkdirSync(join(root, 'etc'), { mode: 0o755 });
const managed = join(root, 'etc', 'managed.toml');
writeFileSync(managed, '[autonomy]\nmax_level = "supervised"\n[rules.tools]\nweb_fetch = "deny"\n', { mode: 0o644 });
const userConfig = (name: string, text: string) => {
  const f = join(root, name);
  writeFileSync(f, text);
  return f;
};

describe('the managed policy on the command line', () => {
  it.each([
    { name: 'a level above the managed maximum', text: '[autonomy]\nlevel = "full"\n', key: 'autonomy.level' },
    { name: 'a tool rule looser than a managed deny', text: '[rules.tools]\nweb_fetch = "allow"\n', key: 'rules.tools.web_fetch' },
  ])('serve exits non-zero on $name, naming the key and both files', async ({ text, key }) => {
    const file = userConfig(`${key}.toml`, text);
    const r = await runCli(['serve', '--config', file, '--data-dir', join(root, 'data'), '--no-web'], { env: { THRESHOLD_MANAGED_POLICY: managed } });
    expect({ code: r.code, names: r.stderr.includes(`Config error in ${file}: ${key}:`) && r.stderr.includes(`the managed policy ${managed}`) }).toEqual({ code: 1, names: true });
  });

  it('evaluate --level is capped by the managed maximum', async () => {
    const r = await runCli(['evaluate', '--jsonl', '--level', 'full', '--config', userConfig('plain.toml', '')], {
      stdin: '{"tool":"run_command","args":{"command":"touch a"}}\n{"tool":"web_fetch","args":{"url":"https://example.com"}}\n',
      env: { THRESHOLD_MANAGED_POLICY: managed },
    });
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { decision: string; decidedBy: string });
    expect(lines.map((l) => [l.decision, l.decidedBy])).toEqual([
      ['ask', 'level:supervised'],
      ['deny', 'rule:tool:web_fetch=deny'],
    ]);
  });
});
