// A reviewer's model: the same providers as the agent's (main/providers/create-model.ts), from its own table.
import type { LanguageModel } from 'ai';
import { createModel, resolveApiKey } from '../providers/create-model';
import type { ProviderConfig } from '../config/load';
import type { ReviewerConfig } from '../config/auto-approval';

export function reviewerProvider(r: ReviewerConfig, timeoutMs: number): ProviderConfig {
  return { kind: r.kind, baseUrl: r.baseUrl, model: r.model, apiKeyEnv: r.apiKeyEnv, timeoutMs };
}

/** Builds each reviewer's model once; its key is registered as a secret by the caller. */
export function reviewerModels(reviewers: readonly ReviewerConfig[], timeoutMs: number, env: NodeJS.ProcessEnv, onKey: (key: string) => void): (r: ReviewerConfig) => LanguageModel {
  const models = new Map<string, LanguageModel>();
  for (const r of reviewers) {
    const cfg = reviewerProvider(r, timeoutMs);
    const key = resolveApiKey(cfg, env);
    if (key) onKey(key);
    models.set(r.name, createModel(cfg, key).model);
  }
  return (r) => models.get(r.name)!;
}
