// Settings → Model: which provider the agent talks to, where its key comes from, and "Test connection".
// A provider saved on the page is kept in the settings table over the config file (the file is never
// rewritten) and applied from the next model step on. The key itself never crosses this module's
// boundary: a view says only where the key comes from, and the key is read at the moment a model is
// built (the keychain first, then the environment variable) — and given only to the endpoint its source
// is bound to (key-binding.ts): a page that tests or saves another kind or address gets no key sent.
import { generateText } from 'ai';
import type { z } from 'zod';
import type { Result } from '../../common/operations';
import type { modelTestSchema, modelViewSchema, providerInputSchema } from '../../common/operations';
import type { Agent } from '../agent/agent';
import { createModel } from '../providers/create-model';
import { PROVIDER_DEFAULTS, type ProviderConfig } from '../config/load';
import type { ThresholdCore } from './core';
import { KEY_BINDINGS_SETTING, KeyBindings, keyNeverGoesTo, sourceWords, type Endpoint, type KeyConfirmation, type KeySourceId } from './key-binding';

export type ModelView = z.output<typeof modelViewSchema>;
export type ModelTest = z.output<typeof modelTestSchema>;
export type ProviderInput = z.output<typeof providerInputSchema>;

/** The settings key the page's provider is saved under. */
export const PROVIDER_SETTING = 'provider';
/** What "Test connection" asks: short, so any model answers it quickly and cheaply. */
export const TEST_PROMPT = 'Reply with the single word: ready';
const TEST_TIMEOUT_MS = 20_000;
const ANSWER_MAX = 200;

export interface ModelSettingsDeps {
  core: ThresholdCore;
  agent: Agent | null;
  env: NodeJS.ProcessEnv;
  /** The OS keychain's key, when the app has one. */
  keychainKey?: () => string | null;
  /** The demo's scripted model stays in place: saving a provider is refused. */
  demo?: boolean;
}

/** The key a provider gets: the bound one, or none, and then which key was held back and why. */
interface KeyChoice {
  key: string | null;
  source: KeySourceId | null;
  /** A key was found but held back. */
  withheld: { source: KeySourceId; key: string; bound: Endpoint | null; why: string; movable: boolean } | null;
}

export class ModelSettings {
  private readonly bindings: KeyBindings;

  constructor(private readonly d: ModelSettingsDeps) {
    this.bindings = new KeyBindings(d.core.config.provider, () => d.core.store.settings.get(KEY_BINDINGS_SETTING) ?? {});
  }

  /** The keys on hand for a provider, in the order they are tried: the keychain's, then its variable's. */
  private keysOnHand(cfg: ProviderConfig): { source: KeySourceId; key: string }[] {
    const found: { source: KeySourceId; key: string }[] = [];
    const chain = this.d.keychainKey?.() ?? null;
    if (chain) found.push({ source: 'keychain', key: chain });
    const env = cfg.apiKeyEnv ? this.d.env[cfg.apiKeyEnv] : undefined;
    if (cfg.apiKeyEnv && env) found.push({ source: `env:${cfg.apiKeyEnv}`, key: env });
    return found;
  }

  /** The first key on hand that is bound to this provider's endpoint; else none, and the first one held back. */
  keyFor(cfg: ProviderConfig): KeyChoice {
    const to = endpointOf(cfg);
    let withheld: KeyChoice['withheld'] = null;
    for (const k of this.keysOnHand(cfg)) {
      const r = this.bindings.allows(k.source, to);
      if (r.ok) return { key: k.key, source: k.source, withheld: null };
      withheld ??= { ...k, bound: r.bound, why: r.why, movable: keyNeverGoesTo(cfg.baseUrl) === null };
    }
    return { key: null, source: null, withheld };
  }

  /** A held-back key goes anyway only when the desktop window's person says so (never for a page). */
  private async confirmed(choice: KeyChoice, to: Endpoint, purpose: 'test' | 'save', confirm: KeyConfirmation | undefined): Promise<boolean> {
    const w = choice.withheld;
    if (!w || !w.movable || !w.bound || !confirm) return false;
    try {
      return (await confirm({ purpose, source: sourceWords(w.source), from: w.bound, to })) === true;
    } catch {
      return false;
    }
  }

  /** Binds a key source to an endpoint: where its key may go from now on. Audited. */
  bindKey(source: KeySourceId, to: Endpoint, by: string): void {
    const core = this.d.core;
    const at = Date.now();
    const previous = this.bindings.bindingOf(source);
    const stored = core.store.settings.get<Record<string, Endpoint>>(KEY_BINDINGS_SETTING) ?? {};
    core.store.transaction(() => {
      core.store.settings.set(KEY_BINDINGS_SETTING, { ...stored, [source]: { kind: to.kind, base_url: to.base_url } }, at);
      core.store.audit.append({ at, kind: 'settings.changed', subject: KEY_BINDINGS_SETTING, data: core.redactor.redactRecord({ source, kind: to.kind, base_url: to.base_url, previous, by }) });
    });
  }

  /** The provider in force: the page's, else the config file's. */
  provider(): { cfg: ProviderConfig; origin: 'config' | 'page' } {
    const saved = this.d.core.store.settings.get<ProviderInput>(PROVIDER_SETTING);
    const file = this.d.core.config.provider;
    if (!saved || !isProviderInput(saved)) return { cfg: file, origin: 'config' };
    return { cfg: this.merge(saved), origin: 'page' };
  }

  view(keyStorable: boolean): ModelView {
    const { cfg, origin } = this.provider();
    const choice = this.keyFor(cfg);
    const source = choice.source ?? choice.withheld?.source ?? null;
    return {
      kind: cfg.kind,
      base_url: cfg.baseUrl,
      model: cfg.model,
      api_key_env: cfg.apiKeyEnv,
      key_source: source === null ? 'none' : source === 'keychain' ? 'keychain' : 'environment',
      key_storable: keyStorable,
      origin,
      label: this.d.demo && this.d.agent ? this.d.agent.modelLabel : createModel(cfg, null).label,
      key_applies: choice.key !== null,
      key_note: choice.withheld && !choice.key ? choice.withheld.why : null,
    };
  }

  /**
   * Saves a provider over the config file, audits the change and switches the agent to it. Its key goes
   * with it only if bound there, or if `confirm` (the desktop window's) says so: then the binding moves.
   */
  async set(input: ProviderInput, by: string, keyStorable: boolean, confirm?: KeyConfirmation): Promise<Result<ModelView>> {
    if (this.d.demo) return { ok: false, error: { code: 'demo_model', message: 'This Threshold runs the demo\'s scripted model; start it without --demo to use a provider.' } };
    const credentials = credentialsInUrl(input.base_url);
    if (credentials) return { ok: false, error: { code: 'invalid_params', message: credentials } };
    const core = this.d.core;
    const previous = this.provider().cfg;
    const to = endpointOf(this.merge(input));
    const choice = this.keyFor(this.merge(input));
    const move = choice.key === null && (await this.confirmed(choice, to, 'save', confirm)) ? choice.withheld!.source : null;
    const at = Date.now();
    core.store.transaction(() => {
      core.store.settings.set(PROVIDER_SETTING, { kind: input.kind, base_url: input.base_url, model: input.model }, at);
      core.store.audit.append({ at, kind: 'settings.changed', subject: PROVIDER_SETTING, data: core.redactor.redactRecord({ kind: input.kind, base_url: input.base_url, model: input.model, previous: { kind: previous.kind, base_url: previous.baseUrl, model: previous.model }, by }) });
      if (move) this.bindKey(move, to, by);
    });
    this.apply();
    return { ok: true, value: this.view(keyStorable) };
  }

  /** Builds the model for the provider in force (with the key bound to it, as it is now) and hands it to the agent. */
  apply(): void {
    if (!this.d.agent || this.d.demo) return;
    const { cfg } = this.provider();
    for (const k of this.keysOnHand(cfg)) this.d.core.redactor.addKnownSecret(k.key);
    const handle = createModel(cfg, this.keyFor(cfg).key);
    this.d.agent.useModel(handle.model, handle.label, cfg);
  }

  /**
   * One short real request to the provider in force, or to the one given (before it is saved). The key
   * goes only where it is bound, unless `confirm` (the desktop window's) says to send it this once.
   */
  async test(input: ProviderInput | undefined, signal?: AbortSignal, confirm?: KeyConfirmation): Promise<ModelTest> {
    const cfg = input ? this.merge(input) : this.provider().cfg;
    for (const k of this.keysOnHand(cfg)) this.d.core.redactor.addKnownSecret(k.key);
    const credentials = credentialsInUrl(cfg.baseUrl);
    if (credentials) return { reached: false, answer: null, latency_ms: 0, error: credentials, label: createModel(cfg, null).label, key_sent: false, key_note: credentials };
    const choice = this.keyFor(cfg);
    const once = choice.key === null && (await this.confirmed(choice, endpointOf(cfg), 'test', confirm));
    const key = choice.key ?? (once ? choice.withheld!.key : null);
    const keyInfo = { key_sent: key !== null, key_note: key === null && choice.withheld ? choice.withheld.why : null };
    const handle = createModel(cfg, key);
    const started = performance.now();
    const timeout = AbortSignal.timeout(TEST_TIMEOUT_MS);
    try {
      const r = await generateText({ model: handle.model, prompt: TEST_PROMPT, maxOutputTokens: 32, maxRetries: 0, abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      const latency = Math.round(performance.now() - started);
      const text = this.d.core.redactor.redactTextSync(r.text.trim()).slice(0, ANSWER_MAX);
      if (!text) return { reached: true, answer: null, latency_ms: latency, error: 'The provider answered, but with no text.', label: handle.label, ...keyInfo };
      return { reached: true, answer: text, latency_ms: latency, error: null, label: handle.label, ...keyInfo };
    } catch (err) {
      const latency = Math.round(performance.now() - started);
      const message = timeout.aborted ? `No answer within ${TEST_TIMEOUT_MS / 1000} s from ${cfg.baseUrl}.` : providerErrorText(err, cfg);
      return { reached: false, answer: null, latency_ms: latency, error: this.d.core.redactor.redactTextSync(message), label: handle.label, ...keyInfo };
    }
  }

  /** A page's provider as a full config: the key variable follows the kind (the file's, when the kind is the file's). */
  private merge(input: ProviderInput): ProviderConfig {
    const file = this.d.core.config.provider;
    const apiKeyEnv = input.kind === file.kind ? file.apiKeyEnv : PROVIDER_DEFAULTS[input.kind].apiKeyEnv;
    return { kind: input.kind, baseUrl: input.base_url, model: input.model, apiKeyEnv, timeoutMs: file.timeoutMs };
  }
}

function endpointOf(cfg: ProviderConfig): Endpoint {
  return { kind: cfg.kind, base_url: cfg.baseUrl };
}

/** A base URL with a user name or password is refused outright: it would carry a secret of its own, and hides its host. */
function credentialsInUrl(baseUrl: string): string | null {
  try {
    const u = new URL(baseUrl);
    return u.username || u.password ? 'The base URL carries a user name or password (user:pass@host); give the host alone, and the key through the keychain or the environment.' : null;
  } catch {
    return null;
  }
}

function isProviderInput(v: unknown): v is ProviderInput {
  const o = v as Record<string, unknown>;
  return !!o && typeof o === 'object' && (o['kind'] === 'openai-compatible' || o['kind'] === 'anthropic' || o['kind'] === 'openai') && typeof o['base_url'] === 'string' && typeof o['model'] === 'string';
}

/** The provider's error in its own words (its JSON error message), with the HTTP status or the network failure. */
export function providerErrorText(err: unknown, cfg: ProviderConfig): string {
  const e = err as { message?: string; statusCode?: number; responseBody?: string; cause?: { code?: string; message?: string }; lastError?: unknown };
  const inner = (e.lastError ?? e) as typeof e;
  const status = inner.statusCode;
  if (status) {
    const said = providerMessage(inner.responseBody) ?? inner.message ?? '';
    return `HTTP ${status} from ${cfg.baseUrl}${said ? `: ${said}` : ''}`;
  }
  const code = inner.cause?.code ?? (inner as { code?: string }).code;
  if (code === 'ECONNREFUSED') return `Nothing is listening at ${cfg.baseUrl} (connection refused).`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The host of ${cfg.baseUrl} was not found (${code}).`;
  return `The request to ${cfg.baseUrl} failed: ${inner.cause?.message ?? inner.message ?? String(err)}`;
}

function providerMessage(body: string | undefined): string | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    return typeof m === 'string' && m ? m.slice(0, 500) : null;
  } catch {
    return body.slice(0, 200);
  }
}
