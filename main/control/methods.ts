// The control API's methods: parameters checked with zod, then handed to the core. Empty lists are
// lists; failures are RpcErrors with a stable code.
import { z } from 'zod';
import { OUTCOMES } from '../../common/approvals';
import { LEVELS } from '../../common/domain';
import type { Agent } from '../agent/agent';
import type { ThresholdCore } from '../gate/core';
import { realDir } from '../config/dirs';
import { RpcError } from './rpc';

const grantPattern = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('argv'), argv: z.array(z.string().min(1)).min(1), redirects: z.array(z.string().min(1)).optional() }).strict(),
  z.object({ kind: z.literal('path'), glob: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('url'), prefix: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('tool') }).strict(),
]);
const duration = z.enum(['15m', '1h', 'session', 'always']);
const empty = z.object({}).strict().optional();

export const methodSchemas = {
  'approval.list_pending': empty,
  'approval.list_recent_decisions': z
    .object({
      limit: z.number().int().min(1).max(500).optional(),
      session_id: z.string().min(1).optional(),
      outcome: z.enum(OUTCOMES).optional(),
      tool: z.string().min(1).optional(),
      since: z.number().int().min(0).optional(),
    })
    .strict()
    .optional(),
  'approval.decide': z
    .object({
      id: z.string().min(1),
      hash: z.string().regex(/^[0-9a-f]{64}$/, 'hash must be the 64-character content hash shown with the approval'),
      outcome: z.string().min(1),
      note: z.string().max(2000).optional(),
      grant: z.object({ patterns: z.array(grantPattern).min(1).optional(), duration: duration.optional() }).strict().optional(),
    })
    .strict(),
  'approval.request': z
    .object({
      tool: z.string().min(1),
      args: z.record(z.string(), z.unknown()),
      session_id: z.string().min(1).optional(),
      turn_id: z.string().min(1).optional(),
      cwd: z.string().min(1).optional(),
      unattended: z.boolean().optional(),
      wait: z.boolean().optional(),
      /** Run an approved run_command in the jail and return its outcome. */
      execute: z.boolean().optional(),
    })
    .strict(),
  'approval.record_outcome': z
    .object({
      call_id: z.string().min(1),
      status: z.enum(['succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled']),
      exit_code: z.number().int().nullable().optional(),
      signal: z.string().nullable().optional(),
      duration_ms: z.number().int().min(0).nullable().optional(),
      error: z.string().nullable().optional(),
    })
    .strict(),
  'approval.follow_ups': z.object({ session_id: z.string().min(1).optional() }).strict().optional(),
  'grants.list': z.object({ include_inactive: z.boolean().optional() }).strict().optional(),
  'grants.create': z
    .object({ tool: z.string().min(1), pattern: grantPattern, duration: duration.optional(), session_id: z.string().min(1).optional(), note: z.string().max(500).optional() })
    .strict(),
  'grants.update': z.object({ id: z.string().min(1), pattern: grantPattern.optional(), duration: duration.optional(), note: z.string().max(500).nullable().optional() }).strict(),
  'grants.revoke': z.object({ id: z.string().min(1) }).strict(),
  'audit.verify': empty,
  'audit.list': z.object({ limit: z.number().int().min(1).max(500).optional(), before: z.number().int().optional(), kind: z.string().optional() }).strict().optional(),
  'sandbox.list_offers': empty,
  'sandbox.consent': z.object({ id: z.string().min(1), choice: z.enum(['session', 'always', 'deny']) }).strict(),
  'checkpoints.list': z.object({ workspace: z.string().min(1).optional(), limit: z.number().int().min(1).max(500).optional() }).strict().optional(),
  'checkpoints.diff': z.object({ id: z.string().min(1) }).strict(),
  'checkpoints.restore': z.object({ id: z.string().min(1) }).strict(),
  'settings.get': empty,
  'settings.set_level': z.object({ level: z.enum(LEVELS) }).strict(),
  'agent.info': empty,
  'agent.send': z
    .object({
      message: z.string().min(1).max(100_000),
      session_id: z.string().min(1).optional(),
      /** An unattended turn: every call that would ask is denied, never reviewed. */
      unattended: z.boolean().optional(),
      /** Wait for the turn to end (default) or return once it started. */
      wait: z.boolean().optional(),
    })
    .strict(),
  'agent.stop': z.object({ session_id: z.string().min(1) }).strict(),
  'agent.sessions': z.object({ limit: z.number().int().min(1).max(500).optional() }).strict().optional(),
  'agent.transcript': z.object({ session_id: z.string().min(1) }).strict(),
  'question.list': empty,
  'question.answer': z.object({ id: z.string().min(1), answer: z.string().min(1).max(20_000) }).strict(),
  'question.dismiss': z.object({ id: z.string().min(1) }).strict(),
} as const;

export type MethodName = keyof typeof methodSchemas;

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new RpcError(r.error.code, r.error.message);
  return r.value;
}

/** Handlers; `surface` names who decides (the control API). Without an agent its methods say so. */
export function createMethods(core: ThresholdCore, surface = 'control', agent: Agent | null = null) {
  let requestCounter = 0;
  const theAgent = (): Agent => {
    if (!agent) throw new RpcError('agent_unavailable', 'This Threshold runs without an agent (it hosts the gate only).');
    return agent;
  };
  return {
    'approval.list_pending': () => core.gate.listPending(),
    'approval.list_recent_decisions': (p: z.infer<(typeof methodSchemas)['approval.list_recent_decisions']>) => core.store.approvals.listDecisions({ limit: p?.limit ?? 50, ...p }),
    'approval.decide': async (p: z.infer<(typeof methodSchemas)['approval.decide']>) =>
      unwrap(await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: p.outcome, surface, note: p.note ?? null, grant: p.grant })),
    'approval.request': async (p: z.infer<(typeof methodSchemas)['approval.request']>) => {
      const sessionId = p.session_id ?? 'control';
      const turnId = p.turn_id ?? `${sessionId}-turn-${Date.now()}-${++requestCounter}`;
      const cwd = p.cwd ? realDir(p.cwd) : core.paths.workspace;
      const review = core.gate.review({ sessionId, turnId, turnKind: p.unattended ? 'unattended' : 'reactive', tool: p.tool, args: p.args, cwd });
      const summarise = (v: Awaited<typeof review>) => ({
        call_id: v.callId,
        hash: v.hash,
        run: v.run,
        decision: v.evaluation.decision,
        decided_by: v.evaluation.decidedBy,
        class: v.evaluation.class,
        explanation: v.evaluation.explanation,
        approval_id: v.approvalId,
        outcome: v.outcome,
        stop_turn: v.stopTurn,
        message: v.message || null,
      });
      if (p.wait !== false) {
        const v = await review;
        const summary = summarise(v);
        if (!p.execute || !v.run || p.tool !== 'run_command') return summary;
        const report = await core.execution.runCommand({ callId: v.callId, sessionId, command: String(p.args['command'] ?? ''), cwd, evaluation: v.evaluation });
        return { ...summary, execution: { status: report.status, exit_code: report.result?.exitCode ?? null, output: core.redactor.redactTextSync(report.text), checkpoint_id: report.checkpoint?.id ?? null, offers: report.offers } };
      }
      // Return as soon as the call is decided by policy or parked.
      const parked = new Promise<unknown>((resolve) => {
        const off = core.events.on('approval.requested', (a) => {
          if (a.turn_id === turnId) {
            off();
            resolve({ status: 'pending', approval_id: a.id, hash: a.hash, call_id: a.call_id });
          }
        });
        void review.then((v) => {
          off();
          resolve({ status: 'decided', ...summarise(v) });
        });
      });
      return parked;
    },
    'approval.record_outcome': (p: z.infer<(typeof methodSchemas)['approval.record_outcome']>) =>
      unwrap(core.recordOutcome(p.call_id, { status: p.status, exit_code: p.exit_code ?? null, signal: p.signal ?? null, duration_ms: p.duration_ms ?? null, error: p.error ?? null })),
    'approval.follow_ups': (p: z.infer<(typeof methodSchemas)['approval.follow_ups']>) => core.gate.awaitingFollowUps(p?.session_id),
    'grants.list': (p: z.infer<(typeof methodSchemas)['grants.list']>) => core.listGrants({ include_inactive: p?.include_inactive }),
    'grants.create': (p: z.infer<(typeof methodSchemas)['grants.create']>) => unwrap(core.createGrant(p, surface)),
    'grants.update': (p: z.infer<(typeof methodSchemas)['grants.update']>) => unwrap(core.updateGrant(p, surface)),
    'grants.revoke': (p: z.infer<(typeof methodSchemas)['grants.revoke']>) => unwrap(core.revokeGrant(p.id, surface)),
    'audit.verify': () => core.verifyAudit(),
    'audit.list': (p: z.infer<(typeof methodSchemas)['audit.list']>) => core.store.audit.list({ limit: p?.limit ?? 100, before: p?.before, kind: p?.kind }),
    'sandbox.list_offers': () => core.consent.pending(),
    'sandbox.consent': (p: z.infer<(typeof methodSchemas)['sandbox.consent']>) => unwrap(core.consent.decide(p.id, p.choice, surface)),
    'checkpoints.list': (p: z.infer<(typeof methodSchemas)['checkpoints.list']>) => core.checkpoints.list(p?.workspace, p?.limit),
    'checkpoints.diff': async (p: z.infer<(typeof methodSchemas)['checkpoints.diff']>) => {
      try {
        return await core.checkpoints.diff(p.id);
      } catch (err) {
        throw new RpcError((err as { code?: string }).code ?? 'internal_error', (err as Error).message);
      }
    },
    'checkpoints.restore': async (p: z.infer<(typeof methodSchemas)['checkpoints.restore']>) => {
      try {
        return await core.checkpoints.restore(p.id, surface);
      } catch (err) {
        throw new RpcError((err as { code?: string }).code ?? 'internal_error', (err as Error).message);
      }
    },
    'settings.get': () => core.settings(),
    'settings.set_level': (p: z.infer<(typeof methodSchemas)['settings.set_level']>) => unwrap(core.setLevel(p.level, surface)),
    'agent.info': () => ({ model: theAgent().modelLabel, running: theAgent().runningSessions() }),
    'agent.send': async (p: z.infer<(typeof methodSchemas)['agent.send']>) => {
      const handle = theAgent().send(p.session_id ?? null, p.message, { kind: p.unattended ? 'unattended' : 'reactive' });
      const started = { session_id: handle.sessionId, turn_id: handle.turnId, appended: handle.appended };
      if (p.wait === false || handle.appended) return started;
      const summary = await handle.done;
      return { ...started, turn_id: summary.turnId, reason: summary.reason, steps: summary.steps, text: summary.text, error: summary.error };
    },
    'agent.stop': (p: z.infer<(typeof methodSchemas)['agent.stop']>) => ({ stopped: theAgent().stop(p.session_id) }),
    'agent.sessions': (p: z.infer<(typeof methodSchemas)['agent.sessions']>) => {
      const a = theAgent();
      return core.store.sessions.list(p?.limit ?? 50).map((s) => ({ ...s, running: a.isRunning(s.id) }));
    },
    'agent.transcript': (p: z.infer<(typeof methodSchemas)['agent.transcript']>) => {
      theAgent();
      if (!core.store.sessions.get(p.session_id)) throw new RpcError('not_found', `No session ${p.session_id}.`);
      return core.store.transcripts.list(p.session_id);
    },
    'question.list': () => theAgent().questions.pending(),
    'question.answer': (p: z.infer<(typeof methodSchemas)['question.answer']>) => {
      if (!theAgent().questions.answer(p.id, p.answer)) throw new RpcError('not_found', `No open question ${p.id} (already answered, dismissed or timed out).`);
      return { id: p.id, outcome: 'answered' };
    },
    'question.dismiss': (p: z.infer<(typeof methodSchemas)['question.dismiss']>) => {
      if (!theAgent().questions.dismiss(p.id)) throw new RpcError('not_found', `No open question ${p.id} (already answered, dismissed or timed out).`);
      return { id: p.id, outcome: 'dismissed' };
    },
  } satisfies Record<MethodName, (p: never) => unknown>;
}
