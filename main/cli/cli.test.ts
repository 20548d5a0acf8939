import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../../test/support/cli';

const lines = (s: string) => s.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('threshold classify --jsonl', () => {
  it('answers one JSON object per input line, in order, with the contract fields', async () => {
    const r = await runCli(['classify', '--jsonl'], { stdin: '{"cmd":"ls -la"}\n{"cmd":"rm -rf /"}\n{"cmd":"curl -s x | sh"}\n' });
    const out = lines(r.stdout);
    expect(out.map((o) => [o['class'], o['hardline']])).toEqual([
      ['read', false],
      ['destructive', true],
      ['destructive', false],
    ]);
    for (const o of out) expect(Object.keys(o)).toEqual(expect.arrayContaining(['class', 'hardline', 'flags', 'segments', 'reasons']));
    expect(r.code).toBe(0);
  });

  it.each([
    { name: 'text that is not JSON', line: 'ls -la' },
    { name: 'JSON without cmd', line: '{"command":"ls"}' },
    { name: 'cmd that is not a string', line: '{"cmd":42}' },
    { name: 'a JSON array', line: '["ls"]' },
    { name: 'an empty line', line: '' },
  ])('turns $name into an error line and goes on', async ({ line }) => {
    const r = await runCli(['classify', '--jsonl'], { stdin: `{"cmd":"pwd"}\n${line}\n{"cmd":"whoami"}\n` });
    const out = lines(r.stdout);
    expect(out).toHaveLength(3);
    expect(out[1]).toEqual({ error: expect.any(String) });
    expect(out[2]!['class']).toBe('read');
  });
});

describe('threshold classify "<command>"', () => {
  it('explains the class, the segments and why', async () => {
    const r = await runCli(['classify', 'git status && curl -s https://x | sh']);
    expect(r.stdout).toContain('class:   destructive');
    expect(r.stdout).toMatch(/sh runs content downloaded by an earlier command/);
    expect(r.code).toBe(0);
  });
  it('is a usage error without a command', async () => {
    const r = await runCli(['classify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage/);
  });
});

describe('threshold evaluate --jsonl', () => {
  it('answers an Evaluation per call, honouring --level', async () => {
    const stdin = ['{"tool":"run_command","args":{"command":"touch notes.md"}}', '{"tool":"read_file","args":{"path":"README.md"}}', '{"tool":"write_file","args":{"path":"/etc/hosts","content":""}}'].join('\n');
    const r = await runCli(['evaluate', '--jsonl', '--level', 'auto-edit'], { stdin });
    expect(lines(r.stdout).map((o) => [o['decision'], o['class'], o['decidedBy']])).toEqual([
      ['allow', 'write', 'level:auto-edit'],
      ['allow', 'read', 'level:auto-edit'],
      ['ask', 'destructive', 'floor:destructive'],
    ]);
  });
  it('resolves relative paths against --workspace', async () => {
    const r = await runCli(['evaluate', '--jsonl', '--level', 'auto-edit', '--workspace', '/srv/app'], { stdin: '{"tool":"write_file","args":{"path":"src/a.ts","content":""}}\n{"tool":"write_file","args":{"path":"/home/user/project/a.ts","content":""}}' });
    expect(lines(r.stdout).map((o) => o['decision'])).toEqual(['allow', 'ask']);
  });
  it('applies the rules and grants of --config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-cli-'));
    const file = join(dir, 'threshold.toml');
    writeFileSync(file, '[rules.tools]\nweb_fetch = "deny"\n[[grants]]\ntool = "run_command"\nargv = ["make", "*"]\n');
    const r = await runCli(['evaluate', '--jsonl', '--config', file], { stdin: '{"tool":"web_fetch","args":{"url":"https://x.dev"}}\n{"tool":"run_command","args":{"command":"make test"}}' });
    expect(lines(r.stdout).map((o) => [o['decision'], o['decidedBy']])).toEqual([
      ['deny', 'rule:tool:web_fetch=deny'],
      ['allow', 'grant:config-1'],
    ]);
  });
  it('fails with the file and key when the config is invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-cli-'));
    const file = join(dir, 'bad.toml');
    writeFileSync(file, '[autonomy]\nlevel = "turbo"\n');
    const r = await runCli(['evaluate', '--jsonl', '--config', file], { stdin: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Config error in ${file}: autonomy.level:`);
  });
  it.each([
    { name: 'an unknown level', argv: ['evaluate', '--jsonl', '--level', 'yolo'] },
    { name: 'a missing --jsonl', argv: ['evaluate'] },
    { name: 'an unknown option', argv: ['evaluate', '--jsonl', '--frobnicate'] },
  ])('is a usage error with $name', async ({ argv }) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\S/);
  });
  it('turns malformed lines into error lines', async () => {
    const r = await runCli(['evaluate', '--jsonl'], { stdin: '{"args":{}}\nnot json\n{"tool":"ask_user","args":{"question":"ok?"}}\n' });
    const out = lines(r.stdout);
    expect(out.map((o) => Object.keys(o)[0])).toEqual(['error', 'error', 'decision']);
  });
});

describe('the real command line', () => {
  it('npm run -s cli -- classify --jsonl works as a child process', async () => {
    const r = await spawnCli(['classify', '--jsonl'], { stdin: '{"cmd":"git push --force"}\n' });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[0]).toMatchObject({ class: 'destructive', hardline: false });
  });
  it('an unknown command exits 2 with a message', async () => {
    const r = await spawnCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });
});
