// Cards that are not approvals, and look different: a question from the agent (ask_user), a sandbox
// consent offer (the jail blocked a path, or the egress proxy a host), and notify_user toasts.
import { useEffect, useId, useState, type MouseEvent } from 'react';
import type { QuestionView } from '../../../common/contract';
import type { ConsentOfferView, NotificationView } from '../bridge/events';
import { cannotActNow } from '../model/connection';
import { refusedPress } from '../deliberate';
import { ARMING_MS } from '../model/type-ahead';
import { oneLine } from '../model/describe';
import { useApp } from '../store/store';
import { Visible } from './call-body';

export function QuestionCard({ q }: { q: QuestionView }) {
  const titleId = useId();
  const answer = useApp((s) => s.answer);
  const dismiss = useApp((s) => s.dismissQuestion);
  const [text, setText] = useState('');
  const offline = useApp((s) => cannotActNow(s.connection));
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
        {offline && <p className="offline-note">{offline}</p>}
        <div className="actions">
          <button type="submit" className="primary" disabled={!text.trim() || offline !== null}>
            Answer
          </button>
          <button type="button" disabled={offline !== null} onClick={() => void dismiss(q.id)}>
            Dismiss
          </button>
        </div>
      </form>
    </section>
  );
}

type OfferChoice = 'session' | 'hour' | 'always' | 'deny';

/** A blocked write, or a change to code that runs outside the jail: one path, for the session or always. */
const PATH_CHOICES: [OfferChoice, string][] = [['session', 'Allow for this session'], ['always', 'Always allow this path'], ['deny', 'Keep denied']];

/** What a consent card says for each kind of thing the sandbox blocked, and the choices it offers. */
const OFFER_WORDING: Record<ConsentOfferView['access'], { title: (o: ConsentOfferView) => string; blocked: string; allowing: string; reporter: string; choices: (o: ConsentOfferView) => [OfferChoice, string][] }> = {
  write: {
    title: (o) => `Sandbox blocked writing: ${oneLine(o.path)}`,
    blocked: 'the jail kept it from writing to',
    allowing: 'Allowing it lets later commands write there',
    reporter: 'the jail',
    choices: () => PATH_CHOICES,
  },
  code: {
    title: (o) => `Sandbox blocked code that runs outside the jail: ${oneLine(o.path)}`,
    blocked: 'the jail kept it from changing',
    allowing: 'Allowing it lets later commands change it (and what it runs then runs outside the jail)',
    reporter: 'the jail',
    choices: () => PATH_CHOICES,
  },
  read: {
    title: (o) => `Sandbox hid a file that may hold credentials: ${oneLine(o.path)}`,
    blocked: 'the jail hides',
    allowing: 'Allowing it shows this one path to later commands (never the folder around it)',
    reporter: 'the jail',
    choices: () => [['session', 'Show it for this session'], ['always', 'Always show this path'], ['deny', 'Keep hidden']],
  },
  host: {
    title: (o) => `Sandbox blocked a connection to ${oneLine(o.path)}`,
    blocked: 'the proxy refused a connection to',
    allowing: 'Allowing it lets later commands (and web_fetch) reach it',
    reporter: 'the proxy',
    choices: (o) => [['session', `Allow ${oneLine(o.path)} for this session`], ['hour', 'For an hour'], ['always', 'Always'], ['deny', 'Keep blocked']],
  },
};

/** The sandbox blocked something an approved command tried: allow it (for the session, a time, always) or keep it blocked. */
export function ConsentCard({ o }: { o: ConsentOfferView }) {
  const titleId = useId();
  const decide = useApp((s) => s.decideOffer);
  const w = OFFER_WORDING[o.access];
  const offline = useApp((s) => cannotActNow(s.connection));
  // Allowing widens what later commands may do: the same deliberate-act rules as an approval's.
  const [shownAt] = useState(() => performance.now());
  const [armed, setArmed] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setArmed(true), ARMING_MS);
    return () => clearTimeout(t);
  }, []);
  const choose = (choice: OfferChoice) => (e: MouseEvent<HTMLButtonElement>) => {
    const why = refusedPress(choice === 'deny' ? 'refuse' : 'run', e, shownAt);
    setNotice(why);
    if (!why) void decide(o.id, choice);
  };
  return (
    <section className="card consent" role="region" aria-labelledby={titleId}>
      <h2 id={titleId}>{w.title(o)}</h2>
      <p>
        The command was approved, but {w.blocked} <code><Visible text={o.path} /></code>
        {o.attempted !== o.path && (
          <>
            {' '}
            (it tried <code><Visible text={o.attempted} /></code>)
          </>
        )}
        . {w.allowing}; the agent is told it may retry.
      </p>
      <details>
        <summary>{`What ${w.reporter} reported`}</summary>
        <pre className="command">
          <Visible text={o.evidence} />
        </pre>
      </details>
      {offline && <p className="offline-note">{offline}</p>}
      <div className="actions">
        {w.choices(o).map(([choice, label]) => (
          // Keeping it blocked is the default: the button a person reaches for without reading.
          <button key={choice} type="button" className={choice === 'deny' ? 'primary' : undefined} disabled={offline !== null || (choice !== 'deny' && !armed)} title={offline ?? undefined} onClick={choose(choice)}>
            {label}
          </button>
        ))}
      </div>
      {notice && (
        <p className="error" role="alert">
          {notice}
        </p>
      )}
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
