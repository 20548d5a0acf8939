// Cards that are not approvals, and look different: a question from the agent (ask_user), a sandbox
// consent offer (the jail blocked a path), and notify_user toasts.
import { useEffect, useId, useState } from 'react';
import type { QuestionView } from '../../../common/contract';
import type { ConsentOfferView, NotificationView } from '../bridge/events';
import { useApp } from '../store/store';
import { Visible } from './call-body';

export function QuestionCard({ q }: { q: QuestionView }) {
  const titleId = useId();
  const answer = useApp((s) => s.answer);
  const dismiss = useApp((s) => s.dismissQuestion);
  const [text, setText] = useState('');
  return (
    <section className="card question" role="region" aria-labelledby={titleId}>
      <h2 id={titleId}>Question from the agent</h2>
      <p className="question-text">
        <Visible text={q.question} />
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) void answer(q.id, text.trim());
        }}
      >
        <label htmlFor={`${titleId}-answer`}>Your answer</label>
        <textarea id={`${titleId}-answer`} rows={2} value={text} onChange={(e) => setText(e.target.value)} />
        <div className="actions">
          <button type="submit" className="primary" disabled={!text.trim()}>
            Answer
          </button>
          <button type="button" onClick={() => void dismiss(q.id)}>
            Dismiss
          </button>
        </div>
      </form>
    </section>
  );
}

/** A host the egress proxy refused: allow it for this session, for an hour, always, or keep it blocked. */
function HostConsentCard({ o }: { o: ConsentOfferView }) {
  const titleId = useId();
  const decide = useApp((s) => s.decideOffer);
  return (
    <section className="card consent" role="region" aria-labelledby={titleId}>
      <h2 id={titleId}>{`Sandbox blocked a connection to ${o.path}`}</h2>
      <p>
        The command was approved, but <code><Visible text={o.attempted} /></code> is not on the allowed hosts, so the sandbox refused the connection. Allowing it lets later commands
        (and web_fetch) reach it; the agent is told it may retry.
      </p>
      <details>
        <summary>What the proxy reported</summary>
        <pre className="command">
          <Visible text={o.evidence} />
        </pre>
      </details>
      <div className="actions">
        <button type="button" onClick={() => void decide(o.id, 'session')}>
          {`Allow ${o.path} for this session`}
        </button>
        <button type="button" onClick={() => void decide(o.id, 'hour')}>
          For an hour
        </button>
        <button type="button" onClick={() => void decide(o.id, 'always')}>
          Always
        </button>
        <button type="button" className="primary" onClick={() => void decide(o.id, 'deny')}>
          Keep blocked
        </button>
      </div>
    </section>
  );
}

export function ConsentCard({ o }: { o: ConsentOfferView }) {
  if (o.access === 'host') return <HostConsentCard o={o} />;
  return <PathConsentCard o={o} />;
}

function PathConsentCard({ o }: { o: ConsentOfferView }) {
  const titleId = useId();
  const decide = useApp((s) => s.decideOffer);
  const what = o.access === 'code' ? 'code that runs outside the jail' : 'writing';
  return (
    <section className="card consent" role="region" aria-labelledby={titleId}>
      <h2 id={titleId}>{`Sandbox blocked ${what}: ${o.path}`}</h2>
      <p>
        The command was approved, but the jail kept it from {o.access === 'code' ? 'changing' : 'writing to'} <code><Visible text={o.path} /></code>
        {o.attempted !== o.path && (
          <>
            {' '}
            (it tried <code><Visible text={o.attempted} /></code>)
          </>
        )}
        . Allowing it lets later commands write there; the agent is told it may retry.
      </p>
      <details>
        <summary>What the jail reported</summary>
        <pre className="command">
          <Visible text={o.evidence} />
        </pre>
      </details>
      <div className="actions">
        <button type="button" onClick={() => void decide(o.id, 'session')}>
          Allow for this session
        </button>
        <button type="button" onClick={() => void decide(o.id, 'always')}>
          Always allow this path
        </button>
        <button type="button" className="primary" onClick={() => void decide(o.id, 'deny')}>
          Keep denied
        </button>
      </div>
    </section>
  );
}

const TOAST_MS = 8000;

function Toast({ n }: { n: NotificationView }) {
  const dismiss = useApp((s) => s.dismissToast);
  useEffect(() => {
    if (n.urgency !== 'info') return;
    const t = setTimeout(() => dismiss(n.id), TOAST_MS);
    return () => clearTimeout(t);
  }, [n.id, n.urgency, dismiss]);
  return (
    <div className={`toast urgency-${n.urgency}`} role={n.urgency === 'urgent' ? 'alert' : 'status'}>
      <span className="toast-title">{n.urgency === 'info' ? 'From the agent' : 'The agent needs your attention'}</span>
      <span className="toast-body">
        <Visible text={n.message} />
      </span>
      <button type="button" aria-label="Close notification" onClick={() => dismiss(n.id)}>
        ×
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useApp((s) => s.toasts);
  return (
    <div className="toasts">
      {toasts.map((n) => (
        <Toast key={n.id} n={n} />
      ))}
    </div>
  );
}
