// The reviewer's two cards, rendered from the review report (common/review.ts). An auto-approval is a
// record of something that already ran; an escalation is the preface to the approval card right behind
// it. Both name the tool, its arguments, the model (or quorum) that answered, its reason, the latency and
// the token cost the provider reported; a reviewer that could not be reached shows as an error.
import { useId } from 'react';
import type { ReviewReport, ReviewerView } from '../../../common/review';
import { oneLine, summarizeCall } from '../model/describe';
import { Visible } from './call-body';

const PATH_WORDS: Record<NonNullable<ReviewReport['path']>, string> = {
  withheld: 'The reviewer did not vouch for this call',
  no_budget: 'No review budget: this call is outside a turn you started',
  budget_spent: 'This turn has used all its reviews',
  field_too_large: 'Too large to show the reviewer whole',
  fence_forgery: 'The call holds text that forges the reviewer\'s fences',
  timeout: 'The reviewer did not answer in time',
  refusal: 'The reviewer declined to review',
  unreachable: 'The reviewer could not be reached',
  wrong_shape: 'The reviewer\'s answer was not the shape asked for',
  error: 'The reviewer failed',
};

/** Paths where the reviewer itself failed: shown as an error, never as silence. */
const OUTAGES = new Set(['timeout', 'refusal', 'unreachable', 'wrong_shape', 'error']);

export function reviewersText(reviewers: readonly ReviewerView[]): string {
  if (!reviewers.length) return 'no reviewer';
  return reviewers.map((r) => `${oneLine(r.name)} (model ${oneLine(r.model)})`).join(' and ');
}

export function costText(r: ReviewReport): string {
  if (!r.usage) return 'not reported by the provider';
  const part = (n: number | null, what: string) => (n === null ? null : `${n} ${what}`);
  return [part(r.usage.input_tokens, 'input'), part(r.usage.output_tokens, 'output')].filter(Boolean).join(', ') + ' tokens';
}

export function ReviewCard({ r, onDismiss }: { r: ReviewReport; onDismiss?: () => void }) {
  const titleId = useId();
  const approved = r.outcome === 'approved';
  const title = approved ? `Auto-approved by the reviewer: ${oneLine(r.tool)}` : `Escalated by the reviewer: ${oneLine(r.tool)}`;
  const outage = !approved && r.path !== null && OUTAGES.has(r.path);
  return (
    <article className={`review-card ${approved ? 'review-approved' : 'review-escalated'}`} aria-labelledby={titleId} data-path={r.path ?? 'approved'}>
      <h3 id={titleId}>{title}</h3>
      <p className="review-call">
        <span className="tool-name">{oneLine(r.tool)}</span> <Visible text={summarizeCall(r.tool, r.args)} />
      </p>
      <dl className="review-facts">
        <dt>{approved && r.reviewers.length > 1 ? 'Quorum' : 'Reviewer'}</dt>
        <dd className="review-model">{reviewersText(r.reviewers)}</dd>
        {!approved && r.path && (
          <>
            <dt>Why it comes to you</dt>
            <dd>{PATH_WORDS[r.path]}</dd>
          </>
        )}
        <dt>Reason</dt>
        <dd className="review-reason">
          <Visible text={r.reason} />
        </dd>
        <dt>Latency</dt>
        <dd>{`${r.latency_ms} ms`}</dd>
        <dt>Token cost</dt>
        <dd>{costText(r)}</dd>
        {r.budget && (
          <>
            <dt>Budget</dt>
            <dd>{`review ${r.budget.number} of ${r.budget.max} this turn`}</dd>
          </>
        )}
      </dl>
      {outage && (
        <p className="error" role="alert">
          <Visible text={`Reviewer error: ${r.reviewers.find((v) => v.error)?.error?.message ?? PATH_WORDS[r.path!]}`} />
        </p>
      )}
      <p className="review-note">{approved ? 'It ran once; no grant was made. History records it as decided by the reviewer.' : 'Nothing was refused: the approval card below is yours to decide.'}</p>
      {onDismiss && (
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </article>
  );
}
