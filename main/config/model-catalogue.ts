// The model catalogues of the providers that publish one: the model ids the AI SDK in the tree declares
// for Anthropic's Messages API and OpenAI's chat completions (its AnthropicMessagesModelId and
// OpenAIChatModelId types, copied as data; catalogue.test.ts fails when the SDK's lists change). A
// reviewer naming a model outside its provider's catalogue is a start-up error, so a typo never surfaces
// as an outage at review time. OpenAI-compatible servers (Ollama, vLLM, …) have no fixed catalogue.
import type { ProviderConfig } from './provider';

export const MODEL_CATALOGUES: Readonly<Partial<Record<ProviderConfig['kind'], readonly string[]>>> = {
  anthropic: [
    'claude-3-haiku-20240307', 'claude-haiku-4-5-20251001', 'claude-haiku-4-5', 'claude-haiku-5-5',
    'claude-opus-4-0', 'claude-opus-4-20250514', 'claude-opus-4-1-20250805', 'claude-opus-4-1',
    'claude-opus-4-5', 'claude-opus-4-5-20251101', 'claude-sonnet-4-0', 'claude-sonnet-4-20250514',
    'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', 'claude-sonnet-4-6', 'claude-opus-4-6',
    'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5', 'claude-opus-5-5', 'claude-fable-5',
    'claude-fable-5-1', 'claude-sonnet-5', 'claude-sonnet-5-5',
  ],
  openai: [
    'o1', 'o1-2024-12-17', 'o3-mini', 'o3-mini-2025-01-31', 'o3', 'o3-2025-04-16', 'o4-mini',
    'o4-mini-2025-04-16', 'gpt-4.1', 'gpt-4.1-2025-04-14', 'gpt-4.1-mini', 'gpt-4.1-mini-2025-04-14',
    'gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14', 'gpt-4o', 'gpt-4o-2024-05-13', 'gpt-4o-2024-08-06',
    'gpt-4o-2024-11-20', 'gpt-4o-audio-preview', 'gpt-4o-audio-preview-2024-12-17',
    'gpt-4o-audio-preview-2025-06-03', 'gpt-4o-mini', 'gpt-4o-mini-2024-07-18', 'gpt-4o-mini-audio-preview',
    'gpt-4o-mini-audio-preview-2024-12-17', 'gpt-4o-search-preview', 'gpt-4o-search-preview-2025-03-11',
    'gpt-4o-mini-search-preview', 'gpt-4o-mini-search-preview-2025-03-11', 'gpt-3.5-turbo-0125',
    'gpt-3.5-turbo', 'gpt-3.5-turbo-1106', 'gpt-3.5-turbo-16k', 'gpt-5', 'gpt-5-2025-08-07', 'gpt-5-mini',
    'gpt-5-mini-2025-08-07', 'gpt-5-nano', 'gpt-5-nano-2025-08-07', 'gpt-5-chat-latest', 'gpt-5.1',
    'gpt-5.1-2025-11-13', 'gpt-5.1-chat-latest', 'gpt-5.2', 'gpt-5.2-2025-12-11', 'gpt-5.2-chat-latest',
    'gpt-5.2-pro', 'gpt-5.2-pro-2025-12-11', 'gpt-5.3-chat-latest', 'gpt-5.4', 'gpt-5.4-2026-03-05',
    'gpt-5.4-mini', 'gpt-5.4-mini-2026-03-17', 'gpt-5.4-nano', 'gpt-5.4-nano-2026-03-17', 'gpt-5.4-pro',
    'gpt-5.4-pro-2026-03-05', 'gpt-5.5', 'gpt-5.5-2026-04-23', 'gpt-5.6', 'gpt-5.6-luna', 'gpt-5.6-sol',
    'gpt-5.6-terra', 'gpt-6-astra', 'gpt-6.1-sol', 'gpt-6.1-terra', 'gpt-6-luna', 'gpt-6-sol',
  ],
};

/** The catalogue that applies: only the provider's own endpoint has one (a proxy or gateway may serve anything). */
export function catalogueFor(kind: ProviderConfig['kind'], baseUrl: string, defaultBaseUrl: string): readonly string[] | null {
  if (baseUrl.replace(/\/+$/, '') !== defaultBaseUrl.replace(/\/+$/, '')) return null;
  return MODEL_CATALOGUES[kind] ?? null;
}
