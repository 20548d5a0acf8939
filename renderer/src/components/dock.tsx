// The dock above the message box, for the chat that is open: cards decided elsewhere (said in place,
// never silently replaced), consent offers, questions, then this chat's approval cards in call order
// (the oldest in full, a count and the rest listed), and a line for every other chat where something
// waits, with a link there. No key anywhere approves: a card decides only by what is done on it.
import { useEffect } from 'react';
import { CLASS_LABEL, clipEnd, clipMiddle, summarizeCall } from '../model/describe';
import { restoreFocusAfterCard } from '../focus-after';
import { useApp } from '../store/store';
import type { AppState } from '../store/types';
import { ApprovalCard } from './approval-card';
import { Visible } from './call-body';
import { ConsentCard, QuestionCard } from './prompt-cards';
import { ReviewCard } from './review-card';

/** The last "show this card" request handled (a remounted dock must not take focus again for an old one). */
let shownRequest = 0;

function SettledNotice({ id, text }: { id: string; text: string }) {
  const dismiss = useApp((s) => s.dismissSettled);
  return (
    <div className="settled" role="status" data-settled-id={id}>
      <span className="settled-text">
        <Visible text={text} oneLine />
      </span>
      <button type="button" onClick={() => dismiss(id)} aria-label="Dismiss this notice">
        OK
      </button>
    </div>
  );
}

/** What waits in the other chats: one compact line, a way to each chat. */
function Elsewhere({ current }: { current: string | null }) {
  const pending = useApp((s) => s.pending);
  const questions = useApp((s) => s.questions);
  const sessions = useApp((s) => s.sessions);
  const showApproval = useApp((s) => s.showApproval);
  const select = useApp((s) => s.selectSession);
  const bySession = new Map<string, { cards: AppState['pending']; questions: number }>();
  const entry = (id: string) => bySession.get(id) ?? bySession.set(id, { cards: [], questions: 0 }).get(id)!;
  for (const p of pending) if (p.session_id !== current) entry(p.session_id).cards.push(p);
  for (const q of questions) if (q.session_id !== current) entry(q.session_id).questions++;
  if (!bySession.size) return null;
  return (
    <div className="elsewhere" role="group" aria-labelledby="elsewhere-title">
      <span id="elsewhere-title" className="elsewhere-title">
        {current ? 'Also waiting, in other chats:' : 'Waiting in chats (open one to decide):'}
      </span>
      <ul>
        {[...bySession].map(([sessionId, w]) => {
          const title = clipEnd(sessions.find((s) => s.id === sessionId)?.title ?? sessionId, 32);
          const what = [...w.cards.map((p) => `${clipMiddle(p.tool, 30)} (${CLASS_LABEL[p.class]})`), ...(w.questions ? [`${w.questions} question${w.questions > 1 ? 's' : ''}`] : [])].join(', ');
          return (
            <li key={sessionId}>
              <button type="button" className="link" title={`Open the chat “${title}”`} onClick={() => (w.cards[0] ? showApproval(w.cards[0].id) : void select(sessionId))}>
                {`“${title}”: ${what}`}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function Dock() {
  const session = useApp((s) => s.currentSessionId);
  const allPending = useApp((s) => s.pending);
  const allQuestions = useApp((s) => s.questions);
  const allOffers = useApp((s) => s.offers);
  const allSettled = useApp((s) => s.settled);
  const error = useApp((s) => s.decisionError ?? s.promptError);
  const pending = allPending.filter((p) => p.session_id === session);
  const questions = allQuestions.filter((q) => q.session_id === session);
  const offers = allOffers.filter((o) => o.session_id === session);
  const settled = allSettled.filter((x) => x.session_id === session);
  const head = pending[0];
  // Auto-approvals of this session stay in the queue until put away: a gated call ran without you.
  const reviews = useApp((s) => s.reviews);
  const dismissed = useApp((s) => s.dismissedReviews);
  const dismissReview = useApp((s) => s.dismissReview);
  const approvedCards = reviews.filter((r) => r.outcome === 'approved' && r.session_id === session && !dismissed.includes(r.approval_id));
  const show = useApp((s) => s.showRequest);
  const elsewhere = allPending.length > pending.length || allQuestions.length > questions.length;

  // A clicked notification: the person asked to see this card, so it (or, queued behind others, the
  // oldest card) comes into view and takes focus. Arrivals themselves never move focus.
  useEffect(() => {
    if (!show || show.n <= shownRequest || !head) return;
    shownRequest = show.n;
    const el = document.querySelector<HTMLElement>(`[data-approval-id="${CSS.escape(show.id)}"]`) ?? document.querySelector<HTMLElement>('[data-approval-id]');
    el?.scrollIntoView({ block: 'start' });
    el?.focus();
  }, [show, head]);

  // A card left while focus was in it: focus goes to the next card or the message box, never <body>.
  useEffect(() => restoreFocusAfterCard());

  if (!head && !questions.length && !offers.length && !approvedCards.length && !settled.length && !elsewhere && !error) return null;
  return (
    <div className="dock">
      <Elsewhere current={session} />
      {settled.map((x) => (
        <SettledNotice key={x.id} id={x.id} text={x.text} />
      ))}
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
          {pending.length > 1 && <p className="queue-count">{`${pending.length} approvals waiting in this chat, in call order`}</p>}
          <ApprovalCard key={head.id} p={head} position={1} total={pending.length} />
          {pending.length > 1 && (
            <ol className="queue-rest" start={2} aria-label="Waiting next">
              {pending.slice(1).map((p) => (
                <li key={p.id}>{`${clipMiddle(p.tool, 60)}: ${summarizeCall(p.tool, p.args)}`}</li>
              ))}
            </ol>
          )}
        </div>
      )}
      {error && (
        <p className="error" role="alert">
          <Visible text={error} />
        </p>
      )}
    </div>
  );
}
