// Another agent's call through the core's one entry: the real gate, store, jail and checkpoints. What the
// agent is told matches what a person decided on the card, the card says who asked, a hook that goes
// away takes its card with it, and a command sent to the jail runs once, after a checkpoint that undoes it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Level } from '../../common/domain';
import type { ThresholdCore } from '../runtime/core';
import { jailFixture, type JailFixture } from '../../test/support/jail';
import { nextPending, testCore } from '../../test/support/core';
import { ExternalCalls, type ExternalCallRequest } from './external-calls';
import { externalParts } from '../runtime/parts';

let fx: JailFixture;
let ownWorkspace: string;

beforeAll(async () => {
  fx = await jailFixture();
  ownWorkspace = join(fx.home, 'threshold-workspace');
  mkdirSync(ownWorkspace, { recursive: true });
});
afterAll(async () => {
  await fx?.close();
});

async function coreAt(level: Level): Promise<{ core: ThresholdCore; external: ExternalCalls }> {
  const dataDir = join(fx.root, `data-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dataDir, { recursive: true });
  const core = await testCore({ level, dataDir, paths: { home: fx.home, workspace: ownWorkspace, appDirs: [fx.configDir, fx.dataDir, dataDir] } });
  return { core, external: new ExternalCalls(externalParts(core), { ticketTtlMs: 60_000 }) };
}

const request = (over: Partial<ExternalCallRequest> = {}): ExternalCallRequest => ({
  agent: 'claude-code',
  sessionId: 'b8053aea-747e-4011-ba47-df261032bdc8',
  tool: 'run_command',
  args: { command: 'ls' },
  cwd: fx.workspace,
  workspace: fx.workspace,
  jail: false,
  ...over,
});

describe('a call another agent makes, judged by the one gate', () => {
  it('a read runs unasked and goes back to the agent, recorded with who asked', async () => {
    const { core, external } = await coreAt('supervised');
    const v = await external.review(request());
    const row = core.store.calls.get(v.callId)!;
    expect({ decision: v.decision, decidedBy: v.decidedBy, run: v.run, state: row.state, origin: JSON.parse(row.origin!), session: row.session_id, title: core.store.sessions.get(row.session_id)?.title }).toEqual({
      decision: 'allow',
      decidedBy: 'level:supervised',
      run: null,
      state: 'handed_off',
      origin: { kind: 'external', name: 'Claude Code', workspace: '~/project' },
      session: 'claude-code-b8053aea-747e-4011-ba47-df261032bdc8',
      title: 'Claude Code in ~/project',
    });
  });

  it.each([
    { outcome: 'approve_once', note: undefined, decision: 'allow', reason: /^Approved in Threshold \(approve_once\)\.$/ },
    { outcome: 'deny', note: 'not on main', decision: 'deny', reason: /denied this call.*Their note: not on main/ },
    { outcome: 'skip', note: undefined, decision: 'deny', reason: /skipped this call/ },
  ] as const)('a write asks; the card, decided $outcome, is what the agent is told', async ({ outcome, note, decision, reason }) => {
    const { core, external } = await coreAt('supervised');
    const answer = external.review(request({ args: { command: 'touch made.txt' }, agentCallId: 'toolu_1' }));
    const card = await nextPending(core);
    expect({ origin: card.origin, session: card.session_id, tool: card.tool, args: card.args }).toEqual({ origin: { kind: 'external', name: 'Claude Code', workspace: '~/project' }, session: 'claude-code-b8053aea-747e-4011-ba47-df261032bdc8', tool: 'run_command', args: { command: 'touch made.txt' } });
    const decided = await core.gate.decideApproval({ approvalId: card.id, hash: card.hash, outcome, surface: 'control', note });
    expect(decided.ok).toBe(true);
    const v = await answer;
    expect({ decision: v.decision, approval: v.approvalId, reason: reason.test(v.reason) }).toEqual({ decision, approval: card.id, reason: true });
    expect(core.store.calls.get(v.callId)!.state).toBe(decision === 'allow' ? 'handed_off' : 'refused');
  });

  it('a hook that goes away (killed, timed out) takes its card with it: cancelled, never approvable', async () => {
    const { core, external } = await coreAt('supervised');
    const gone = new AbortController();
    const answer = external.review(request({ args: { command: 'touch made.txt' } }), gone.signal);
    const card = await nextPending(core);
    gone.abort();
    const v = await answer;
    expect({ decision: v.decision, outcome: v.outcome, pending: core.gate.listPending().length }).toEqual({ decision: 'deny', outcome: 'cancelled', pending: 0 });
    const late = await core.gate.decideApproval({ approvalId: card.id, hash: card.hash, outcome: 'approve_once', surface: 'control' });
    expect(late.ok).toBe(false);
  });

  it('at auto-edit a command the agent would run itself asks: outside the jail nothing confines or undoes it', async () => {
    const { core, external } = await coreAt('auto-edit');
    const gone = new AbortController();
    const answer = external.review(request({ args: { command: 'touch made.txt' } }), gone.signal);
    const card = await nextPending(core);
    expect(card.reason).toMatch(/outside it \(the agent that asked runs it itself\)/);
    gone.abort();
    await answer;
  });

  it('at auto-edit a file edit the agent makes itself is allowed after a checkpoint of its project', async () => {
    const { core, external } = await coreAt('auto-edit');
    writeFileSync(join(fx.workspace, 'notes.md'), 'before\n');
    const v = await external.review(request({ tool: 'write_file', args: { path: join(fx.workspace, 'notes.md'), content: 'after\n' } }));
    expect({ decision: v.decision, checkpoint: v.checkpointId !== null, state: core.store.calls.get(v.callId)!.state }).toEqual({ decision: 'allow', checkpoint: true, state: 'handed_off' });
    writeFileSync(join(fx.workspace, 'notes.md'), 'after\n');
    await core.checkpoints.restore(v.checkpointId!, 'test');
    expect(readFileSync(join(fx.workspace, 'notes.md'), 'utf8')).toBe('before\n');
  });

  it('with the jail, an allowed command runs once in Threshold\'s jail, in the project, after a checkpoint that undoes it', async () => {
    const { core, external } = await coreAt('auto-edit');
    const w = await external.review(request({ args: { command: 'echo jailed > jailed.txt' }, jail: true }));
    expect({ decision: w.decision, ticket: typeof w.run?.token }).toEqual({ decision: 'allow', ticket: 'string' });
    const ran = await external.run(w.run!.token);
    expect({ status: ran?.status, exit: ran?.exitCode, file: readFileSync(join(fx.workspace, 'jailed.txt'), 'utf8'), checkpoint: ran?.checkpointId !== null, note: ran?.notes.some((n) => n.includes('threshold checkpoints restore')) }).toEqual({ status: 'succeeded', exit: 0, file: 'jailed\n', checkpoint: true, note: true });
    expect(await external.run(w.run!.token)).toBeNull();
    expect(core.store.calls.get(w.callId)!.state).toBe('succeeded');
    await core.checkpoints.restore(ran!.checkpointId!, 'test');
    expect(existsSync(join(fx.workspace, 'jailed.txt'))).toBe(false);
  });

  it("even approved, the agent's command in the jail does not read a credential: the jail hides it", async () => {
    const { core, external } = await coreAt('full');
    const answer = external.review(request({ args: { command: `cat ${fx.home}/.ssh/id_ed25519 > leak.txt; true` }, jail: true }));
    const card = await nextPending(core);
    expect(card.floor).toBe('secret_read');
    await core.gate.decideApproval({ approvalId: card.id, hash: card.hash, outcome: 'approve_once', surface: 'control' });
    const v = await answer;
    const ran = await external.run(v.run!.token);
    expect({ status: ran?.status, leaked: readFileSync(join(fx.workspace, 'leak.txt'), 'utf8').includes(fx.secret) }).toEqual({ status: 'succeeded', leaked: false });
  });

  it.each([
    { name: 'the home folder', workspace: () => fx.home },
    { name: 'the root', workspace: () => '/' },
    { name: "Threshold's data directory", workspace: () => fx.dataDir },
    { name: 'a relative path', workspace: () => 'project' },
    { name: 'a folder that does not exist', workspace: () => join(fx.home, 'nowhere') },
  ])('a project that cannot be a workspace ($name) is not one: the call is judged against Threshold\'s own', async ({ workspace }) => {
    const { external } = await coreAt('auto-edit');
    const v = await external.review(request({ tool: 'write_file', args: { path: join(fx.home, 'x.txt'), content: '' }, workspace: workspace(), cwd: fx.home }), AbortSignal.timeout(200));
    expect({ workspace: v.workspace, decision: v.decision }).toEqual({ workspace: ownWorkspace, decision: 'deny' });
  });

  it("Codex's own prompt for a call Threshold just allowed is answered from that decision: no second card", async () => {
    const { core, external } = await coreAt('supervised');
    const asked = external.review(request({ agent: 'codex', args: { command: 'touch twice.txt' } }));
    const card = await nextPending(core);
    await core.gate.decideApproval({ approvalId: card.id, hash: card.hash, outcome: 'approve_once', surface: 'control' });
    const first = await asked;
    const again = await external.review(request({ agent: 'codex', event: 'permission_request', args: { command: 'touch twice.txt' } }), AbortSignal.timeout(2000));
    expect({ first: first.decision, again: again.decision, sameCall: again.callId === first.callId, pending: core.gate.listPending().length, reason: again.reason }).toEqual({ first: 'allow', again: 'allow', sameCall: true, pending: 0, reason: expect.stringMatching(/^Threshold allowed this call moments ago/) });
  });

  it("Codex's own prompt for another call (or the same command elsewhere) is judged afresh", async () => {
    const { core, external } = await coreAt('supervised');
    const gone = new AbortController();
    const answer = external.review(request({ agent: 'codex', event: 'permission_request', args: { command: 'touch other.txt' } }), gone.signal);
    const card = await nextPending(core);
    expect(card.args).toEqual({ command: 'touch other.txt' });
    gone.abort();
    expect((await answer).decision).toBe('deny');
  });

  it('an id the agent chose cannot break out of its session name', async () => {
    const { core, external } = await coreAt('supervised');
    const v = await external.review(request({ sessionId: '../../x;rm -rf /\n' + 'a'.repeat(100) }));
    expect(core.store.calls.get(v.callId)!.session_id).toBe(`claude-code-xrm-rf${'a'.repeat(42)}`);
  });
});
