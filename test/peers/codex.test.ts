// Codex 0.171.0 (the real binary from npm) with Threshold's hooks (PreToolUse and PermissionRequest),
// installed by `threshold hook install codex`, against a fake OpenAI Responses API. Codex runs without
// its own sandbox and approvals here (--dangerously-bypass-approvals-and-sandbox), so what stops or lets a
// command run is Threshold alone; its hooks run without the interactive trust review
// (--dangerously-bypass-hook-trust), which a person does once in Codex's /hooks.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** The model runs one command through exec_command, then ends its turn once it has the output. */
function scriptCommand(fake: World['fake'], cmd: string): void {
  fake.responder = (req: RecordedRequest) => {
    const input = (req.body['input'] as { type?: string }[]) ?? [];
    if (input.some((i) => i.type === 'function_call_output')) return { text: 'done' };
    return { toolCalls: [{ name: 'exec_command', args: { cmd } }] };
  };
}

async function codex(t: World, cmd: string) {
  scriptCommand(t.fake, cmd);
  return runPeer(peers.codex, ['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '--dangerously-bypass-approvals-and-sandbox', 'Do what the test asks.'], {
    cwd: t.project,
    env: peerEnv(t, { FAKE_OPENAI_KEY: 'sk-test' }),
  });
}

async function setUp(toml: string): Promise<World> {
  w = await world('codex', toml);
  mkdirSync(join(w.home, '.codex'), { recursive: true });
  writeFileSync(join(w.home, '.codex', 'config.toml'), `model = "fake-model"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "fake"\nbase_url = "${w.fake.url}/v1"\nwire_api = "responses"\nenv_key = "FAKE_OPENAI_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\n`);
  const installed = await w.threshold(['hook', 'install', 'codex', '--data-dir', w.dataDir]);
  expect(installed.code, installed.stderr).toBe(0);
  return w;
}

describe('Codex with Threshold as its gate', () => {
  it('a command Threshold allows runs', async () => {
    const t = await setUp('[autonomy]\nlevel = "supervised"\n[[grants]]\ntool = "run_command"\nargv = ["touch", "allowed.txt"]\n');
    const r = await codex(t, 'touch allowed.txt');
    expect({ code: r.code, ran: existsSync(join(t.project, 'allowed.txt')) }, r.stdout + r.stderr).toEqual({ code: 0, ran: true });
  });

  it('a command Threshold denies does not run, and the model reads why', async () => {
    const t = await setUp('[autonomy]\nlevel = "read-only"\n');
    const r = await codex(t, 'touch denied.txt');
    expect({ code: r.code, ran: existsSync(join(t.project, 'denied.txt')), told: /Denied: the level is read-only/.test(toolResults(t.fake)) }).toEqual({ code: 0, ran: false, told: true });
  });

  it('a command that asks waits on a card named for Codex, and runs only after ctl approves it', async () => {
    const t = await setUp('[autonomy]\nlevel = "supervised"\n');
    const run = codex(t, 'touch asked.txt');
    const card = await nextCard(t);
    expect({ args: card.args, origin: card.origin, ranBeforeApproval: existsSync(join(t.project, 'asked.txt')) }).toEqual({ args: { command: 'touch asked.txt' }, origin: { kind: 'external', name: 'Codex', workspace: '~/project' }, ranBeforeApproval: false });
    await t.threshold(['ctl', '--data-dir', t.dataDir, 'decide', card.id, 'approve_once']);
    const r = await run;
    expect({ code: r.code, ran: existsSync(join(t.project, 'asked.txt')) }).toEqual({ code: 0, ran: true });
  });

  it('with [hooks] jail = true the command runs in Threshold\'s jail after a checkpoint, and restoring it undoes the command', async () => {
    const t = await setUp('[autonomy]\nlevel = "auto-edit"\n[hooks]\njail = true\n');
    writeFileSync(join(t.project, 'notes.md'), 'before\n');
    const r = await codex(t, "printf 'after\\n' > notes.md");
    expect({ code: r.code, notes: readFileSync(join(t.project, 'notes.md'), 'utf8') }).toEqual({ code: 0, notes: 'after\n' });
    const said = /Ran in Threshold's jail after checkpoint (cp_[A-Za-z0-9_-]+)/.exec(toolResults(t.fake));
    expect(said, toolResults(t.fake).slice(-2000)).not.toBeNull();
    const restored = await t.threshold(['checkpoints', '--data-dir', t.dataDir, 'restore', said![1]!]);
    expect({ code: restored.code, notes: readFileSync(join(t.project, 'notes.md'), 'utf8') }).toEqual({ code: 0, notes: 'before\n' });
  });
});
