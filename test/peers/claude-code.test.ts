// Claude Code 2.1.328 (the real binary from npm) with Threshold's hook, installed by `threshold hook
// install claude-code`, against a fake Anthropic Messages API: a Bash call Threshold allows runs, one it
// denies does not (even with Bash(*) allowed in Claude Code's own settings), one that asks waits on a card
// and runs only after `ctl decide`, and with [hooks] jail = true the command runs in Threshold's jail and
// its checkpoint undoes it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RecordedRequest } from '../fake-provider/server';
import { ensurePeers, type Peers } from './install';
import { nextCard, peerEnv, runPeer, toolResults, world, type World } from './support';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 900_000 });

let peers: Peers;
let w: World | null = null;

beforeAll(async () => {
  const r = await ensurePeers((line) => process.stderr.write(`${line}\n`));
  if (!r.ok) throw new Error(`the peer agents could not be installed: ${r.why}`);
  peers = r.peers;
});
afterEach(async () => {
  await w?.close();
  w = null;
});

/** The model asks for one Bash call, then (once it has the result) ends its turn. */
function scriptBash(fake: World['fake'], command: string): void {
  fake.responder = (req: RecordedRequest) => {
    const messages = (req.body['messages'] as { role: string; content: unknown }[]) ?? [];
    const last = messages[messages.length - 1];
    const answered = Array.isArray(last?.content) && (last.content as { type: string }[]).some((p) => p.type === 'tool_result');
    if (answered || !Array.isArray(req.body['tools'])) return { text: 'done' };
    return { toolCalls: [{ name: 'Bash', args: { command, description: 'as the test asks' } }] };
  };
}

async function claude(world: World, command: string, settings: Record<string, unknown> = {}) {
  scriptBash(world.fake, command);
  const file = join(world.root, 'claude-settings.json');
  writeFileSync(file, JSON.stringify(settings));
  return runPeer(peers.claude, ['-p', 'Do what the test asks.', '--settings', file, '--output-format', 'json'], {
    cwd: world.project,
    env: peerEnv(world, { ANTHROPIC_BASE_URL: world.fake.url, ANTHROPIC_API_KEY: 'sk-ant-test', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' }),
  });
}

async function setUp(toml: string): Promise<World> {
  w = await world('claude', toml);
  const installed = await w.threshold(['hook', 'install', 'claude-code', '--data-dir', w.dataDir]);
  expect(installed.code, installed.stderr).toBe(0);
  return w;
}

describe('Claude Code with Threshold as its gate', () => {
  it('a Bash call Threshold allows runs', async () => {
    const t = await setUp('[autonomy]\nlevel = "supervised"\n[[grants]]\ntool = "run_command"\nargv = ["touch", "allowed.txt"]\n');
    const r = await claude(t, 'touch allowed.txt');
    expect({ code: r.code, ran: existsSync(join(t.project, 'allowed.txt')) }).toEqual({ code: 0, ran: true });
    const calls = JSON.parse((await t.threshold(['ctl', '--data-dir', t.dataDir, '--json', 'calls'])).stdout) as { calls: { tool: string; decided_by: string; state: string; session_id: string }[] };
    expect(calls.calls[0]).toMatchObject({ tool: 'run_command', decided_by: 'grant:config-1', state: 'handed_off', session_id: expect.stringMatching(/^claude-code-/) });
  });

  it('a Bash call Threshold denies does not run, even with Bash(*) allowed in Claude Code, and the model reads why', async () => {
    const t = await setUp('[autonomy]\nlevel = "read-only"\n');
    const r = await claude(t, 'touch denied.txt', { permissions: { allow: ['Bash(*)'] } });
    expect({ code: r.code, ran: existsSync(join(t.project, 'denied.txt')) }).toEqual({ code: 0, ran: false });
    expect(toolResults(t.fake)).toMatch(/Denied: the level is read-only/);
  });

  it('a Bash call that asks waits on a card named for Claude Code, and runs only after ctl approves it', async () => {
    const t = await setUp('[autonomy]\nlevel = "supervised"\n');
    const run = claude(t, 'touch asked.txt');
    const card = await nextCard(t);
    expect({ tool: card.tool, args: card.args, origin: card.origin, cwd: card.cwd, session: card.session_id.startsWith('claude-code-'), ranBeforeApproval: existsSync(join(t.project, 'asked.txt')) }).toEqual({
      tool: 'run_command',
      cwd: '~/project',
      args: { command: 'touch asked.txt' },
      origin: { kind: 'external', name: 'Claude Code', workspace: '~/project' },
      session: true,
      ranBeforeApproval: false,
    });
    const table = await t.threshold(['ctl', '--data-dir', t.dataDir, 'pending']);
    expect(table.stdout).toMatch(/Claude Code \(session claude-code-.*\) in ~\/project/);
    const decided = await t.threshold(['ctl', '--data-dir', t.dataDir, 'decide', card.id, 'approve_once']);
    expect(decided.code, decided.stderr).toBe(0);
    const r = await run;
    expect({ code: r.code, ran: existsSync(join(t.project, 'asked.txt')) }).toEqual({ code: 0, ran: true });
  });

  it('a card denied in ctl keeps the command from running, and the model reads the person\'s note', async () => {
    const t = await setUp('[autonomy]\nlevel = "supervised"\n');
    const run = claude(t, 'touch refused.txt');
    const card = await nextCard(t);
    await t.threshold(['ctl', '--data-dir', t.dataDir, 'decide', card.id, 'deny', '--note', 'not today']);
    const r = await run;
    expect({ code: r.code, ran: existsSync(join(t.project, 'refused.txt')), told: /Their note: not today/.test(toolResults(t.fake)) }).toEqual({ code: 0, ran: false, told: true });
  });

  it('with Threshold stopped, the hook defers to Claude Code\'s own prompt: never an allow, even with Bash(*) allowed', async () => {
    const t = await setUp('[autonomy]\nlevel = "full"\n');
    await t.daemon.kill('SIGTERM');
    const r = await claude(t, 'touch unjudged.txt', { permissions: { allow: ['Bash(*)'] } });
    expect({ code: r.code, ran: existsSync(join(t.project, 'unjudged.txt')) }).toEqual({ code: 0, ran: false });
    expect(toolResults(t.fake)).toMatch(/Threshold is not running for/);
  });

  it('with [hooks] jail = true the command runs in Threshold\'s jail after a checkpoint, and restoring the checkpoint undoes it', async () => {
    const t = await setUp('[autonomy]\nlevel = "auto-edit"\n[hooks]\njail = true\n');
    writeFileSync(join(t.project, 'notes.md'), 'before\n');
    const r = await claude(t, "echo jailed > jailed.txt && printf 'after\\n' > notes.md");
    expect({ code: r.code, jailed: readFileSync(join(t.project, 'jailed.txt'), 'utf8'), notes: readFileSync(join(t.project, 'notes.md'), 'utf8') }).toEqual({ code: 0, jailed: 'jailed\n', notes: 'after\n' });
    const said = /\[threshold\] Ran in Threshold's jail after checkpoint (cp_[A-Za-z0-9_-]+)/.exec(toolResults(t.fake));
    expect(said, toolResults(t.fake).slice(-2000)).not.toBeNull();
    const calls = JSON.parse((await t.threshold(['ctl', '--data-dir', t.dataDir, '--json', 'calls'])).stdout) as { calls: { state: string; checkpoint_id: string | null; execution: { exit_code: number } | null }[] };
    expect(calls.calls[0]).toMatchObject({ state: 'succeeded', checkpoint_id: said![1], execution: { exit_code: 0 } });
    const restored = await t.threshold(['checkpoints', '--data-dir', t.dataDir, 'restore', said![1]!]);
    expect(restored.code, restored.stderr).toBe(0);
    expect({ jailed: existsSync(join(t.project, 'jailed.txt')), notes: readFileSync(join(t.project, 'notes.md'), 'utf8') }).toEqual({ jailed: false, notes: 'before\n' });
  });
});
