// The operations' handlers: one implementation per operation of the table (common/operations.ts), shared
// by the Electron IPC, the web bridge and the JSON-RPC control API. Each surface builds its own set so
// that a decision records who made it (desktop, web, control). Answers are Result values, never throws.
import type { Handlers } from '../../common/invoke';
import type { ErrorValue, Result, Transport } from '../../common/operations';
import type { Agent } from '../agent/agent';
import { realDir } from '../config/dirs';
import type { SurfaceKind } from '../gate/approvers';
import type { ThresholdCore } from './core';
import { ExternalCalls } from '../hooks/external-calls';
import type { McpGatewayService } from '../mcp-gateway/service';
import { CursorError } from '../store/call-history-repo';
import type { CallFacts } from '../policy/tools';
import { previewGrant } from './grant-preview';
import { grantSuggestions } from './grant-suggestions';
import type { KeyConfirmation } from './key-binding';
import type { ModelSettings } from './model-settings';
import { historyOf } from './history';
import { externalParts } from './parts';
import { parseToolName, subjectOf } from '../policy/tools';
import { previewPolicy } from './policy-preview';
import type { PersonDecider } from '../../common/decided-by';
import type { RemoteService } from '../remote/service';

export interface HandlerDeps {
  version: string;
  /** The core; absent while it failed to open (every call then answers with that error). */
  core: ThresholdCore | null;
  coreError?: string;
  /** The agent; absent when the core failed or Threshold runs without one. */
  agent?: Agent | null;
  /** Stores the provider key in the OS keychain and switches the agent to it (absent: no keychain). */
  setApiKey?: (key: string) => Result<{ stored: true }>;
  /** Settings → Model (absent: no agent, so no provider to show). */
  model?: ModelSettings;
  /**
   * Asks the person at the desktop window before a provider key goes to an endpoint it is not bound to
   * (key-binding.ts). The desktop surface only: a page or the control API never moves a key.
   */
  confirmKeyUse?: KeyConfirmation;
  /** Who decides through this surface. */
  surface: SurfaceKind;
  /** The person deciding, when the surface alone does not say (a paired phone: person:phone:<device>). */
  person?: PersonDecider;
  /** Settings → Devices: chat bridges and paired phones (main/remote/service.ts). */
  remote?: RemoteService;
  /** The owner of commands the handlers start (approval.request with execute): aborted and awaited on dispose. */
  lifetime?: Lifetime;
  /** The web UI's address with its token, while web mode serves (null: off or not started). */
  webUrl?: () => string | null;
  /** Other agents' calls (their hooks): the runtime's, else one per core made on first use. */
  external?: ExternalCalls;
  /** The MCP servers `threshold mcp-gateway` fronts (absent: none are run for it). */
  mcpGateway?: McpGatewayService;
}

const externalByCore = new WeakMap<ThresholdCore, ExternalCalls>();
function externalCallsOf(core: ThresholdCore, given: ExternalCalls | undefined): ExternalCalls {
  if (given) return given;
  let e = externalByCore.get(core);
  if (!e) externalByCore.set(core, (e = new ExternalCalls(externalParts(core))));
  return e;
}

/** Work that must end before its owner is disposed. */
export interface Lifetime {
  signal: AbortSignal;
  track<T>(work: Promise<T>): Promise<T>;
}

export type { Handlers, RequestContext } from '../../common/invoke';

function fail(code: string, message: string): { ok: false; error: ErrorValue } {
  return { ok: false, error: { code, message } };
}
const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

/** The transport a surface speaks: the window and the browser are the UI; everything else is control. */
export function transportOf(surface: SurfaceKind): Transport {
  return surface === 'control' ? 'control' : 'ui';
}

async function fromThrow<T>(fn: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await fn());
  } catch (err) {
    return fail((err as { code?: string }).code ?? 'internal_error', (err as Error).message);
  }
}

export function createHandlers(deps: HandlerDeps): Handlers {
  const surface = deps.surface;
  let requestCounter = 0;
  const unavailable = () => fail('core_unavailable', deps.coreError ?? 'Threshold could not start its core.');
  const withCore = <T>(fn: (core: ThresholdCore) => Result<T> | Promise<Result<T>>): Result<T> | Promise<Result<T>> => (deps.core ? fn(deps.core) : unavailable());
  // The agent's operations: the core's error when there is no core, else a plain "no agent".
  const withAgent = <T>(fn: (agent: Agent, core: ThresholdCore) => Result<T> | Promise<Result<T>>): Result<T> | Promise<Result<T>> => {
    if (!deps.core) return unavailable();
    if (!deps.agent) return fail('agent_unavailable', 'This Threshold runs without an agent (it hosts the gate only).');
    return fn(deps.agent, deps.core);
  };
  const withModel = <T>(fn: (m: ModelSettings) => Result<T> | Promise<Result<T>>): Result<T> | Promise<Result<T>> => {
    if (!deps.core) return unavailable();
    if (!deps.model) return fail('agent_unavailable', 'This Threshold runs without an agent, so there is no model to set.');
    return fn(deps.model);
  };
  const withRemote = <T>(fn: (r: RemoteService) => Result<T> | Promise<Result<T>>): Result<T> | Promise<Result<T>> => {
    if (!deps.core) return unavailable();
    if (!deps.remote) return fail('remote_unavailable', 'Approvers away from the desk are not available in this Threshold.');
    return fn(deps.remote);
  };
  const noQuestion = (id: string) => fail('not_found', `No open question ${id} (already answered, dismissed or timed out).`);

  return {
    'app.get_info': () => ok({ name: 'Threshold', version: deps.version, runtime: surface === 'desktop' ? 'electron' : surface === 'web' ? 'web' : surface === 'phone' ? 'phone' : 'daemon' }),

    'app.get_web_address': () => {
      const url = deps.webUrl?.() ?? null;
      return url ? ok({ url }) : fail('not_found', 'This Threshold serves no web UI (it was started with --no-web, or web mode could not start: see its log).');
    },

    'approval.list_pending': () => withCore((c) => ok(c.gate.listPending())),
    'approval.list_decisions': (p) => withCore((c) => ok(historyOf(c).decisions({ ...p, limit: p?.limit ?? 50 }))),
    'approval.decide': (p) => withCore((c) => c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: p.outcome, surface, by: deps.person, note: p.note ?? null, grant: p.grant })),
    'approval.reveal': (p) => withCore((c) => c.gate.revealArgs(p.id, surface)),
    'approval.request': (p) =>
      withCore(async (core) => {
        const sessionId = p.session_id ?? 'control';
        const turnId = p.turn_id ?? `${sessionId}-turn-${Date.now()}-${++requestCounter}`;
        const cwd = p.cwd ? realDir(p.cwd) : core.paths.workspace;
        // A call without a runner: judged, recorded, parked; run here only when asked (execute).
        const review = core.calls.review({ sessionId, turnId, turnKind: p.unattended ? 'unattended' : 'reactive', tool: parseToolName(p.tool), args: p.args, cwd, origin: { kind: 'control' } });
        const summarise = (v: Awaited<typeof review>) => ({
          call_id: v.callId,
          hash: v.hash,
          run: v.run,
          decision: v.evaluation.decision,
          decided_by: v.evaluation.decidedBy,
          by: v.evaluation.decider,
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
          if (!p.execute || !v.run || p.tool !== 'run_command') return ok(summary);
          const run = core.calls.runCommand({ callId: v.callId, sessionId, command: String(p.args['command'] ?? ''), cwd, evaluation: v.evaluation }, deps.lifetime?.signal);
          const report = await (deps.lifetime ? deps.lifetime.track(run) : run);
          return ok({ ...summary, execution: { status: report.status, exit_code: report.result?.exitCode ?? null, output: core.redactor.redactTextSync(report.text), checkpoint_id: report.checkpoint?.id ?? null, offers: report.offers } });
        }
        // Return as soon as the call is decided by policy or parked.
        return ok(
          await new Promise<Record<string, unknown>>((resolve) => {
            const off = core.events.on('approval.requested', (a) => {
              if (a.turn_id !== turnId) return;
              off();
              resolve({ status: 'pending', approval_id: a.id, hash: a.hash, call_id: a.call_id });
            });
            void review.then((v) => {
              off();
              resolve({ status: 'decided', ...summarise(v) });
            });
          }),
        );
      }),
    'external.review': (p, request) =>
      withCore(async (c) => {
        const v = await externalCallsOf(c, deps.external).review(
          { agent: p.agent, event: p.event ?? 'pre_tool_use', sessionId: p.session_id, turnId: p.turn_id ?? null, agentCallId: p.agent_call_id ?? null, tool: parseToolName(p.tool), args: p.args, cwd: p.cwd, workspace: p.workspace, jail: (p.can_rewrite ?? false) && c.config.hooks.jail },
          request?.signal,
        );
        return ok({ decision: v.decision, outcome: v.outcome, reason: v.reason, call_id: v.callId, approval_id: v.approvalId, decided_by: v.decidedBy, by: v.by, class: v.class, run: v.run ? { token: v.run.token, expires_at: v.run.expiresAt } : null, checkpoint_id: v.checkpointId, workspace: v.workspace });
      }),
    'external.run': (p, request) =>
      withCore(async (c) => {
        const signals = [request?.signal, deps.lifetime?.signal].filter((s): s is AbortSignal => !!s);
        const work = externalCallsOf(c, deps.external).run(p.token, signals.length ? AbortSignal.any(signals) : undefined);
        const r = await (deps.lifetime ? deps.lifetime.track(work) : work);
        if (!r) return fail('not_found', 'There is no such run ticket: it was spent, it lapsed, or Threshold restarted since the call was allowed. Nothing ran.');
        return ok({ status: r.status, exit_code: r.exitCode, stdout: r.stdout, stderr: r.stderr, notes: r.notes, checkpoint_id: r.checkpointId });
      }),
    'mcp.list_tools': () =>
      withCore(async () => {
        if (!deps.mcpGateway) return fail('mcp_unavailable', 'This Threshold runs no MCP servers for the gateway.');
        const r = await deps.mcpGateway.listTools();
        return ok({ tools: r.tools.map((t) => ({ server: t.server, tool: t.tool, description: t.description, input_schema: t.inputSchema, annotations: t.annotations })), servers: r.servers });
      }),
    'mcp.call_tool': (p, request) =>
      withCore(async () => {
        if (!deps.mcpGateway) return fail('mcp_unavailable', 'This Threshold runs no MCP servers for the gateway.');
        const signals = [request?.signal, deps.lifetime?.signal].filter((s): s is AbortSignal => !!s);
        const work = deps.mcpGateway.callTool({ server: p.server, tool: p.tool, args: p.arguments, client: p.client, sessionId: p.session_id }, signals.length ? AbortSignal.any(signals) : undefined);
        const r = await (deps.lifetime ? deps.lifetime.track(work) : work);
        return ok({ decision: r.decision, reason: r.reason, call_id: r.callId, content: r.content, is_error: r.isError, ...(r.structuredContent !== undefined ? { structured_content: r.structuredContent } : {}) });
      }),
    'approval.record_outcome': (p) => withCore((c) => c.calls.recordOutcome(p.call_id, { status: p.status, exit_code: p.exit_code ?? null, signal: p.signal ?? null, duration_ms: p.duration_ms ?? null, error: p.error ?? null })),
    'approval.list_follow_ups': (p) => withCore((c) => ok(c.gate.awaitingFollowUps(p?.session_id))),

    'grant.list': (p) => withCore((c) => ok(c.listGrants({ include_inactive: p?.include_inactive }))),
    'grant.create': (p) => withCore((c) => c.createGrant(p, surface)),
    'grant.update': (p) => withCore((c) => c.updateGrant(p, surface)),
    'grant.revoke': (p) => withCore((c) => c.revokeGrant(p.id, surface)),
    'grant.preview': (p) =>
      withCore((c) => {
        let call: { text: string | null; facts: CallFacts | null } | null = null;
        let sessionId: string | null = null;
        if (p.approval_id) {
          const pending = c.gate.listPending().find((a) => a.id === p.approval_id);
          if (!pending) return fail('not_found', `No pending approval ${p.approval_id}.`);
          if (pending.tool !== p.tool) return fail('invalid_params', `Approval ${p.approval_id} is a ${pending.tool} call, not ${p.tool}.`);
          // The verdict on the call comes from its exact arguments (in memory while it waits); the text shown is the card's.
          call = { text: subjectOf(pending.tool, pending.args), facts: c.gate.pendingFacts(pending.id)?.facts ?? null };
          sessionId = pending.session_id;
        }
        const recent = c.store.calls
          .recentOfTool(p.tool, 24, sessionId)
          .map((r) => subjectOf(r.tool, parseJson(r.args_redacted)))
          .filter((t): t is string => !!t)
          .slice(0, 12);
        return ok(previewGrant({ tool: p.tool, patterns: p.patterns, call, recent, samples: p.samples }, c.paths, { now: Date.now() }));
      }),

    'approve_all.list': () => withCore((c) => ok(c.approveAll.list())),
    'approval.list_session': () => withCore((c) => ok(c.sessionApprovals.list())),
    'approval.revoke_session': (p) => withCore((c) => c.sessionApprovals.revoke(p.id, surface)),
    'approve_all.end': (p) => withCore((c) => c.approveAll.end(p.session_id, surface)),
    'call.list': (p) =>
      withCore((c) => {
        try {
          return ok(historyOf(c).calls({ ...p, limit: p?.limit ?? 100 }));
        } catch (err) {
          if (err instanceof CursorError) return fail('invalid_params', `Invalid params for call.list: ${err.message}`);
          throw err;
        }
      }),
    'call.get': (p) =>
      withCore((c) => {
        const call = historyOf(c).call(p.id);
        return call ? ok(call) : fail('not_found', `There is no call ${p.id}.`);
      }),
    'grant.list_suggestions': (p) =>
      withCore((c) => {
        let hash: string | undefined;
        if (p?.approval_id) {
          const pending = c.gate.listPending().find((a) => a.id === p.approval_id);
          if (!pending) return fail('not_found', `No pending approval ${p.approval_id}.`);
          // A floor or a call no grant could cover never gets a suggestion, however often it was approved.
          if (!pending.outcomes.includes('approve_always')) return ok([]);
          hash = pending.hash;
        }
        return ok(grantSuggestions(c, { now: Date.now(), limit: p?.limit, hash }));
      }),

    'audit.list': (p) => withCore((c) => ok(historyOf(c).audit({ limit: p?.limit ?? 100, before: p?.before, kind: p?.kind }))),
    'audit.verify': () => withCore((c) => ok(c.verifyAudit())),

    'sandbox.list_offers': () => withCore((c) => ok(c.consent.pending())),
    'sandbox.consent': (p) =>
      withCore((c) => {
        const r = c.consent.decide(p.id, p.choice, surface);
        // Every surface drops the card, whoever answered it.
        if (r.ok) c.events.emit('sandbox.decided', { ...r.value, choice: p.choice });
        return r;
      }),

    'checkpoint.list': (p) => withCore((c) => ok(c.checkpoints.list(p?.workspace, p?.limit))),
    'checkpoint.diff': (p) => withCore((c) => fromThrow(() => c.checkpoints.diff(p.id))),
    'checkpoint.plan_restore': (p) => withCore((c) => fromThrow(() => c.checkpoints.plan(p.id))),
    'checkpoint.restore': (p) => withCore((c) => fromThrow(() => c.checkpoints.restore(p.id, surface, p.expected_tree))),

    'settings.get': () => withCore((c) => ok(c.settings())),
    'settings.set_level': (p) => withCore((c) => c.setLevel(p.level, surface)),
    'settings.update': (p) =>
      withCore(async (c) => {
        const r = await c.updateAccessValidated(p.changes, surface);
        return r.ok ? ok(c.settings()) : r;
      }),
    'policy.preview': (p) => withCore(async (c) => ok(await previewPolicy(c, p.changes, p.limit ?? 50))),
    'settings.set_api_key': (p) => withCore(() => (deps.setApiKey ? deps.setApiKey(p.key) : fail('keychain_unavailable', `This Threshold has no OS keychain; set the key in the environment variable ${keyVariable(deps.model)} before starting it.`))),

    'model.get': () => withModel((m) => ok(m.view(!!deps.setApiKey))),
    'model.set': (p) => withModel((m) => m.set(p, surface, !!deps.setApiKey, deps.confirmKeyUse)),
    'model.test': (p) => withModel(async (m) => ok(await (deps.lifetime ? deps.lifetime.track(m.test(p, deps.lifetime.signal, deps.confirmKeyUse)) : m.test(p, undefined, deps.confirmKeyUse)))),

    'agent.get_info': () => withAgent((a) => ok({ model: a.modelLabel, running: a.runningSessions() })),
    'agent.send': (p) =>
      withAgent(async (a) => {
        const handle = a.send(p.session_id ?? null, p.message, { kind: p.unattended ? 'unattended' : 'reactive' });
        const started = { session_id: handle.sessionId, turn_id: handle.turnId, appended: handle.appended };
        // The UI returns at once (the transcript streams as events); the control API waits by default.
        const wait = p.wait ?? transportOf(surface) === 'control';
        if (!wait || handle.appended) {
          handle.done.catch(() => undefined);
          return ok(started);
        }
        const summary = await handle.done;
        return ok({ ...started, turn_id: summary.turnId, reason: summary.reason, steps: summary.steps, text: summary.text, error: summary.error });
      }),
    'agent.stop': (p) => withAgent((a) => ok({ stopped: a.stop(p.session_id) })),
    'agent.list_sessions': (p) => withAgent((a, c) => ok(historyOf(c).sessions(p?.limit ?? 50).map((s) => ({ ...s, running: a.isRunning(s.id) })))),
    'agent.get_transcript': (p) =>
      withAgent((_a, c) => {
        const transcript = historyOf(c).transcript(p.session_id);
        return transcript ? ok(transcript) : fail('not_found', `No session ${p.session_id}.`);
      }),

    'remote.status': () => withRemote((r) => ok(r.status())),
    'remote.configure': (p) => withRemote((r) => r.configure(p, surface)),
    'remote.send_test': (p) => withRemote((r) => r.sendTest(p.bridge)),
    'remote.set_token': (p) => withRemote((r) => (surface === 'desktop' ? r.setToken(p.bridge, p.token) : fail('keychain_unavailable', 'Bridge tokens are stored from the desktop window, or set in the environment variable the config names.'))),
    'device.list': (p) => withRemote((r) => r.listDevices(p?.include_revoked)),
    'device.pair': () => withRemote((r) => r.pair(surface)),
    'device.revoke': (p) => withRemote((r) => r.revokeDevice(p.id, surface)),

    'question.list': () => withAgent((a) => ok(a.questions.pending())),
    'question.answer': (p) => withAgent((a) => (a.questions.answer(p.id, p.answer) ? ok({ id: p.id, outcome: 'answered' as const }) : noQuestion(p.id))),
    'question.dismiss': (p) => withAgent((a) => (a.questions.dismiss(p.id) ? ok({ id: p.id, outcome: 'dismissed' as const }) : noQuestion(p.id))),
  };
}

/** The environment variable that holds the key, as a sentence fragment. */
function keyVariable(model: ModelSettings | undefined): string {
  const name = model?.provider().cfg.apiKeyEnv;
  return name ? name : 'named by [provider] api_key_env';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}


