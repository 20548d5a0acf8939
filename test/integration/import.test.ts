// `threshold import` against a running core: the plan's grants are made with provenance "imported from
// FILE: RULE" and source import, its per-tool rules go into the Settings page's layer, both audited; what
// was refused is not applied; --print changes nothing; without a core it says so.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnCli } from '../support/cli';
import { startDaemon, type Daemon } from '../support/daemon';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const root = mkdtempSync(join(tmpdir(), 'threshold-import-'));
const dataDir = join(root, 'data');
const project = join(root, 'project');
const settings = join(project, '.claude', 'settings.json');
let daemon: Daemon;
const env = { THRESHOLD_CONFIG_DIR: join(root, 'no-config') };
const cli = (...args: string[]) => spawnCli(args, { env, cwd: project });

beforeAll(async () => {
  mkdirSync(dataDir, { mode: 0o700 });
  mkdirSync(join(project, '.claude'), { recursive: true });
  writeFileSync(settings, JSON.stringify({ permissions: { allow: ['Bash(npm run test:*)', 'Bash(*)', 'Edit(/docs/**)'], deny: ['WebFetch', 'Bash(curl:*)'] } }));
  daemon = await startDaemon(dataDir, ['--no-agent', '--no-web', '--workspace', project], env);
});
afterAll(async () => {
  if (daemon?.child.exitCode === null) await daemon.kill('SIGTERM');
});

describe('threshold import', () => {
  it('--print shows the plan and changes nothing', async () => {
    const r = await cli('import', 'claude-code', settings, '--print', '--data-dir', dataDir);
    expect({ code: r.code, plan: /allow Bash\(\*\) +→ refused: it would allow every command/.test(r.stdout) }).toEqual({ code: 0, plan: true });
    const grants = JSON.parse((await cli('ctl', '--data-dir', dataDir, '--json', 'grants')).stdout) as unknown[];
    expect(grants).toEqual([]);
  });

  it('applies grants with their provenance and rules into Settings; refused rules stay out', async () => {
    const r = await cli('import', 'claude-code', settings, '--data-dir', dataDir);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const grants = JSON.parse((await cli('ctl', '--data-dir', dataDir, '--json', 'grants')).stdout) as { tool: string; pattern: unknown; source: string; note: string; origin_label: string }[];
    expect(grants.map((g) => ({ tool: g.tool, pattern: g.pattern, source: g.source, note: g.note, origin: g.origin_label })).sort((a, b) => a.tool.localeCompare(b.tool))).toEqual([
      { tool: 'edit_file', pattern: { kind: 'path', glob: `${project}/docs/**` }, source: 'import', note: `imported from ${settings}: Edit(/docs/**)`, origin: 'Imported' },
      { tool: 'run_command', pattern: { kind: 'argv', argv: ['npm', 'run', 'test'], match: 'prefix' }, source: 'import', note: `imported from ${settings}: Bash(npm run test:*)`, origin: 'Imported' },
      { tool: 'write_file', pattern: { kind: 'path', glob: `${project}/docs/**` }, source: 'import', note: `imported from ${settings}: Edit(/docs/**)`, origin: 'Imported' },
    ]);
    // The rule is in force: a web_fetch is denied.
    const verdict = await cli('ctl', '--data-dir', dataDir, '--json', 'request', '--tool', 'web_fetch', '--args', '{"url":"https://example.com/"}');
    expect(JSON.parse(verdict.stdout)).toMatchObject({ decision: 'deny', decided_by: 'rule:tool:web_fetch=deny' });
    // The grant is in force: the command runs unasked.
    const granted = await cli('ctl', '--data-dir', dataDir, '--json', 'request', '--tool', 'run_command', '--args', '{"command":"npm run test -- --watch"}');
    expect(JSON.parse(granted.stdout)).toMatchObject({ decision: 'allow', decided_by: expect.stringMatching(/^grant:gr_/) });
  });

  it('without a running core it says so, and points at --print', async () => {
    const r = await cli('import', 'claude-code', settings, '--data-dir', join(root, 'elsewhere'));
    expect({ code: r.code, said: /Threshold is not running .*--print/.test(r.stderr) }).toEqual({ code: 3, said: true });
  });
});
