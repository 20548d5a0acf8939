// "Approve all for this session", made deliberate and visible:
// - ApproveAllConfirm: the second step after the card's button, an alertdialog that says in words what
//   runs unasked and what still asks. Focus starts on "Keep asking"; Enter never confirms (only a click,
//   or Space on the button, after the dialog has been open a moment); Escape cancels; no key reaches
//   the card or the dock's chord while it is open.
// - ApproveAllBanner: in the chat of a session in approve-all mode, with End.
// - ApproveAllGrantRow: the same, as a session grant in Settings → Grants, with Revoke; and
//   SessionApprovalRow: an "Approve for session" (one exact call, for the rest of its session), too.
// Ending it in any of these places (or `ctl approve-all end`) ends it everywhere, audited.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { createPortal } from 'react-dom';
import type { PendingApproval } from '../../../common/approvals';
import { STILL_ASKS, STILL_REFUSED, bannerText, sessionName } from '../model/approve-all';
import { formatTime, summarizeCall } from '../model/describe';
import { refusedKey } from '../deliberate';
import { visibleText } from '../../../common/visible-text';
import type { ApproveAllView, SessionApprovalView } from '../store/types';
import { useApp } from '../store/store';
import { Visible } from './call-body';

/** The confirm button stays disabled this long after the dialog opens: a double click on the card's button is not a yes. */
export const CONFIRM_ARMING_MS = 600;

export function ApproveAllConfirm({ p, onConfirm, onCancel }: { p: PendingApproval; onConfirm: () => void; onCancel: () => void }) {
  const titleId = useId();
  const descId = useId();
  const title = useApp((s) => visibleText(sessionName(s.sessions.find((x) => x.id === p.session_id)?.title, p.session_id)));
  const others = useApp((s) => s.pending.filter((x) => x.session_id === p.session_id && x.id !== p.id && !x.orphan && x.outcomes.includes('approve_all_session')).length);
  const keepAsking = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const [openedAt] = useState(() => performance.now());
  const [armed, setArmed] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const back = document.activeElement as HTMLElement | null;
    keepAsking.current?.focus();
    const t = setTimeout(() => setArmed(true), CONFIRM_ARMING_MS);
    return () => {
      clearTimeout(t);
      if (back?.isConnected) back.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Nothing typed here reaches the card's keys or the dock's Ctrl+Enter.
    e.stopPropagation();
    if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
    } else if (e.key === 'Tab') {
      // Two buttons: Tab moves between them and never leaves the dialog.
      e.preventDefault();
      (document.activeElement === keepAsking.current && !confirm.current?.disabled ? confirm : keepAsking).current?.focus();
    }
  };

  const onConfirmKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    setNotice('Enter does not turn approve all on. Click the button, or press Space on it.');
  };

  const onConfirmClick = (e: MouseEvent<HTMLButtonElement>) => {
    // detail 0: pressed with Space (Enter is stopped above): the type-ahead rule applies, as on the card.
    if (e.detail === 0) {
      const why = refusedKey('run', openedAt);
      if (why) return setNotice(`That key was ignored: ${why}`);
    }
    onConfirm();
  };

  return createPortal(
    <div className="modal-backdrop">
      <div className="dialog approve-all-confirm" role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={descId} onKeyDown={onKeyDown}>
        <h2 id={titleId}>{`Approve everything in session ${title}?`}</h2>
        <div id={descId}>
          <p>
            {'From now on, calls the agent makes in this session run without asking you, starting with this one ('}
            <Visible text={`${p.tool}: ${summarizeCall(p.tool, p.args)}`} />
            {others ? `) and the ${others === 1 ? 'other card' : `${others} other cards`} of this session waiting now.` : ').'}
            {' History records each of them as decided by “Approve all (this session)”.'}
          </p>
          <p className="still">Still asks you, every time:</p>
          <ul>
            {STILL_ASKS.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
          <p>
            <span className="still">Still refused:</span> {`${STILL_REFUSED.join('; ')}.`}
          </p>
          <p>
            {'It stays on, also after a restart, until you end it: End on the banner in this chat, Revoke in Settings → Grants, or '}
            <code>{`threshold ctl approve-all end ${p.session_id}`}</code>.
          </p>
        </div>
        <div className="actions">
          <button type="button" ref={keepAsking} className="primary" onClick={onCancel}>
            Keep asking
          </button>
          <button type="button" ref={confirm} className="danger" disabled={!armed} onKeyDown={onConfirmKey} onClick={onConfirmClick}>
            Approve all in this session
          </button>
        </div>
        <p className="hint">Enter never confirms this: click the button, or press Space on it. Escape keeps asking.</p>
        {notice && (
          <p className="error" role="alert">
            {notice}
          </p>
        )}
      </div>
    </div>,
    document.body,
  );
}

function useEnd(sessionId: string) {
  const end = useApp((s) => s.endApproveAll);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    const r = await end(sessionId);
    setBusy(false);
    if (!r.ok && r.error.code !== 'not_found') setError(r.error.message);
  };
  return { run, busy, error };
}

/** In the chat of a session in approve-all mode: that it is on, since when, how many calls it let through, and End. */
export function ApproveAllBanner() {
  const session = useApp((s) => s.currentSessionId);
  const v = useApp((s) => s.approveAll.find((x) => x.session_id === session));
  return v ? <Banner v={v} /> : null;
}

function Banner({ v }: { v: ApproveAllView }) {
  const { run, busy, error } = useEnd(v.session_id);
  const connected = useApp((s) => s.connection === 'open');
  return (
    <section className="approve-all-banner" role="region" aria-label="Approve all is on">
      <p>
        <strong>{bannerText(formatTime(v.since), v.uses)}</strong> Destructive commands, secrets, changes to Threshold, the agent&apos;s questions and sandbox requests still ask.
      </p>
      <button type="button" className="danger" disabled={busy || !connected} onClick={() => void run()}>
        End approve all
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** Settings → Grants: a session in approve-all mode is a session grant for every tool but the floors. */
export function ApproveAllGrantRow({ v, now }: { v: ApproveAllView; now: number }) {
  const { run, busy, error } = useEnd(v.session_id);
  const title = visibleText(sessionName(v.session_title, v.session_id));
  return (
    <tr className="grant state-active approve-all" data-session-id={v.session_id}>
      <td>Every tool</td>
      <td>
        <code>everything but the floors (approve all)</code>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </td>
      <td>{`This session: ${title}`}</td>
      <td>Until ended</td>
      <td>
        {'Approve all on '}
        {v.call ? <Visible text={`${v.call.tool}: ${summarizeCall(v.call.tool, v.call.args)}`} /> : 'a card'}
        {`${v.started_by ? ` (${v.started_by})` : ''}, ${formatTime(v.since, now)}`}
      </td>
      <td>{v.last_used_at ? formatTime(v.last_used_at, now) : 'Never'}</td>
      <td className="num">{v.uses}</td>
      <td className="num">{v.uses}</td>
      <td>
        <div className="row-actions">
          <button type="button" className="danger" disabled={busy} aria-label={`Revoke approve all in session ${title}`} onClick={() => void run()}>
            Revoke
          </button>
        </div>
      </td>
    </tr>
  );
}

/** Settings → Grants: "Approve for session" on a card is a session grant for that exact call. */
export function SessionApprovalRow({ a, now }: { a: SessionApprovalView; now: number }) {
  const revoke = useApp((s) => s.revokeSessionApproval);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = summarizeCall(a.tool, a.args);
  const title = visibleText(sessionName(a.session_title, a.session_id));
  return (
    <tr className="grant state-active session-approval" data-approval-id={a.approval_id}>
      <td>{a.tool}</td>
      <td>
        {'exactly this call: '}
        <code>
          <Visible text={what} />
        </code>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </td>
      <td>{`This session: ${title}`}</td>
      <td>Until revoked</td>
      <td>{`Approve for session${a.decided_by ? ` (${a.decided_by})` : ''}, ${formatTime(a.decided_at, now)}`}</td>
      <td>{a.last_used_at ? formatTime(a.last_used_at, now) : 'Never'}</td>
      <td className="num">{a.uses}</td>
      <td className="num">{a.uses}</td>
      <td>
        <div className="row-actions">
          <button
            type="button"
            className="danger"
            disabled={busy}
            aria-label={`Revoke approval for session of ${visibleText(what)}`}
            onClick={async () => {
              setBusy(true);
              const r = await revoke(a.approval_id);
              setBusy(false);
              if (!r.ok && r.error.code !== 'not_found') setError(r.error.message);
            }}
          >
            Revoke
          </button>
        </div>
      </td>
    </tr>
  );
}
