// The reviewer's outcomes as every surface sees them (main/reviewer, the operations table, the cards).

/** The nine ways a review fails closed: the call goes to the prompt it would have reached without one. */
export const REVIEW_FAIL_PATHS = ['no_budget', 'budget_spent', 'field_too_large', 'fence_forgery', 'timeout', 'refusal', 'unreachable', 'wrong_shape', 'error'] as const;
export type ReviewFailPath = (typeof REVIEW_FAIL_PATHS)[number];
/** An escalation: one of the nine, or every reviewer answered and one withheld approval (the feature working). */
export type EscalationPath = ReviewFailPath | 'withheld';

export interface ReviewUsage {
  input_tokens: number | null;
  output_tokens: number | null;
}

/** One reviewer of the quorum: its answer, or how it failed. */
export interface ReviewerView {
  name: string;
  model: string;
  answer: { in_scope: boolean; reversible: boolean; injection_suspected: boolean; reason: string } | null;
  /** Set when the reviewer could not answer (its path and a sentence). */
  error: { path: ReviewFailPath; message: string } | null;
  latency_ms: number | null;
  usage: ReviewUsage | null;
}

/** A review, reported as an auto-approval or an escalation. */
export interface ReviewReport {
  session_id: string;
  turn_id: string | null;
  call_id: string;
  /** The approval the escalation parked, or the decided approval an auto-approval recorded. */
  approval_id: string;
  tool: string;
  /** Redacted, as on the approval card. */
  args: unknown;
  outcome: 'approved' | 'escalated';
  /** null for an approval. */
  path: EscalationPath | null;
  /** The sentence the user reads: the reviewer's, or Threshold's for a failure. */
  reason: string;
  /** The reviewer (or quorum) that answered, or the one whose answer or failure is the reason. */
  reviewers: ReviewerView[];
  budget: { number: number; max: number } | null;
  latency_ms: number;
  /** Summed over the quorum, from the providers' usage; null when no provider reported any. */
  usage: ReviewUsage | null;
  at: number;
}
