// Settings → Model: which provider the agent talks to, where its key comes from, and "Test connection".
// A provider saved on the page is kept in the settings table over the config file (the file is never
// rewritten) and applied from the next model step on. The key itself never crosses this module's
// boundary: a view says only where the key comes from, and the key is read at the moment a model is
// built (the keychain first, then the environment variable).
import { generateText } from 'ai';
import type { z } from 'zod';
import type { Result } from '../../common/operations';
import type { modelTestSchema, modelViewSchema, providerInputSchema } from '../../common/operations';
import type { Agent } from '../agent/agent';
import { createModel, resolveApiKey } from '../agent/providers';
import { PROVIDER_DEFAULTS, type ProviderConfig } from '../config/load';
import type { ThresholdCore } from '../gate/core';

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

export class ModelSettings {
  constructor(private readonly d: ModelSettingsDeps) {}

  /** The provider in force: the page's, else the config file's. */
  provider(): { cfg: ProviderConfig; origin: 'config' | 'page' } {
    const saved = this.d.core.store.settings.get<ProviderInput>(PROVIDER_SETTING);
    const file = this.d.core.config.provider;
    if (!saved || !isProviderInput(saved)) return { cfg: file, origin: 'config' };
    return { cfg: this.merge(saved), origin: 'page' };
  }

  view(keyStorable: boolean): ModelView {
    const { cfg, origin } = this.provider();
    const fromKeychain = this.d.keychainKey?.() ?? null;
    const fromEnv = cfg.apiKeyEnv ? this.d.env[cfg.apiKeyEnv] : undefined;
    return {
      kind: cfg.kind,
      base_url: cfg.baseUrl,
      model: cfg.model,
      api_key_env: cfg.apiKeyEnv,
      key_source: fromKeychain ? 'keychain' : fromEnv ? 'environment' : 'none',
      key_storable: keyStorable,
      origin,
      label: this.d.demo && this.d.agent ? this.d.agent.modelLabel : createModel(cfg, null).label,
    };
  }

  /** Saves a provider over the config file, audits the change and switches the agent to it. */
  set(input: ProviderInput, by: string, keyStorable: boolean): Result<ModelView> {
    if (this.d.demo) return { ok: false, error: { code: 'demo_model', message: 'This Threshold runs the demo\'s scripted model; start it without --demo to use a provider.' } };
    const core = this.d.core;
    const previous = this.provider().cfg;
    const at = Date.now();
    core.store.transaction(() => {
      core.store.settings.set(PROVIDER_SETTING, { kind: input.kind, base_url: input.base_url, model: input.model }, at);
      core.store.audit.append({ at, kind: 'settings.changed', subject: PROVIDER_SETTING, data: core.redactor.redactRecord({ kind: input.kind, base_url: input.base_url, model: input.model, previous: { kind: previous.kind, base_url: previous.baseUrl, model: previous.model }, by }) });
    });
    this.apply();
    return { ok: true, value: this.view(keyStorable) };
  }

  /** Builds the model for the provider in force (with the key as it is now) and hands it to the agent. */
  apply(): void {
    if (!this.d.agent || this.d.demo) return;
    const { cfg } = this.provider();
    const key = resolveApiKey(cfg, this.d.env, this.d.keychainKey);
    if (key) this.d.core.redactor.addKnownSecret(key);
    const handle = createModel(cfg, key);
    this.d.agent.useModel(handle.model, handle.label, cfg);
  }

  /** One short real request to the provider in force, or to the one given (before it is saved). */
  async test(input: ProviderInput | undefined, signal?: AbortSignal): Promise<ModelTest> {
    const cfg = input ? this.merge(input) : this.provider().cfg;
    const key = resolveApiKey(cfg, this.d.env, this.d.keychainKey);
    if (key) this.d.core.redactor.addKnownSecret(key);
    const handle = createModel(cfg, key);
    const started = performance.now();
    const timeout = AbortSignal.timeout(TEST_TIMEOUT_MS);
    try {
      const r = await generateText({ model: handle.model, prompt: TEST_PROMPT, maxOutputTokens: 32, maxRetries: 0, abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      const latency = Math.round(performance.now() - started);
      const text = this.d.core.redactor.redactTextSync(r.text.trim()).slice(0, ANSWER_MAX);
      if (!text) return { reached: true, answer: null, latency_ms: latency, error: 'The provider answered, but with no text.', label: handle.label };
      return { reached: true, answer: text, latency_ms: latency, error: null, label: handle.label };
    } catch (err) {
      const latency = Math.round(performance.now() - started);
      const message = timeout.aborted ? `No answer within ${TEST_TIMEOUT_MS / 1000} s from ${cfg.baseUrl}.` : providerErrorText(err, cfg);
      return { reached: false, answer: null, latency_ms: latency, error: this.d.core.redactor.redactTextSync(message), label: handle.label };
    }
  }

  /** A page's provider as a full config: the key variable follows the kind (the file's, when the kind is the file's). */
  private merge(input: ProviderInput): ProviderConfig {
    const file = this.d.core.config.provider;
    const apiKeyEnv = input.kind === file.kind ? file.apiKeyEnv : PROVIDER_DEFAULTS[input.kind].apiKeyEnv;
    return { kind: input.kind, baseUrl: input.base_url, model: input.model, apiKeyEnv, timeoutMs: file.timeoutMs };
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
