// The hook command against a real core on its control socket: exactly one JSON object on stdout and
// exit 0 whatever happens; the decision is the gate's; when Threshold cannot judge (not running, no
// decision in time, input it cannot read, a wrong hook command) it defers, never allows, and says why in
// one line; a hook that gives up withdraws its card; an allowed command sent to the jail runs from its ticket.
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Level } from '../../common/domain';
import type { ThresholdCore } from '../runtime/core';
import type { ControlServer } from '../control/server';
import { DEFAULT_CONFIG } from '../config/load';
import { jailFixture, type JailFixture } from '../../test/support/jail';
import { nextPending, testCore } from '../../test/support/core';
import { hookMain } from './client';
import { serveControl } from '../../test/support/control';

let fx: JailFixture;
const servers: { core: ThresholdCore; server: ControlServer }[] = [];

beforeAll(async () => {
  fx = await jailFixture();
});
afterAll(async () => {
  for (const s of servers) {
    await s.server.close();
    s.core.dispose();
  }
  await fx?.close();
});

async function running(level: Level, jail = false): Promise<{ core: ThresholdCore; dataDir: string }> {
  const dataDir = join(fx.root, `d${servers.length}`);
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o700);
  const core = await testCore({ level, dataDir, config: { hooks: { jail }, executor: DEFAULT_CONFIG.executor }, paths: { home: fx.home, workspace: join(fx.home, 'own'), appDirs: [fx.configDir, dataDir] } });
  const server = await serveControl(core, dataDir);
  servers.push({ core, server });
  return { core, dataDir };
}

async function hook(argv: string[], stdin: string | Buffer, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const input = new PassThrough();
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  const done = hookMain(argv, { stdin: input, stdout: out, stderr: err, env: { CLAUDE_PROJECT_DIR: fx.workspace, ...env }, self: ['/usr/bin/node', '/opt/threshold/bin/threshold.js'] });
  input.end(stdin);
  const code = await done;
  return { code, stdout, stderr };
}

const bash = (command: string, extra: Record<string, unknown> = {}) => JSON.stringify({ session_id: 'cc-1', cwd: fx.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: 'toolu_9', ...extra });
const decision = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput?: { command: string } } }).hookSpecificOutput;

describe('threshold hook claude-code', () => {
  it('prints exactly one JSON object, and the gate decides: a read runs', async () => {
    const { dataDir } = await running('supervised');
    const r = await hook(['claude-code', '--data-dir', dataDir], bash('ls -la'));
    expect({ code: r.code, lines: r.stdout.split('\n').length, decision: decision(r.stdout).permissionDecision, stderr: r.stderr }).toEqual({ code: 0, lines: 2, decision: 'allow', stderr: '' });
  });

  it('a hardline command is denied with the reason the model reads', async () => {
    const { dataDir } = await running('full');
    const r = await hook(['claude-code', '--data-dir', dataDir], bash('rm -rf ~'));
    expect(decision(r.stdout)).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^Denied: `rm -rf ~` is on the hardline list/) });
  });

  it('a write asks: the card names Claude Code and its project, and its decision is the answer', async () => {
    const { core, dataDir } = await running('supervised');
    const answer = hook(['claude-code', '--data-dir', dataDir], bash('touch made.txt'));
    const card = await nextPending(core);
    expect({ origin: card.origin, session: card.session_id }).toEqual({ origin: { kind: 'external', name: 'Claude Code', workspace: '~/project' }, session: 'claude-code-cc-1' });
    await core.gate.decideApproval({ approvalId: card.id, hash: card.hash, outcome: 'deny', surface: 'control', note: 'use the build script' });
    const r = await answer;
    expect(decision(r.stdout)).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/denied this call.*Their note: use the build script/) });
  });

  it('no decision in time: it defers (Claude Code asks) and the card is withdrawn, so a late approval cannot land', async () => {
    const { core, dataDir } = await running('supervised');
    const r = await hook(['claude-code', '--data-dir', dataDir, '--timeout', '1'], bash('touch late.txt'));
    expect({ decision: decision(r.stdout).permissionDecision, why: r.stderr }).toEqual({ decision: 'ask', why: "threshold hook: no decision within 1 s; the card in Threshold was withdrawn; the agent's own prompt decides.\n" });
    for (let i = 0; i < 100 && core.gate.listPending().length; i++) await new Promise((res) => setTimeout(res, 10));
    expect(core.gate.listPending()).toEqual([]);
  });

  it.each([
    { name: 'Threshold is not running', argv: (d: string) => ['claude-code', '--data-dir', join(d, 'elsewhere')], stdin: () => bash('ls'), why: /^threshold hook: Threshold is not running for .*elsewhere \(start it, or pass --data-dir\)/ },
    { name: 'the input is not JSON', argv: (d: string) => ['claude-code', '--data-dir', d], stdin: () => '{"session_id": ', why: /the hook input is not valid JSON/ },
    { name: 'the input is not a PreToolUse event', argv: (d: string) => ['claude-code', '--data-dir', d], stdin: () => bash('ls', { hook_event_name: 'Stop' }), why: /"Stop" is not a hook event/ },
    { name: 'the call is larger than the control API takes', argv: (d: string) => ['claude-code', '--data-dir', d], stdin: () => bash('echo ' + 'x'.repeat(1024 * 1024)), why: /the call is larger than Threshold takes from a hook/ },
    { name: 'the hook command has an option it does not know', argv: (d: string) => ['claude-code', '--data-dir', d, '--yolo'], stdin: () => bash('ls'), why: /the hook command is wrong \(unknown option --yolo\)/ },
    { name: 'the timeout is not a number', argv: (d: string) => ['claude-code', '--data-dir', d, '--timeout', 'soon'], stdin: () => bash('ls'), why: /--timeout must be a number of seconds/ },
  ])('$name: defers to Claude Code\'s own prompt, never allows, with one line saying why', async ({ argv, stdin, why }) => {
    const { dataDir } = await running('full');
    const r = await hook(argv(dataDir), stdin());
    expect({ code: r.code, decision: decision(r.stdout).permissionDecision, lines: r.stderr.trim().split('\n').length, why: why.test(r.stderr) }).toEqual({ code: 0, decision: 'ask', lines: 1, why: true });
  });

  it('an agent it does not answer for is a usage error (exit 2), not a silent allow', async () => {
    const r = await hook(['cursor'], '{}');
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
  });

  it('with [hooks] jail = true an allowed command is rewritten to run in the jail, and the ticket runs it once', async () => {
    const { dataDir } = await running('auto-edit', true);
    const r = await hook(['claude-code', '--data-dir', dataDir], bash('echo from-the-jail > jailed.txt'));
    const d = decision(r.stdout);
    expect({ decision: d.permissionDecision, command: d.updatedInput?.command.replace(/ [0-9a-f]{48}$/, ' TICKET') }).toEqual({ decision: 'allow', command: `/usr/bin/node /opt/threshold/bin/threshold.js hook run --data-dir ${dataDir} TICKET` });
    const ticket = d.updatedInput!.command.split(' ').at(-1)!;
    const ran = await hook(['run', '--data-dir', dataDir, ticket], '');
    expect({ code: ran.code, file: readFileSync(join(fx.workspace, 'jailed.txt'), 'utf8'), note: /threshold checkpoints restore cp_/.test(ran.stderr) }).toEqual({ code: 0, file: 'from-the-jail\n', note: true });
    const again = await hook(['run', '--data-dir', dataDir, ticket], '');
    expect({ code: again.code, why: /There is no such run ticket/.test(again.stderr) }).toEqual({ code: 1, why: true });
  });

  // A ticket is an argument of the command the agent runs: one that began with '-' (1 in 64 base64url
  // tickets did) was read as an option, and the allowed command did not run.
  it.each([
    { name: 'a ticket after -- is a ticket even when it begins with a dash', argv: (d: string) => ['run', '--data-dir', d, '--', '-abcdefghijklmnopqrstuvwxyz012345'], code: 1, why: /There is no such run ticket/ },
    { name: 'a dash-led word without -- is an unknown option, a usage error', argv: (d: string) => ['run', '--data-dir', d, '-abcdefghijklmnopqrstuvwxyz012345'], code: 2, why: /unknown option -abcdefghij/ },
    { name: 'two tickets are a usage error', argv: (d: string) => ['run', '--data-dir', d, '--', 'a'.repeat(48), 'b'.repeat(48)], code: 2, why: /needs exactly one TICKET/ },
  ])('hook run: $name', async ({ argv, code, why }) => {
    const { dataDir } = await running('full', true);
    const ran = await hook(argv(dataDir), '');
    expect({ code: ran.code, why: why.test(ran.stderr) }).toEqual({ code, why: true });
  });

  it('every ticket issued is plain hex, so no rewritten command hands `hook run` an option', async () => {
    const { dataDir } = await running('full', true);
    const tickets: string[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await hook(['claude-code', '--data-dir', dataDir], bash(`echo ${i}`, { tool_use_id: `toolu_t${i}` }));
      tickets.push(decision(r.stdout).updatedInput!.command.split(' ').at(-1)!);
    }
    expect(tickets.filter((t) => !/^[0-9a-f]{48}$/.test(t))).toEqual([]);
  });

  it('a command that fails in the jail reports its exit code to the agent', async () => {
    const { dataDir } = await running('full', true);
    const r = await hook(['claude-code', '--data-dir', dataDir], bash('echo oops >&2; exit 7'));
    const ticket = decision(r.stdout).updatedInput!.command.split(' ').at(-1)!;
    const ran = await hook(['run', '--data-dir', dataDir, ticket], '');
    expect({ code: ran.code, stderr: ran.stderr.startsWith('oops\n') }).toEqual({ code: 7, stderr: true });
  });
});
