// The model provider the agent (and each reviewer) talks to, as the config describes it.
export interface ProviderConfig {
  kind: 'openai-compatible' | 'anthropic' | 'openai';
  baseUrl: string;
  model: string;
  /** The environment variable holding the API key (the app may also keep it in the OS keychain). */
  apiKeyEnv: string | null;
  timeoutMs: number;
}
