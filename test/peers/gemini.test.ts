// Gemini CLI 0.61.0 (from npm) with Threshold's BeforeTool hook, installed by `threshold hook install
// gemini`, against a fake Gemini API (:streamGenerateContent). Gemini CLI runs in yolo mode here, so its own
// prompts do not stand between the test and Threshold: what stops or lets a command run is Threshold alone
// (a defer from Threshold still forces Gemini CLI's prompt, which a headless run refuses).
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

/** The model runs one shell command, then ends its turn once the function response is in. */
function scriptCommand(fake: World['fake'], command: string): void {
  fake.responder = (req: RecordedRequest) => {
    if (!Array.isArray(req.body['tools'])) return { text: '{"next_speaker": "user", "reasoning": "done"}' };
    const contents = (req.body['contents'] as { parts?: { functionResponse?: unknown }[] }[]) ?? [];
    if ((contents.at(-1)?.parts ?? []).some((p) => p.functionResponse)) return { text: 'done' };
    return { toolCalls: [{ name: 'run_shell_command', args: { command, description: 'as the test asks' } }] };
  };
}

async function gemini(t: World, command: string) {
  scriptCommand(t.fake, command);
  return runPeer(process.execPath, [peers.gemini, '-p', 'Do what the test asks.', '-o', 'json', '--approval-mode', 'yolo', '--skip-trust'], {
    cwd: t.project,
    env: peerEnv(t, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: t.fake.url }),
  });
}

async function setUp(toml: string): Promise<World> {
  w = await world('gemini', toml);
  mkdirSync(join(w.home, '.gemini'), { recursive: true });
  writeFileSync(join(w.home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2));
  const installed = await w.threshold(['hook', 'install', 'gemini', '--data-dir', w.dataDir]);
  expect(installed.code, installed.stderr).toBe(0);
  return w;
}

describe('Gemini CLI with Threshold as its gate', () => {
  it('a command Threshold allows runs', async () => {
    const t = await setUp('[autonomy]\nlevel = "supervised"\n[[grants]]\ntool = "run_command"\nargv = ["touch", "allowed.txt"]\n');
    const r = await gemini(t, 'touch allowed.txt');
    expect({ code: r.code, ran: existsSync(join(t.project, 'allowed.txt')) }, r.stdout.slice(-1500) + r.stderr.slice(-1500)).toEqual({ code: 0, ran: true });
  });

  it('a command Threshold denies does not run, even in yolo mode, and the model reads why', async () => {
    const t = await setUp('[autonomy]\nlevel = "read-only"\n');
    const r = await gemini(t, 'touch denied.txt');
    expect({ ran: existsSync(join(t.project, 'denied.txt')), told: /Denied: the level is read-only/.test(toolResults(t.fake)) }, r.stderr.slice(-1500)).toEqual({ ran: false, told: true });
  });

  it('a command that asks waits on a card named for Gemini CLI, and runs only after ctl approves it', async () => {
    const t = await setUp('[autonomy]\nlevel = "supervised"\n');
    const run = gemini(t, 'touch asked.txt');
    const card = await nextCard(t);
    expect({ args: card.args, origin: card.origin, ranBeforeApproval: existsSync(join(t.project, 'asked.txt')) }).toEqual({ args: { command: 'touch asked.txt' }, origin: { kind: 'external', name: 'Gemini CLI', workspace: '~/project' }, ranBeforeApproval: false });
    await t.threshold(['ctl', '--data-dir', t.dataDir, 'decide', card.id, 'approve_once']);
    const r = await run;
    expect({ code: r.code, ran: existsSync(join(t.project, 'asked.txt')) }).toEqual({ code: 0, ran: true });
  });

  it('with [hooks] jail = true the command runs in Threshold\'s jail after a checkpoint, and restoring it undoes the command', async () => {
    const t = await setUp('[autonomy]\nlevel = "auto-edit"\n[hooks]\njail = true\n');
    writeFileSync(join(t.project, 'notes.md'), 'before\n');
    const r = await gemini(t, "printf 'after\\n' > notes.md");
    expect({ code: r.code, notes: readFileSync(join(t.project, 'notes.md'), 'utf8') }, r.stderr.slice(-1500)).toEqual({ code: 0, notes: 'after\n' });
    const said = /Ran in Threshold's jail after checkpoint (cp_[A-Za-z0-9_-]+)/.exec(toolResults(t.fake));
    expect(said, toolResults(t.fake).slice(-2000)).not.toBeNull();
    const restored = await t.threshold(['checkpoints', '--data-dir', t.dataDir, 'restore', said![1]!]);
    expect({ code: restored.code, notes: readFileSync(join(t.project, 'notes.md'), 'utf8') }).toEqual({ code: 0, notes: 'before\n' });
  });
});
