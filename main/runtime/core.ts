// The core: the services of one data directory, built here and owned here (the composition root's
// half that both the desktop app and `serve` share, main/runtime/runtime.ts builds the rest around it):
// the store, the gate (the decision), the call pipeline (a call's owner, with its runners), the executor,
// checkpoints, consent, approvers and the access settings. Services take narrow pieces of it; only the
// runtime's own read models (history, previews) and tests read its store.
import { randomBytes } from 'node:crypto';
import type { GrantDuration, GrantRecord } from '../../common/approvals';
import { LEVELS, type GrantPattern, type Level } from '../../common/domain';
import { lockDataDir } from '../config/data-dir-lock';
import { parseOrigin } from '../../common/origin';
import { checkDataDir } from '../config/dirs';
import { applyChange, fileLayerOfConfig, layerAsToml, layerFromRows, layerToRows, looseningProblems, mergeLayers, mergeTables, UI_KEY_PREFIX, type AccessChange, type AccessLayer, type EffectiveAccess } from '../config/layers';
import { accessView, validUiRow } from '../config/access-view';
import { ConfigError, configFromObject, type ThresholdConfig } from '../config/load';
import { initClassifier } from '../policy/classifier';
import { hostAllowed } from '../../common/hosts';
import type { PathContext } from '../policy/paths';
import type { McpToolDeclaration } from '../policy/tools';
import { Redactor } from '../redact/redactor';
import type { VerifyResult } from '../store/audit-repo';
import { newId } from '../store/ids';
import type { CallRow } from '../store/calls-repo';
import { Store } from '../store/store';
import { Executor } from '../../executor/run';
import { placeholderJournalPath } from '../../executor/placeholders';
import type { Resolver } from '../../executor/net/destination';
import { hostPort } from '../../common/hosts';
import { ApproveAllService } from '../gate/approve-all';
import { ApproverRegistry } from '../gate/approvers';
import { SessionApprovals } from '../gate/session-approvals';
import { CoreEventBus } from '../gate/events';
import { ApprovalGate } from '../gate/gate';
import { grantPatternProblem, grantScope } from '../gate/proposals';
import { CheckpointService } from '../calls/checkpoints';
import { fileEditRunner, listDirRunner, readFileRunner, searchFilesRunner } from '../calls/file-tools';
import { openPathRunner } from '../calls/open-path';
import { CallPipeline } from '../calls/pipeline';
import { CallRecorder } from '../calls/record';
import { CommandRunner } from '../calls/run-command';
import { SandboxConsent, type ConsentOffer } from '../calls/sandbox-consent';
import { webFetchRunner } from '../calls/web-fetch';
import { normaliseGrantPattern } from '../../common/grant-pattern';
import { judgeGrantWidth } from '../policy/grant-width';

export interface CoreOptions {
  dataDir: string;
  /** For tests: an executor other than the default jailed one. */
  executor?: Executor;
  config: ThresholdConfig;
  paths: PathContext;
  /** For tests: an in-memory store instead of the data directory's database. */
  store?: Store;
  now?: () => number;
  /** For tests: name resolution for the default executor (the egress proxy and web_fetch) instead of the system's. */
  resolveHost?: Resolver;
}

export type CoreResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

export class ThresholdCore {
  /** The composition root's own: the runtime's read models (history, previews) and tests read it; services get narrow pieces. */
  readonly store: Store;
  readonly events = new CoreEventBus();
  readonly approvers = new ApproverRegistry();
  readonly redactor: Redactor;
  /** The decision: judge, shortcut, park, decide, waiters and timers. */
  readonly gate: ApprovalGate;
  /** A call's owner from request to result (the gate decides, a runner runs, the recorder records). */
  readonly calls: CallPipeline;
  readonly runtimeId = `rt_${randomBytes(6).toString('hex')}`;
  readonly executor: Executor;
  readonly checkpoints: CheckpointService;
  readonly consent: SandboxConsent;
  /** The run_command runner: its allowlist is also what web_fetch may reach. */
  readonly commands: CommandRunner;
  /** Sessions in approve-all mode: listed on every surface, ended from any (audited). */
  readonly approveAll: ApproveAllService;
  /** Approvals for the session (approve_session): listed as session grants, revoked from any surface (audited). */
  readonly sessionApprovals: SessionApprovals;
  /** Calls the previous process left in flight, ended at start as interrupted or not run. */
  readonly recovered: readonly CallRow[];
  private readonly recorder: CallRecorder;
  private readonly now: () => number;
  private releaseLock: (() => void) | null = null;
  private mcpTools: () => Readonly<Record<string, McpToolDeclaration>> | undefined = () => undefined;
  private retentionTimer: NodeJS.Timeout | null = null;
  private accessCache: EffectiveAccess | null = null;

  private constructor(readonly o: CoreOptions) {
    this.now = o.now ?? Date.now;
    if (!o.store) {
      checkDataDir(o.dataDir);
      this.releaseLock = lockDataDir(o.dataDir);
    }
    try {
      this.store = o.store ?? Store.openDataDir(o.dataDir);
    } catch (err) {
      this.releaseLock?.();
      throw err;
    }
    this.redactor = new Redactor({ home: o.paths.home });
    this.recorder = new CallRecorder({ store: this.store, redactor: this.redactor, events: this.events, runtimeId: this.runtimeId, now: this.now });
    // No call of this process exists yet: whatever is still in flight was cut short by the previous one.
    this.recovered = this.recorder.recoverInFlight();
    // After the lock: the placeholders an earlier run of this data directory left are this process's to remove.
    this.executor = o.executor ?? new Executor({ home: o.paths.home, appDirs: o.paths.appDirs, unjailed: o.config.executor.unjailed, limits: o.config.executor.limits, placeholderJournal: placeholderJournalPath(o.dataDir), ...(o.resolveHost ? { resolveHost: o.resolveHost } : {}) });
    this.checkpoints = new CheckpointService(this.store, o.dataDir, this.now, o.config.executor.checkpointMaxFileBytes, this.redactor);
    this.consent = new SandboxConsent(this.store, () => this.o.paths, this.now, this.redactor);
    this.gate = new ApprovalGate({
      store: this.store,
      redactor: this.redactor,
      commit: this.recorder.commit,
      approvers: this.approvers,
      policy: {
        level: () => this.level(),
        rules: () => this.access().rules,
        configGrants: () => o.config.grants,
        paths: () => o.paths,
        mcpTools: () => this.mcpTools(),
        // The configured allowlist and the host grants in force for the call's session (the same two the
        // egress proxy applies when the call runs).
        hostAllowed: (host, port, sessionId) => hostAllowed(host, port, [...o.config.network.allowHosts, ...this.consent.hosts(sessionId)]),
      },
      ttlMs: () => this.access().approvalTtlSeconds * 1000,
      runtimeId: this.runtimeId,
      now: this.now,
    });
    this.approveAll = new ApproveAllService(this.store, this.events, this.redactor, this.now);
    this.sessionApprovals = new SessionApprovals(this.store, (r) => this.recorder.sessionApprovalRevoked(r), this.redactor, this.now);
    const paths = () => this.o.paths;
    const raiseOffer = (offer: ConsentOffer) => this.events.emit('sandbox.denied', offer);
    this.commands = new CommandRunner({
      executor: this.executor,
      checkpoints: this.checkpoints,
      consent: this.consent,
      config: () => this.o.config.executor,
      allowHosts: () => this.o.config.network.allowHosts,
      paths,
      raiseOffer,
      output: (callId, stream, chunk) => this.events.emit('call.output', { call_id: callId, stream, chunk: this.redactor.redactTextSync(chunk) }),
    });
    this.calls = new CallPipeline({
      gate: this.gate,
      recorder: this.recorder,
      redactor: this.redactor,
      workspace: () => this.o.paths.workspace,
      now: this.now,
      runners: {
        run_command: this.commands,
        read_file: readFileRunner(paths),
        list_dir: listDirRunner(paths),
        search_files: searchFilesRunner(paths, () => this.executor),
        write_file: fileEditRunner('write', paths, this.checkpoints),
        edit_file: fileEditRunner('edit', paths, this.checkpoints),
        open_path: openPathRunner(paths),
        web_fetch: webFetchRunner({
          allowHostsFor: (sessionId) => this.commands.allowHostsFor(sessionId),
          resolve: this.executor.resolveHost,
          offerHost: (t, call) => {
            const [offer] = this.consent.offersFor([{ kind: 'host_denied', target: hostPort(t.host, t.port), evidence: t.evidence, host: { name: t.host, port: t.port, grantable: true } }], call);
            if (offer) raiseOffer(offer);
            return offer ?? null;
          },
        }),
      },
    });
  }

  /** Opens the core: the classifier, the data directory (locked for this process), the store. */
  static async open(o: CoreOptions): Promise<ThresholdCore> {
    await initClassifier();
    const core = new ThresholdCore(o);
    core.startRetention();
    return core;
  }

  /** Applies the configured audit retention now and every hour. */
  private startRetention(): void {
    const r = this.o.config.auditRetention;
    if (r.maxEntries === undefined && r.maxAgeDays === undefined) return;
    const apply = () => {
      const removed = this.store.audit.retain({ maxEntries: r.maxEntries, maxAgeMs: r.maxAgeDays !== undefined ? r.maxAgeDays * 86_400_000 : undefined, now: this.now() });
      if (removed) this.store.transaction(() => this.store.audit.append({ at: this.now(), kind: 'audit.retained', data: this.redactor.redactRecord({ removed, max_entries: r.maxEntries ?? null, max_age_days: r.maxAgeDays ?? null }) }));
    };
    apply();
    this.retentionTimer = setInterval(apply, 3_600_000);
    this.retentionTimer.unref();
  }

  /** The MCP tools the agent has, so the gate judges them by their declarations. */
  setMcpTools(source: () => Readonly<Record<string, McpToolDeclaration>> | undefined): void {
    this.mcpTools = source;
  }

  get paths(): PathContext {
    return this.o.paths;
  }

  get config(): ThresholdConfig {
    return this.o.config;
  }

  /** The effective agent access (defaults < file < this page, managed as the ceiling), read at every call. */
  access(): EffectiveAccess {
    this.accessCache ??= mergeLayers(fileLayerOfConfig(this.o.config), this.uiLayer(), this.o.config.managed ?? null);
    return this.accessCache;
  }

  /** The live level: the effective access's. */
  level(): Level {
    return this.access().level;
  }

  /** The Settings page's layer as stored; a row that is not a valid value is left out (the file's value holds). */
  uiLayer(): AccessLayer {
    const rows = this.store.settings.withPrefix(UI_KEY_PREFIX);
    return layerFromRows(Object.fromEntries(Object.entries(rows).filter(([k, v]) => validUiRow(k, v))));
  }

  setLevel(level: string, by: string): CoreResult<{ level: Level }> {
    if (!(LEVELS as readonly string[]).includes(level)) return { ok: false, error: { code: 'invalid_level', message: `"${level}" is not a level (${LEVELS.join(', ')}).` } };
    const r = this.updateAccess({ level: level as Level }, by);
    return r.ok ? { ok: true, value: { level: this.level() } } : r;
  }

  /**
   * Changes the Settings page's layer. The result is validated as the config file is (the file merged
   * with the layer, through the same checks), and refused when it would loosen the managed policy; the
   * file itself is never written. Applies from the next call.
   */
  async updateAccessValidated(change: AccessChange, by: string): Promise<CoreResult<EffectiveAccess>> {
    const next = applyChange(this.uiLayer(), change);
    const problem = await this.layerProblem(next);
    if (problem) return { ok: false, error: problem };
    return this.updateAccess(change, by);
  }

  /**
   * Why a page layer cannot be used, or null: the managed ceiling first (the administrator's refusal is
   * the one to tell, whatever else is wrong), then the config file's own checks.
   */
  async layerProblem(layer: AccessLayer): Promise<{ code: string; message: string } | null> {
    const loose = looseningProblems(layer, this.o.config.managed ?? null)[0];
    if (loose) return { code: 'managed_policy', message: `${loose[0]}: ${loose[1]}.` };
    try {
      await configFromObject(mergeTables(this.o.config.raw, layerAsToml(layer)), 'Settings → Agent access', this.o.paths);
    } catch (err) {
      if (err instanceof ConfigError) return { code: 'invalid_setting', message: `${err.key ? err.key + ': ' : ''}${err.problem}.` };
      throw err;
    }
    return null;
  }

  /** Writes the page's layer (checked against the managed ceiling only; see updateAccessValidated). */
  updateAccess(change: AccessChange, by: string): CoreResult<EffectiveAccess> {
    const before = this.access();
    const next = applyChange(this.uiLayer(), change);
    const loose = looseningProblems(next, this.o.config.managed ?? null)[0];
    if (loose) return { ok: false, error: { code: 'managed_policy', message: `${loose[0]}: ${loose[1]}.` } };
    const after = mergeLayers(fileLayerOfConfig(this.o.config), next, this.o.config.managed ?? null);
    const onlyLevel = Object.keys(change).every((k) => k === 'level');
    const at = this.now();
    this.store.transaction(() => {
      this.store.settings.replacePrefix(UI_KEY_PREFIX, layerToRows(next), at);
      this.store.audit.append({ at, kind: 'settings.changed', subject: onlyLevel ? 'level' : 'access', data: this.redactor.redactRecord({ level: after.level, previous: before.level, ...(onlyLevel ? {} : { change }), by }) });
    });
    this.accessCache = after;
    this.events.emit('settings.changed', { level: after.level });
    return { ok: true, value: after };
  }

  settings() {
    return {
      level: this.level(),
      config_level: this.o.config.level,
      approval_ttl_seconds: this.access().approvalTtlSeconds,
      audit_retention: { max_entries: this.o.config.auditRetention.maxEntries ?? null, max_age_days: this.o.config.auditRetention.maxAgeDays ?? null },
      config_file: this.o.config.file,
      data_dir: this.o.dataDir,
      workspace: this.o.paths.workspace,
      approvers: this.approvers.kinds(),
      jail: this.jailStatus(),
      access: accessView(this.access(), this.o.config),
    };
  }

  /** Whether commands run jailed; unjailed is a warning shown wherever the level is shown. */
  jailStatus() {
    const s = this.executor.status();
    return {
      jailed: s.jailed,
      unjailed: s.unjailed,
      problem: s.problem,
      containment: s.containment,
      memory: s.memory,
      warning: s.unjailed
        ? 'Commands run WITHOUT the jail ([executor] unjailed = true): an approved command can touch anything you can.'
        : s.problem
          ? `Commands cannot run: ${s.problem.cause}. Fix: ${s.problem.fix}.`
          : null,
    };
  }

  // ── grants ──────────────────────────────────────────────────────────────────────────────────

  listGrants(opts: { include_inactive?: boolean } = {}): GrantRecord[] {
    // A stored grant the width judge refuses (made before it existed) says so, and is not in force.
    const stored = this.store.grants.list(opts.include_inactive ? {} : { active: true, now: this.now() }).map((g) => {
      const j = judgeGrantWidth(g.tool, g.pattern, this.o.paths);
      const labelled = { ...g, origin_label: this.grantOrigin(g) };
      return j.ok ? labelled : { ...labelled, not_in_force: `Not in force: ${j.reason}` };
    });
    const fromConfig: GrantRecord[] = this.o.config.grants.map((g) => ({
      id: g.id,
      tool: g.tool,
      pattern: g.pattern,
      scope: g.scope,
      session_id: null,
      expires_at: null,
      source: 'config',
      source_session_id: null,
      source_call_id: null,
      created_at: 0,
      last_used_at: null,
      use_count: 0,
      revoked_at: null,
      note: g.note ?? null,
      origin_label: 'Config file',
    }));
    return [...stored, ...fromConfig];
  }

  /** Who a grant came from, in a few words: the origin of the call whose approval made it, an import, a person by hand. */
  private grantOrigin(g: GrantRecord): string {
    if (g.source === 'import') return 'Imported';
    if (g.source === 'user') return 'By hand';
    if (g.source === 'config') return 'Config file';
    const origin = parseOrigin(g.source_call_id ? this.store.calls.get(g.source_call_id)?.origin : null);
    if (origin?.kind === 'external') return origin.name;
    return origin?.kind === 'control' ? 'threshold ctl' : 'The agent';
  }

  createGrant(input: { tool: string; pattern: GrantPattern; duration?: string; session_id?: string | null; note?: string | null; imported_from?: string }, by: string): CoreResult<GrantRecord> {
    input = { ...input, pattern: normaliseGrantPattern(input.pattern) };
    const problem = grantPatternProblem(input.tool, input.pattern, input.duration, this.o.paths);
    if (problem) return { ok: false, error: { code: 'invalid_grant', message: problem } };
    const duration = (input.duration ?? 'always') as GrantDuration;
    if (duration === 'session' && !input.session_id) return { ok: false, error: { code: 'invalid_grant', message: 'A session grant needs session_id.' } };
    const at = this.now();
    const scope = grantScope(duration, at, input.session_id ?? '');
    const stored = this.redactor.redactGrantPattern(input.pattern);
    if (!stored.ok) return { ok: false, error: { code: 'invalid_grant', message: stored.message } };
    const written = input.imported_from ? `imported from ${input.imported_from}${input.note ? `; ${input.note}` : ''}` : input.note;
    const note = written ? this.redactor.redactTextSync(written) : null;
    const id = newId('gr');
    const source = input.imported_from ? ('import' as const) : ('user' as const);
    this.store.transaction(() => {
      this.store.grants.insert({ id, tool: input.tool, pattern: stored.pattern, scope: scope.scope, session_id: scope.sessionId ?? null, expires_at: scope.expiresAt ?? null, source, source_session_id: null, source_call_id: null, created_at: at, note });
      // The pattern as stored, verbatim: the grant row and its audit entry say the same (docs/approvals.md, Redaction).
      this.store.audit.append({ at, kind: 'grant.created', subject: id, data: this.redactor.redactRecord({ tool: input.tool, pattern: stored.pattern, scope: scope.scope, expires_at: scope.expiresAt ?? null, note, by, source }, ['pattern']) });
    });
    const g = this.store.grants.get(id)!;
    this.recorder.grantCreated(g);
    return { ok: true, value: g };
  }

  updateGrant(input: { id: string; pattern?: GrantPattern; duration?: string; note?: string | null }, by: string): CoreResult<GrantRecord> {
    const current = this.store.grants.get(input.id);
    if (!current) return { ok: false, error: { code: 'not_found', message: `There is no grant ${input.id}${input.id.startsWith('config-') ? ' in the database (grants from the config file are edited in the file)' : ''}.` } };
    if (current.revoked_at !== null) return { ok: false, error: { code: 'revoked', message: `Grant ${input.id} was revoked; create a new one.` } };
    const pattern = normaliseGrantPattern(input.pattern ?? current.pattern);
    const problem = grantPatternProblem(current.tool, pattern, input.duration, this.o.paths);
    if (problem) return { ok: false, error: { code: 'invalid_grant', message: problem } };
    const at = this.now();
    const scope = input.duration ? grantScope(input.duration as GrantDuration, at, current.session_id ?? '') : null;
    if (input.duration === 'session' && !current.session_id) return { ok: false, error: { code: 'invalid_grant', message: 'This grant has no session to scope to.' } };
    const stored = this.redactor.redactGrantPattern(pattern);
    if (!stored.ok) return { ok: false, error: { code: 'invalid_grant', message: stored.message } };
    const note = input.note ? this.redactor.redactTextSync(input.note) : null;
    this.store.transaction(() => {
      this.store.grants.update(input.id, { pattern: stored.pattern, ...(scope ? { scope: scope.scope, expires_at: scope.expiresAt ?? null, session_id: scope.sessionId ?? null } : {}), ...(input.note !== undefined ? { note } : {}) });
      this.store.audit.append({ at, kind: 'grant.updated', subject: input.id, data: this.redactor.redactRecord({ pattern: stored.pattern, duration: input.duration ?? null, ...(input.note !== undefined ? { note } : {}), by }, ['pattern']) });
    });
    const g = this.store.grants.get(input.id)!;
    this.events.emit('grant.updated', g);
    return { ok: true, value: g };
  }

  revokeGrant(id: string, by: string): CoreResult<GrantRecord> {
    const at = this.now();
    let revoked = false;
    this.store.transaction(() => {
      revoked = this.store.grants.revoke(id, at);
      if (revoked) this.store.audit.append({ at, kind: 'grant.revoked', subject: id, data: this.redactor.redactRecord({ by }) });
    });
    const g = this.store.grants.get(id);
    if (!g) return { ok: false, error: { code: 'not_found', message: `There is no grant ${id}${id.startsWith('config-') ? ' in the database (grants from the config file are removed from the file)' : ''}.` } };
    if (!revoked) return { ok: false, error: { code: 'already_revoked', message: `Grant ${id} was already revoked.` } };
    this.events.emit('grant.revoked', g);
    return { ok: true, value: g };
  }

  // ── audit ──────────────────────────────────────────────────────────────────────────────────

  verifyAudit(): VerifyResult {
    return this.store.verify();
  }

  dispose(): void {
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    this.approveAll.dispose();
    this.gate.dispose();
    this.executor.dispose();
    this.store.close();
    this.releaseLock?.();
    this.releaseLock = null;
  }
}
