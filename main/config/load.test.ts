import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile, parseConfig } from './load';
import { MAX_CONFIG_BYTES } from './read-file';

const FILE = '/etc/threshold/threshold.toml';

async function problem(toml: string): Promise<{ key: string; problem: string } | null> {
  try {
    await parseConfig(toml, FILE);
    return null;
  } catch (err) {
    if (err instanceof ConfigError) return { key: err.key, problem: err.problem };
    throw err;
  }
}

describe('config: invalid input is a startup error naming the key', () => {
  it.each([
    { name: 'a file that is not TOML', toml: 'level = ', key: '' },
    { name: 'an unknown top-level key', toml: 'colour = "blue"', key: 'colour' },
    { name: 'an unknown key inside a section', toml: '[autonomy]\nlevl = "full"', key: 'autonomy.levl' },
    { name: 'an unknown level', toml: '[autonomy]\nlevel = "yolo"', key: 'autonomy.level' },
    { name: 'an unknown effect category', toml: '[rules.effects]\nnetwrk = "ask"', key: 'rules.effects.netwrk' },
    { name: 'an invalid effect rule', toml: '[rules.effects]\nnetwork = "allow"', key: 'rules.effects.network' },
    { name: 'an invalid tool rule', toml: '[rules.tools]\nrun_command = "auto"', key: 'rules.tools.run_command' },
    { name: 'a rule for a tool that does not exist', toml: '[rules.tools]\nrm_rf = "allow"', key: 'rules.tools.rm_rf' },
    { name: 'a rule for an MCP server that is not configured', toml: '[rules.tools]\n"mcp.github.create_issue" = "deny"', key: 'rules.tools.mcp.github.create_issue' },
    { name: 'auto for a floor effect, which would do nothing', toml: '[rules.effects]\nsecret_read = "auto"', key: 'rules.effects.secret_read' },
    { name: 'allow for ask_user, which would do nothing', toml: '[rules.tools]\nask_user = "allow"', key: 'rules.tools.ask_user' },
    { name: 'a negative TTL', toml: '[approvals]\nttl_seconds = -1', key: 'approvals.ttl_seconds' },
    { name: 'a TTL that is not a whole number', toml: '[approvals]\nttl_seconds = 1.5', key: 'approvals.ttl_seconds' },
    { name: 'a grant for an unknown tool', toml: '[[grants]]\ntool = "nope"\nargv = ["x"]', key: 'grants[0].tool' },
    { name: 'a grant with no pattern', toml: '[[grants]]\ntool = "run_command"', key: 'grants[0]' },
    { name: 'a grant with two patterns', toml: '[[grants]]\ntool = "run_command"\nargv = ["ls"]\npath = "x"', key: 'grants[0]' },
    { name: 'an argv grant for a file tool', toml: '[[grants]]\ntool = "write_file"\nargv = ["x"]', key: 'grants[0].argv' },
    { name: 'a path grant for run_command', toml: '[[grants]]\ntool = "run_command"\npath = "src/**"', key: 'grants[0].path' },
    { name: 'a grant for a destructive command, which would do nothing', toml: '[[grants]]\ntool = "run_command"\nargv = ["git", "push", "--force"]', key: 'grants[0].argv' },
    { name: 'a grant for a hardline command', toml: '[[grants]]\ntool = "run_command"\nargv = ["rm", "-rf", "/"]', key: 'grants[0].argv' },
    { name: 'an empty argv', toml: '[[grants]]\ntool = "run_command"\nargv = []', key: 'grants[0].argv' },
    { name: 'a wrong type', toml: 'autonomy = "full"', key: 'autonomy' },
  ])('$name', async ({ toml, key }) => {
    const p = await problem(toml);
    expect(p?.key).toEqual(key);
    expect(p?.problem).toMatch(/\S/);
  });

  it('names the file in the message', async () => {
    await expect(parseConfig('[autonomy]\nlevel = 3', FILE)).rejects.toThrow(/^Config error in \/etc\/threshold\/threshold\.toml: autonomy\.level: /);
  });
});

describe('config: [[grants]] go through the same width judge as grant.create', () => {
  it.each([
    { name: 'argv = ["*"]', toml: '[[grants]]\ntool = "run_command"\nargv = ["*"]', key: 'grants[0].argv', problem: /could be any program/ },
    { name: 'a prefix of an interpreter', toml: '[[grants]]\ntool = "run_command"\nargv = ["python3", "*"]', key: 'grants[0].argv', problem: /too wide: it would also allow `python3 -c/ },
    { name: 'match = "prefix" on curl', toml: '[[grants]]\ntool = "run_command"\nargv = ["curl"]\nmatch = "prefix"', key: 'grants[0].argv', problem: /uploads a file to any host/ },
    { name: 'env then anything', toml: '[[grants]]\ntool = "run_command"\nargv = ["env", "*"]', key: 'grants[0].argv', problem: /runs any program it is given/ },
    { name: 'the glob **/*', toml: '[[grants]]\ntool = "write_file"\npath = "**/*"', key: 'grants[0].path', problem: /too wide/ },
    { name: 'the glob /*/**', toml: '[[grants]]\ntool = "write_file"\npath = "/*/**"', key: 'grants[0].path', problem: /too wide/ },
    { name: 'every web_fetch', toml: '[[grants]]\ntool = "web_fetch"\nany = true', key: 'grants[0].any', problem: /too wide/ },
    { name: 'match without argv', toml: '[[grants]]\ntool = "write_file"\npath = "docs/**"\nmatch = "exact"', key: 'grants[0].match', problem: /only applies to an argv grant/ },
  ])('refuses $name, saying why', async ({ toml, key, problem: why }) => {
    const p = await problem(toml);
    expect(p?.key).toEqual(key);
    expect(p?.problem).toMatch(why);
  });

  it('reads argv without match as exact, a last "*" as a prefix, and match as written', async () => {
    const c = await parseConfig('[[grants]]\ntool = "run_command"\nargv = ["git", "status"]\n[[grants]]\ntool = "run_command"\nargv = ["npm", "test", "*"]\n[[grants]]\ntool = "run_command"\nargv = ["make"]\nmatch = "prefix"\n', FILE);
    expect(c.grants.map((g) => g.pattern)).toEqual([
      { kind: 'argv', argv: ['git', 'status'], match: 'exact' },
      { kind: 'argv', argv: ['npm', 'test'], match: 'prefix' },
      { kind: 'argv', argv: ['make'], match: 'prefix' },
    ]);
  });
});

describe('config: valid files', () => {
  it('fills the defaults for an empty file', async () => {
    const c = await parseConfig('', FILE);
    expect({ level: c.level, rules: c.rules, grants: c.grants, ttl: c.approvalTtlSeconds }).toEqual({ level: 'supervised', rules: { effects: {}, tools: {} }, grants: [], ttl: 600 });
  });
  it('reads levels, rules and grants', async () => {
    const c = await parseConfig(
      `[autonomy]\nlevel = "auto-edit"\n[rules.effects]\nnetwork = "ask"\n[rules.tools]\nweb_fetch = "deny"\n[[grants]]\ntool = "run_command"\nargv = ["git", "status"]\n[[grants]]\ntool = "write_file"\npath = "docs/**"\n[approvals]\nttl_seconds = 0\n`,
      FILE,
    );
    expect({ level: c.level, rules: c.rules, ttl: c.approvalTtlSeconds, patterns: c.grants.map((g) => [g.id, g.tool, g.pattern, g.scope]) }).toEqual({
      level: 'auto-edit',
      rules: { effects: { network: 'ask' }, tools: { web_fetch: 'deny' } },
      ttl: 0,
      patterns: [
        ['config-1', 'run_command', { kind: 'argv', argv: ['git', 'status'], match: 'exact' }, 'always'],
        ['config-2', 'write_file', { kind: 'path', glob: 'docs/**' }, 'always'],
      ],
    });
  });
  it('treats a missing default file as the defaults, and a missing named file as an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-config-'));
    await expect(loadConfigFile(join(dir, 'none.toml'), { required: false })).resolves.toMatchObject({ level: 'supervised', file: null });
    await expect(loadConfigFile(join(dir, 'none.toml'), { required: true })).rejects.toThrow(/does not exist/);
    writeFileSync(join(dir, 'ok.toml'), '[autonomy]\nlevel = "full"\n');
    await expect(loadConfigFile(join(dir, 'ok.toml'), { required: true })).resolves.toMatchObject({ level: 'full' });
  });
});

describe('config: audit retention', () => {
  it('reads retention limits', async () => {
    const c = await parseConfig('[audit]\nretention_max_entries = 100000\nretention_max_age_days = 365\n', FILE);
    expect(c.auditRetention).toEqual({ maxEntries: 100000, maxAgeDays: 365 });
  });
  it('refuses a retention that would keep almost nothing', async () => {
    expect(await problem('[audit]\nretention_max_entries = 10')).toMatchObject({ key: 'audit.retention_max_entries' });
  });
});

describe('config: only a regular file of bounded size in UTF-8 is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threshold-config-read-'));
  const at = (name: string) => join(dir, name);
  writeFileSync(at('ok.toml'), '[autonomy]\nlevel = "full"\n');
  writeFileSync(at('bom.toml'), '\uFEFF[autonomy]\nlevel = "auto-edit"\n');
  writeFileSync(at('at-cap.toml'), '#'.repeat(MAX_CONFIG_BYTES - 1) + '\n');
  writeFileSync(at('too-big.toml'), '#'.repeat(MAX_CONFIG_BYTES) + '\n');
  writeFileSync(at('latin1.toml'), Buffer.concat([Buffer.from('# ok\n[agent]\n# caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
  writeFileSync(at('lone-surrogate.toml'), Buffer.from([0x23, 0xed, 0xa0, 0x80, 0x0a]));
  writeFileSync(at('overlong.toml'), Buffer.from([0x23, 0xc0, 0xaf, 0x0a]));
  execFileSync('mkfifo', [at('fifo.toml')]);
  mkdirSync(at('dir.toml'));
  symlinkSync(at('ok.toml'), at('link-ok.toml'));
  symlinkSync(at('missing-target.toml'), at('dangling.toml'));
  symlinkSync('/dev/zero', at('zero-link.toml'));
  symlinkSync(at('loop-b.toml'), at('loop-a.toml'));
  symlinkSync(at('loop-a.toml'), at('loop-b.toml'));

  const outcome = async (file: string, required: boolean) => {
    try {
      const c = await loadConfigFile(file, { required });
      return { level: c.level, file: c.file === null ? null : 'set' };
    } catch (err) {
      if (err instanceof ConfigError) return { problem: err.problem };
      throw err;
    }
  };

  it.each([
    { name: 'a regular file is read', file: at('ok.toml'), required: true, expected: { level: 'full', file: 'set' } },
    { name: 'a UTF-8 byte-order mark is accepted', file: at('bom.toml'), required: true, expected: { level: 'auto-edit', file: 'set' } },
    { name: 'a symlink to a regular file is followed', file: at('link-ok.toml'), required: false, expected: { level: 'full', file: 'set' } },
    { name: 'a file of exactly the cap is read', file: at('at-cap.toml'), required: true, expected: { level: 'supervised', file: 'set' } },
    { name: 'a missing default file means the defaults', file: at('none.toml'), required: false, expected: { level: 'supervised', file: null } },
    { name: 'a missing named file is an error', file: at('none.toml'), required: true, expected: { problem: 'the file does not exist' } },
    { name: 'a dangling symlink at the default location is an error, not "no config"', file: at('dangling.toml'), required: false, expected: { problem: `the file is a symbolic link to ${at('missing-target.toml')}, which does not exist; fix or remove the link` } },
    { name: 'a FIFO is refused at once instead of hanging start', file: at('fifo.toml'), required: true, expected: { problem: 'this is a named pipe (FIFO), not a regular file' } },
    { name: '/dev/zero is refused instead of growing memory', file: '/dev/zero', required: true, expected: { problem: 'this is a device, not a regular file' } },
    { name: 'a symlink to /dev/zero at the default location is refused', file: at('zero-link.toml'), required: false, expected: { problem: 'this is a device, not a regular file' } },
    { name: 'a directory is refused', file: at('dir.toml'), required: true, expected: { problem: 'this is a directory, not a regular file' } },
    { name: 'a symlink loop is an error', file: at('loop-a.toml'), required: false, expected: { problem: 'the file cannot be read (ELOOP)' } },
    { name: 'a file over the size cap is refused', file: at('too-big.toml'), required: true, expected: { problem: 'the file is larger than 1 MiB; a config file is a few KB' } },
    { name: 'a Latin-1 byte is not valid UTF-8, named with its line', file: at('latin1.toml'), required: true, expected: { problem: 'the file is not valid UTF-8 (line 3); save it as UTF-8' } },
    { name: 'an encoded lone surrogate is not valid UTF-8', file: at('lone-surrogate.toml'), required: true, expected: { problem: 'the file is not valid UTF-8 (line 1); save it as UTF-8' } },
    { name: 'an overlong encoding of "/" is not valid UTF-8', file: at('overlong.toml'), required: true, expected: { problem: 'the file is not valid UTF-8 (line 1); save it as UTF-8' } },
  ])('$name', async ({ file, required, expected }) => {
    expect(await outcome(file, required)).toEqual(expected);
  });
});
