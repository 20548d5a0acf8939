// The model behind the agent: Anthropic, OpenAI (chat completions) or any OpenAI-compatible server
// (Ollama, LM Studio, llama.cpp, vLLM), through the AI SDK. API keys come from the OS keychain (the app)
// or the environment; they are registered with the redactor and never stored or passed to commands.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ProviderConfig } from '../config/load';

// The SDK's own console warnings would leak into the daemon's log; problems surface as errors instead.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

export interface ModelHandle {
  model: LanguageModel;
  /** For the UI and logs: "Ollama at http://127.0.0.1:11434/v1 (llama3.1)". */
  label: string;
}

/**
 * fetch that never follows a redirect: the key goes to the endpoint it is bound to and nowhere else
 * (fetch drops Authorization on a cross-origin redirect, but not x-api-key). A redirect is an error.
 */
export const fetchWithoutRedirects: typeof fetch = async (input, init) => {
  const res = await fetch(input, { ...init, redirect: 'manual' });
  if (res.status >= 300 && res.status < 400) {
    const from = new URL(input instanceof Request ? input.url : String(input)).origin;
    throw new Error(`${from} answered with a redirect (HTTP ${res.status}${res.headers.get('location') ? ` to ${res.headers.get('location')}` : ''}); Threshold does not follow a redirect with the API key. Set the base URL to the address it names if you trust it.`);
  }
  return res;
};

export function createModel(cfg: ProviderConfig, apiKey: string | null): ModelHandle {
  const fetch = fetchWithoutRedirects;
  switch (cfg.kind) {
    case 'anthropic':
      return { model: createAnthropic({ baseURL: cfg.baseUrl, apiKey: apiKey ?? '', fetch })(cfg.model), label: `Anthropic ${cfg.model}` };
    case 'openai':
      return { model: createOpenAI({ baseURL: cfg.baseUrl, apiKey: apiKey ?? '', fetch }).chat(cfg.model), label: `OpenAI ${cfg.model}` };
    case 'openai-compatible':
      return {
        model: createOpenAICompatible({ name: 'openai-compatible', baseURL: cfg.baseUrl, apiKey: apiKey ?? 'none', includeUsage: true, fetch })(cfg.model),
        label: `${/:11434\b/.test(cfg.baseUrl) ? 'Ollama' : 'OpenAI-compatible server'} at ${cfg.baseUrl} (${cfg.model})`,
      };
  }
}

/** The key from the keychain (when the app provides one) or the configured environment variable. */
export function resolveApiKey(cfg: ProviderConfig, env: NodeJS.ProcessEnv, keychain?: () => string | null): string | null {
  return keychain?.() ?? (cfg.apiKeyEnv ? env[cfg.apiKeyEnv] ?? null : null);
}

/** What to tell the user when no provider answers: how to set one up, never an invented answer. */
export function setupAdvice(cfg: ProviderConfig, error: string): string {
  const where = `${cfg.kind} at ${cfg.baseUrl} (model ${cfg.model})`;
  const lines = [`No model answered: ${where}: ${error}.`];
  if (cfg.kind === 'openai-compatible' && /:11434\b/.test(cfg.baseUrl)) {
    lines.push(`To use Ollama (the default): install it from https://ollama.com, then run \`ollama pull ${cfg.model}\` and keep \`ollama serve\` running.`);
  }
  lines.push('To use another provider, set [provider] in threshold.toml: kind = "anthropic" | "openai" | "openai-compatible", base_url, model, and api_key_env (the environment variable that holds the key). See docs/agent.md.');
  lines.push('To see the approval gate without a model: npm run -s cli -- serve --demo.');
  return lines.join('\n');
}
