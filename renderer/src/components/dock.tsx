// The dock above the message box: consent offers, questions, then approval cards in call order (the
// oldest shown in full, a count and the rest listed). Ctrl/Cmd+Enter approves the oldest once from
// anywhere, under the same type-ahead rules as the card's own keys.
import { useEffect } from 'react';
import { currentKey } from '../key-clock';
import { isApproveChord, keyMayDecide } from '../model/type-ahead';
import { summarizeCall } from '../model/describe';
import { useApp } from '../store/store';
import { ApprovalCard, ARMING_MS } from './approval-card';
import { ConsentCard, QuestionCard } from './prompt-cards';
import { ReviewCard } from './review-card';

/** The last "show this card" request handled (a remounted dock must not take focus again for an old one). */
let shownRequest = 0;

export function Dock() {
  const pending = useApp((s) => s.pending);
  const questions = useApp((s) => s.questions);
  const offers = useApp((s) => s.offers);
  const shownAt = useApp((s) => s.shownAt);
  const decide = useApp((s) => s.decide);
  const error = useApp((s) => s.decisionError ?? s.promptError);
  const head = pending[0];
  // Auto-approvals of this session stay in the queue until put away: a gated call ran without you.
  const session = useApp((s) => s.currentSessionId);
  const reviews = useApp((s) => s.reviews);
  const dismissed = useApp((s) => s.dismissedReviews);
  const dismissReview = useApp((s) => s.dismissReview);
  const approvedCards = reviews.filter((r) => r.outcome === 'approved' && r.session_id === session && !dismissed.includes(r.approval_id));
  const show = useApp((s) => s.showRequest);

  // A clicked notification: the person asked to see this card, so it (or, queued behind others, the
  // oldest card) comes into view and takes focus. Arrivals themselves never move focus.
  useEffect(() => {
    if (!show || show.n <= shownRequest || !head) return;
    shownRequest = show.n;
    const el = document.querySelector<HTMLElement>(`[data-approval-id="${CSS.escape(show.id)}"]`) ?? document.querySelector<HTMLElement>('[data-approval-id]');
    el?.scrollIntoView({ block: 'center' });
    el?.focus();
  }, [show, head]);

  useEffect(() => {
    if (!head) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isApproveChord(e)) return;
      e.preventDefault();
      const k = currentKey();
      const at = shownAt[head.id];
      if (!k || at === undefined || !head.outcomes.includes('approve_once')) return;
      if (k.at - at < ARMING_MS || !keyMayDecide({ at: k.at, previousAt: k.previousAt, cardShownAt: at, repeat: k.repeat }).ok) return;
      void decide(head.id, 'approve_once');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [head, shownAt, decide]);

  if (!head && !questions.length && !offers.length && !approvedCards.length) return null;
  return (
    <div className="dock">
      {offers.map((o) => (
        <ConsentCard key={o.id} o={o} />
      ))}
      {questions.map((q) => (
        <QuestionCard key={q.id} q={q} />
      ))}
      {approvedCards.map((r) => (
        <ReviewCard key={r.approval_id} r={r} onDismiss={() => dismissReview(r.approval_id)} />
      ))}
      {head && (
        <div className="queue">
          {head.review && <ReviewCard r={head.review} />}
          {pending.length > 1 && <p className="queue-count">{`${pending.length} approvals waiting, in call order`}</p>}
          <ApprovalCard key={head.id} p={head} position={1} total={pending.length} />
          {pending.length > 1 && (
            <ol className="queue-rest" start={2} aria-label="Waiting next">
              {pending.slice(1).map((p) => (
                <li key={p.id}>{`${p.tool}: ${summarizeCall(p.tool, p.args)}`}</li>
              ))}
            </ol>
          )}
        </div>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
