// review(): asks the configured quorum about one call and returns what happened as a value, never a
// throw. Nine paths fail closed (common/review.ts), each named; a reviewer that answers and withholds
// approval is not a failure but the feature working. The decision is approves() in decision.ts.
import { APICallError, generateObject, JSONParseError, NoObjectGeneratedError, RetryError, TypeValidationError, type LanguageModel } from 'ai';
import type { EscalationPath, ReviewFailPath, ReviewUsage } from '../../common/review';
import type { AutoApprovalConfig, ReviewerConfig } from '../config/auto-approval';
import { approves, reviewAnswerSchema, type ReviewAnswer } from './decision';
import { buildPacket, type CommandAnalysis } from './packet';
import { currentReviewTurn } from './turn';

export interface ReviewRequest {
  tool: string;
  toolset: string;
  args: unknown;
  command: CommandAnalysis | null;
  /** The turn's signal: Stop cancels a review in flight. */
  signal?: AbortSignal;
  /** Applied to the user's request before it leaves for the reviewer (the rest arrives redacted). */
  redact?: (text: string) => string;
}

export type ReviewerResult = { name: string; model: string; latencyMs: number; usage: ReviewUsage | null } & ({ ok: true; answer: ReviewAnswer } | { ok: false; path: ReviewFailPath; detail: string });

export type ReviewOutcome =
  | { kind: 'approved'; results: ReviewerResult[]; budget: { number: number; max: number }; latencyMs: number; packet: string }
  | { kind: 'escalated'; path: EscalationPath; detail: string; results: ReviewerResult[]; budget: { number: number; max: number } | null; latencyMs: number; packet: string | null }
  /** The turn stopped while the reviewer was asked: not an outcome to report, the call is cancelled. */
  | { kind: 'stopped' };

export interface ReviewerOptions {
  config: AutoApprovalConfig;
  /** The model behind a reviewer (built once per reviewer by the caller). */
  model: (r: ReviewerConfig) => LanguageModel;
  /** Where failures that are programming errors are logged, with their stack. */
  log: (line: string) => void;
  now?: () => number;
}

export class Reviewer {
  private readonly now: () => number;

  constructor(private readonly o: ReviewerOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Whether there is anyone to ask; whether they are asked is the switch in force at each call (the gate's ReviewAccess). */
  get hasReviewers(): boolean {
    return this.o.config.reviewers.length > 0;
  }

  /** Never throws: whatever happens inside comes back as an approval, an escalation, or a stop. */
  async review(req: ReviewRequest): Promise<ReviewOutcome> {
    const started = this.now();
    try {
      return await this.outcomeFor(req, started);
    } catch (err) {
      if (req.signal?.aborted) return { kind: 'stopped' };
      // Building the packet runs code over values a model chose: a failure here is a bug to see, and still a prompt.
      this.o.log(`reviewer failed unexpectedly; the call goes to you: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return { kind: 'escalated', path: 'error', detail: 'The reviewer failed unexpectedly (the error is in the log).', results: [], budget: null, latencyMs: this.now() - started, packet: null };
    }
  }

  private async outcomeFor(req: ReviewRequest, started: number): Promise<ReviewOutcome> {
    const escalate = (path: EscalationPath, detail: string, extra: Partial<Extract<ReviewOutcome, { kind: 'escalated' }>> = {}): ReviewOutcome => ({ kind: 'escalated', path, detail, results: [], budget: null, latencyMs: this.now() - started, packet: null, ...extra });
    const turn = currentReviewTurn();
    if (!turn) return escalate('no_budget', 'No turn you started is running, so there is no review budget: unattended and outside calls are never reviewed.');
    const number = turn.peek();
    const budget = { number: number ?? turn.max, max: turn.max };
    if (number === null) return escalate('budget_spent', `This turn has used all ${turn.max} of its reviews ([security.auto_approval] max_per_turn).`, { budget });
    const packet = buildPacket({ tool: req.tool, toolset: req.toolset, budget, request: turn.userRequest.map((t) => req.redact?.(t) ?? t), args: req.args, command: req.command });
    if (!packet.ok) return escalate(packet.path, `${capitalise(packet.detail)}.`, { budget });
    turn.take();
    const results = await Promise.all(this.o.config.reviewers.map((r) => this.ask(r, packet.text, req.signal)));
    if (req.signal?.aborted) return { kind: 'stopped' };
    const latencyMs = this.now() - started;
    const failed = results.find((r) => !r.ok);
    if (failed && !failed.ok) return escalate(failed.path, `${failed.name} (${failed.model}): ${failed.detail}`, { results, budget, latencyMs, packet: packet.text });
    const answers = results.map((r) => (r.ok ? r.answer : null));
    if (approves(answers)) return { kind: 'approved', results, budget, latencyMs, packet: packet.text };
    const withheld = results.find((r) => r.ok && !approves([r.answer]));
    return escalate('withheld', withheld && withheld.ok ? withheld.answer.reason : 'A reviewer withheld approval.', { results, budget, latencyMs, packet: packet.text });
  }

  /** One reviewer, one model call: its answer, or the path it failed on. */
  private async ask(r: ReviewerConfig, packet: string, turnSignal?: AbortSignal): Promise<ReviewerResult> {
    const t0 = this.now();
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.o.config.timeoutMs);
    const signal = turnSignal ? AbortSignal.any([turnSignal, timeout.signal]) : timeout.signal;
    const base = { name: r.name, model: r.model };
    const fail = (path: ReviewFailPath, detail: string, usage: ReviewUsage | null = null): ReviewerResult => ({ ...base, latencyMs: this.now() - t0, usage, ok: false, path, detail });
    try {
      const result = await generateObject({
        model: this.o.model(r),
        schema: reviewAnswerSchema,
        schemaName: 'review',
        schemaDescription: 'Four answers about one tool call.',
        system: r.systemPrompt,
        prompt: packet,
        temperature: r.temperature,
        maxRetries: 0,
        abortSignal: signal,
        providerOptions: reasoningOptions(r),
      });
      const usage = usageOf(result.usage);
      if (result.finishReason === 'content-filter') return fail('refusal', 'the reviewer declined to review this call.', usage);
      // Checked on arrival whatever the SDK did: a boolean must be a boolean.
      const answer = reviewAnswerSchema.safeParse(result.object);
      if (!answer.success) return fail('wrong_shape', `the answer was not the four fields asked for (${answer.error.issues[0]?.message ?? 'invalid'}).`, usage);
      return { ...base, latencyMs: this.now() - t0, usage, ok: true, answer: answer.data };
    } catch (err) {
      if (timeout.signal.aborted && !turnSignal?.aborted) return fail('timeout', `no answer within ${this.o.config.timeoutMs / 1000} s ([security.auto_approval] timeout_seconds).`);
      if (turnSignal?.aborted) return fail('error', 'the turn was stopped.');
      return classify(err, fail);
    } finally {
      clearTimeout(timer);
    }
  }
}

function classify(err: unknown, fail: (path: ReviewFailPath, detail: string, usage?: ReviewUsage | null) => ReviewerResult): ReviewerResult {
  if (NoObjectGeneratedError.isInstance(err)) {
    const usage = err.usage ? usageOf(err.usage) : null;
    if (err.finishReason === 'content-filter') return fail('refusal', 'the reviewer declined to review this call.', usage);
    return fail('wrong_shape', `the answer was not the four fields asked for (${shapeProblem(err)}).`, usage);
  }
  if (TypeValidationError.isInstance(err) || JSONParseError.isInstance(err)) return fail('wrong_shape', 'the answer was not the four fields asked for.');
  const inner = RetryError.isInstance(err) ? err.lastError : err;
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode;
    const why = status === 401 || status === 403 ? `the provider refused the credentials (HTTP ${status})` : status ? `the provider answered HTTP ${status}` : 'nothing answered at the endpoint';
    return fail('unreachable', `${why}.`);
  }
  const code = (inner as { cause?: { code?: string } })?.cause?.code ?? (inner as { code?: string })?.code;
  if (code || /fetch failed|ECONNREFUSED|ENOTFOUND|socket/i.test((inner as Error)?.message ?? '')) return fail('unreachable', `the endpoint could not be reached (${code ?? (inner as Error).message}).`);
  if ((inner as Error)?.name === 'LoadAPIKeyError' || (inner as Error)?.name === 'AI_LoadAPIKeyError') return fail('unreachable', 'no API key is set for this reviewer.');
  throw err;
}

function shapeProblem(err: NoObjectGeneratedError): string {
  const cause = err.cause as { message?: string } | undefined;
  if (!err.text) return 'no answer';
  return JSONParseError.isInstance(err.cause) ? 'prose instead of JSON' : (cause?.message?.split('\n')[0]?.slice(0, 160) ?? 'invalid');
}

function usageOf(u: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined): ReviewUsage | null {
  if (!u || (u.inputTokens === undefined && u.outputTokens === undefined)) return null;
  return { input_tokens: u.inputTokens ?? null, output_tokens: u.outputTokens ?? null };
}

function reasoningOptions(r: ReviewerConfig): Record<string, Record<string, string>> | undefined {
  if (!r.reasoningEffort) return undefined;
  if (r.kind === 'anthropic') return { anthropic: { effort: r.reasoningEffort } };
  if (r.kind === 'openai') return { openai: { reasoningEffort: r.reasoningEffort } };
  return undefined;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
