// Approved commands through the jail: the class a decision earns, checkpoints, outcomes, sandbox consent.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCore } from '../../test/support/core';
import { jailFixture, type JailFixture } from '../../test/support/jail';
import type { Evaluation } from '../policy/evaluate';
import type { ThresholdCore } from '../runtime/core';
import { jailClassFor } from './run-command';
import type { ConsentOffer } from './sandbox-consent';

let fx: JailFixture;
let core: ThresholdCore;
const offers: ConsentOffer[] = [];
beforeAll(async () => {
  fx = await jailFixture();
  core = await testCore({ level: 'auto-edit', paths: { home: fx.home, workspace: fx.workspace, appDirs: [fx.configDir, fx.dataDir] }, dataDir: fx.dataDir });
  core.events.on('sandbox.denied', (o) => offers.push(o));
  // A person approves whatever asks here: these tests are about what happens after approval.
  core.events.on('approval.requested', (p) => void core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' }));
});
afterAll(async () => {
  core.dispose();
  await fx.close();
});

async function runThroughGate(command: string, sessionId = 's1') {
  const v = await core.calls.review({ sessionId, turnId: `t-${Math.random()}`, turnKind: 'reactive', tool: 'run_command', args: { command }, cwd: fx.workspace });
  if (!v.run) throw new Error(`not allowed: ${v.message}`);
  return { verdict: v, report: await core.calls.runCommand({ callId: v.callId, sessionId, command, cwd: fx.workspace, evaluation: v.evaluation }) };
}

describe('the jail a decision earns', () => {
  const e = (over: Partial<Evaluation>): Evaluation => ({ decision: 'allow', tool: 'run_command', tier: 'exec', class: 'write', effects: ['command_exec', 'file_write'], flags: [], hardline: false, reasons: [], decider: { kind: 'level', level: 'supervised' }, decidedBy: 'level:supervised', confined: false, segment: null, explanation: '', floor: null, grants: [], reviewable: false, ...over });
  it.each([
    { name: 'a read stays read-only', ev: e({ class: 'read', effects: ['command_exec', 'file_read'] }), want: 'read' },
    { name: 'a write gets the workspace', ev: e({}), want: 'write' },
    { name: 'an approved network call gets the network', ev: e({ class: 'network', effects: ['command_exec', 'network'], decidedBy: 'approval' }), want: 'network' },
    { name: 'an unknown program approved by a person may reach the network', ev: e({ effects: ['command_exec', 'network', 'file_write'] }), want: 'network' },
    { name: 'an auto-edit allow never gets the network, whatever the command can reach', ev: e({ effects: ['command_exec', 'network', 'file_write'], decider: { kind: 'level', level: 'auto-edit' }, decidedBy: 'level:auto-edit', confined: true }), want: 'write' },
  ])('$name', ({ ev, want }) => {
    expect(jailClassFor(ev)).toBe(want);
  });
});

describe('running approved commands', () => {
  it('checkpoints first, runs jailed, records the outcome once', async () => {
    const { verdict, report } = await runThroughGate('echo made > made.txt');
    expect({ status: report.status, file: readFileSync(join(fx.workspace, 'made.txt'), 'utf8'), checkpoint: report.checkpoint?.call_id }).toEqual({ status: 'succeeded', file: 'made\n', checkpoint: verdict.callId });
    expect(core.store.outcomes.get(verdict.callId)).toMatchObject({ status: 'succeeded', exit_code: 0 });
    expect(core.calls.recordOutcome(verdict.callId, { status: 'failed', exit_code: 1, signal: null, duration_ms: 1 })).toMatchObject({ ok: false });
  });

  it('a checkpoint shows what the call changed and restores it, with an undo and an audit entry', async () => {
    const { report } = await runThroughGate('echo changed > README.md && echo extra > extra.txt');
    const id = report.checkpoint!.id;
    const diff = await core.checkpoints.diff(id);
    expect(diff.stat).toMatch(/README\.md[\s\S]*extra\.txt/);
    const { safety } = await core.checkpoints.restore(id, 'test');
    expect({ readme: readFileSync(join(fx.workspace, 'README.md'), 'utf8'), extra: existsSync(join(fx.workspace, 'extra.txt')) }).toEqual({ readme: '# project\n', extra: false });
    expect(core.store.audit.list({ kind: 'checkpoint.restored' })[0]).toMatchObject({ subject: id, data: { undo_checkpoint: safety.id } });
    await core.checkpoints.restore(safety.id, 'test');
    expect(readFileSync(join(fx.workspace, 'README.md'), 'utf8')).toBe('changed\n');
  });

  it('tells the model the sandbox blocked a write, offers the path once, and the grant then works', async () => {
    const target = join(fx.outside, 'report.txt');
    const first = await runThroughGate(`echo data > ${target}`);
    expect(first.report.status).toBe('failed');
    expect(first.report.text).toMatch(/The sandbox, not the task, blocked writing .*report\.txt/);
    const offer = first.report.offers[0]!;
    expect({ path: offer.path, access: offer.access, raised: offers.some((o) => o.id === offer.id) }).toEqual({ path: fx.outside, access: 'write', raised: true });
    const again = await runThroughGate(`echo data > ${target}`);
    expect(again.report.offers).toEqual([]);
    expect(core.consent.decide(offer.id, 'session', 'test')).toMatchObject({ ok: true });
    const granted = await runThroughGate(`echo data > ${target}`);
    expect({ status: granted.report.status, written: readFileSync(target, 'utf8') }).toEqual({ status: 'succeeded', written: 'data\n' });
    const otherSession = await runThroughGate(`echo data > ${join(fx.outside, 'other.txt')}`, 's2');
    expect(otherSession.report.status).toBe('failed');
  });

  it('never offers the home folder or a credential location', async () => {
    const r = await core.calls.runCommand({ callId: (await core.calls.review({ sessionId: 's3', turnId: 't', turnKind: 'reactive', tool: 'run_command', args: { command: 'true' }, cwd: fx.workspace })).callId, sessionId: 's3', command: `echo x > ${fx.home}/.bashrc; echo y > ${fx.home}/.ssh/config; echo z > /new-root-file`, cwd: fx.workspace, evaluation: { decision: 'allow', tool: 'run_command', tier: 'exec', class: 'write', effects: ['command_exec', 'file_write'], flags: [], hardline: false, reasons: [], decider: { kind: 'human', surface: 'desktop' }, decidedBy: 'approval', confined: false, segment: null, explanation: '', floor: null, grants: [], reviewable: false } });
    expect({ violations: r.result!.violations.length >= 2, offers: r.offers }).toEqual({ violations: true, offers: [] });
  });
});
