// `serve` refuses to start with a review rule a reviewer could never honour, naming the key and the file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../../test/support/cli';

describe('threshold serve with review on a floor', () => {
  it.each([
    { name: 'the destructive effect', toml: '[rules.effects]\ndestructive = "review"\n', key: 'rules.effects.destructive' },
    { name: 'a tool in never_auto_approve', toml: '[security]\nnever_auto_approve = ["run_command"]\n[rules.tools]\nrun_command = "review"\n', key: 'rules.tools.run_command' },
  ])('exits non-zero naming the key: $name', async ({ toml, key }) => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-review-'));
    const file = join(dir, 'threshold.toml');
    writeFileSync(file, toml);
    const r = await spawnCli(['serve', '--config', file, '--data-dir', join(dir, 'data'), '--no-web', '--no-agent'], { env: { HOME: dir, THRESHOLD_CONFIG_DIR: join(dir, 'none') } });
    expect({ code: r.code, named: r.stderr.includes(`Config error in ${file}: ${key}: "review" is not allowed`) }).toEqual({ code: 1, named: true });
  });
});
