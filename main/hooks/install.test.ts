// Putting Threshold's hook into another agent's settings and taking it out: what the person had stays as
// it was, byte for byte after an install and an uninstall; nothing is added twice; a file Threshold cannot
// read is refused, never rewritten.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync, statSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ExternalAgent } from '../../common/external-agents';
import { installCli } from '../cli/hook-install';
import { isOurs, planInstall, planUninstall } from './install';

const SELF = ['/usr/bin/node', '/opt/threshold/bin/threshold.js'];
const CMD = (agent: string) => `/usr/bin/node /opt/threshold/bin/threshold.js hook ${agent}`;
const theirs = { type: 'command', command: '/home/u/bin/format.sh', timeout: 10 };

describe('the settings file, changed by install and uninstall', () => {
  const existing = JSON.stringify({ model: 'opus', permissions: { allow: ['Bash(npm test)'] }, hooks: { PreToolUse: [{ matcher: 'Write', hooks: [theirs] }], Stop: [{ hooks: [theirs] }] } }, null, 2) + '\n';
  it.each([
    { agent: 'claude-code' as const, events: ['PreToolUse'], matcher: '*', timeout: 630 },
    { agent: 'codex' as const, events: ['PreToolUse', 'PermissionRequest'], matcher: '*', timeout: 630 },
    { agent: 'gemini' as const, events: ['BeforeTool'], matcher: '.*', timeout: 630_000 },
  ])('$agent: adds a group per event, keeps every other key and hook, and uninstall gives back the same bytes', ({ agent, events, matcher, timeout }) => {
    const installed = planInstall(agent, existing, 'settings.json', CMD(agent));
    if (!installed.ok) throw new Error(installed.problem);
    const after = JSON.parse(installed.text) as { model: string; permissions: unknown; hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]> };
    expect({ model: after.model, permissions: after.permissions, stop: after.hooks['Stop'], firstPreToolUse: after.hooks['PreToolUse']?.[0] }).toEqual({ model: 'opus', permissions: { allow: ['Bash(npm test)'] }, stop: [{ hooks: [theirs] }], firstPreToolUse: { matcher: 'Write', hooks: [theirs] } });
    for (const e of events) {
      const ours = after.hooks[e]!.at(-1)!;
      expect({ matcher: ours.matcher, command: ours.hooks[0]!.command, timeout: ours.hooks[0]!.timeout }).toEqual({ matcher, command: CMD(agent), timeout });
    }
    const again = planInstall(agent, installed.text, 'settings.json', CMD(agent));
    expect(again.ok && again.changed).toBe(false);
    const removed = planUninstall(agent, installed.text, 'settings.json');
    expect(removed.ok && removed.text).toBe(existing);
  });

  it('into a file that does not exist yet: just the hook', () => {
    const p = planInstall('claude-code', null, 's.json', CMD('claude-code'));
    expect(p.ok && JSON.parse(p.text)).toEqual({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: CMD('claude-code'), timeout: 630 }] }] } });
  });

  it('uninstall leaves a group that also holds someone else\'s hook, minus ours', () => {
    const shared = JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [theirs, { type: 'command', command: CMD('claude-code') }] }] } });
    const p = planUninstall('claude-code', shared, 's.json');
    expect(p.ok && JSON.parse(p.text)).toEqual({ hooks: { PreToolUse: [{ matcher: '*', hooks: [theirs] }] } });
  });

  it.each([
    { name: 'not JSON', text: '{ "hooks": ', problem: /is not valid JSON/ },
    { name: 'JSON with comments (Threshold does not strip them)', text: '{\n  // mine\n  "model": "x"\n}', problem: /is not valid JSON/ },
    { name: 'not an object', text: '[1, 2]', problem: /does not hold a JSON object/ },
    { name: 'hooks not an object', text: '{"hooks": []}', problem: /"hooks" is not an object/ },
    { name: 'an event not a list', text: '{"hooks": {"PreToolUse": {"matcher": "*"}}}', problem: /hooks.PreToolUse is not a list/ },
  ])('refuses a file it cannot read safely ($name), never rewriting it', ({ text, problem }) => {
    const p = planInstall('claude-code', text, 's.json', CMD('claude-code'));
    expect(p.ok ? 'rewritten' : p.problem).toMatch(problem);
  });

  it.each([
    { command: CMD('claude-code'), agent: 'claude-code' as ExternalAgent, ours: true },
    { command: `'/usr/bin/node' '/opt/my threshold/bin/threshold.js' hook claude-code --data-dir '/d'`, agent: 'claude-code' as ExternalAgent, ours: true },
    { command: 'threshold hook codex', agent: 'codex' as ExternalAgent, ours: true },
    { command: CMD('codex'), agent: 'claude-code' as ExternalAgent, ours: false },
    { command: 'echo threshold hook claude-codex', agent: 'claude-code' as ExternalAgent, ours: false },
    { command: '/usr/bin/mythreshold hook claude-code', agent: 'claude-code' as ExternalAgent, ours: false },
  ])('"$command" is Threshold\'s $agent hook: $ours', ({ command, agent, ours }) => {
    expect(isOurs({ command }, agent)).toBe(ours);
  });
});

describe('threshold hook install (the command)', () => {
  const io = (home: string, cwd: string) => {
    const out = new PassThrough();
    const err = new PassThrough();
    let stdout = '';
    let stderr = '';
    out.on('data', (c) => (stdout += c));
    err.on('data', (c) => (stderr += c));
    return { io: { stdin: new PassThrough(), stdout: out, stderr: err, env: { HOME: home }, cwd }, text: () => ({ stdout, stderr }) };
  };

  it('--print shows the change and writes nothing; install writes it with the file\'s mode; uninstall takes it out', async () => {
    const home = mkdtempSync(join(tmpdir(), 'threshold-install-'));
    mkdirSync(join(home, '.claude'));
    const file = join(home, '.claude', 'settings.json');
    writeFileSync(file, '{"model":"opus"}');
    chmodSync(file, 0o640);
    const a = io(home, home);
    expect(await installCli(['install', 'claude-code', '--print', '--data-dir', '/srv/threshold'], a.io, SELF)).toBe(0);
    expect(a.text().stdout).toMatch(/^Would add Threshold's PreToolUse hook to .*settings\.json\.\n[\s\S]*\+ .*hook claude-code --data-dir \/srv\/threshold/);
    expect(readFileSync(file, 'utf8')).toBe('{"model":"opus"}');
    const b = io(home, home);
    expect(await installCli(['install', 'claude-code', '--data-dir', '/srv/threshold'], b.io, SELF)).toBe(0);
    expect({ hook: JSON.parse(readFileSync(file, 'utf8')).hooks.PreToolUse[0].hooks[0].command.endsWith("hook claude-code --data-dir /srv/threshold"), mode: statSync(file).mode & 0o777 }).toEqual({ hook: true, mode: 0o640 });
    const c = io(home, home);
    expect(await installCli(['uninstall', 'claude-code'], c.io, SELF)).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'opus' });
  });

  it.each([
    { agent: 'claude-code', file: '.claude/settings.local.json' },
    { agent: 'codex', file: '.codex/hooks.json' },
    { agent: 'gemini', file: '.gemini/settings.json' },
  ])('--project puts $agent\'s hook in the project ($file)', async ({ agent, file }) => {
    const project = mkdtempSync(join(tmpdir(), 'threshold-project-'));
    const r = io('/nonexistent-home', project);
    expect(await installCli(['install', agent, '--project'], r.io)).toBe(0);
    expect(existsSync(join(project, file))).toBe(true);
  });

  it('a settings file it cannot read is left alone, with the reason', async () => {
    const home = mkdtempSync(join(tmpdir(), 'threshold-install-'));
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'settings.json'), '{ // my settings\n}');
    const r = io(home, home);
    expect(await installCli(['install', 'gemini'], r.io)).toBe(1);
    expect({ err: r.text().stderr, file: readFileSync(join(home, '.gemini', 'settings.json'), 'utf8') }).toEqual({ err: expect.stringMatching(/is not valid JSON .*Threshold does not rewrite a file it cannot read/), file: '{ // my settings\n}' });
  });
});
