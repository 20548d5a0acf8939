// One approval card: a non-modal region named "Approval request: <tool>", rendered from the pending
// approval's own data (its outcomes decide which buttons exist). Decisions are deliberate
// (renderer/src/model/type-ahead.ts): the card never takes focus, nothing typed in the message box
// reaches it, single keys work only while the card has focus, and what lets the call run needs a
// deliberate key or click on this card and a body that was seen in full. Deny and Skip stay fast.
// Its first screen says who asked, the title line with the part that decided, and every part of a
// command above read.
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { HumanOutcome, PendingApproval } from '../../../common/approvals';
import { refusedKey, refusedPress } from '../deliberate';
import { rememberFocusLeaving } from '../focus-after';
import { BUTTON_ORDER, CLASS_LABEL, CLASS_WORDS, OUTCOME_BUTTONS, cardTitle, clipEnd, floorWords, formatRemaining, oneLine, orphanNote, originLine } from '../model/describe';
import { cannotActNow } from '../model/connection';
import { offersReveal } from '../model/reveal';
import { cardShortcut, ARMING_MS, type DecisionWeight } from '../model/type-ahead';
import { useApp } from '../store/store';
import { ApproveAllConfirm } from './approve-all';
import { CallBody, PartsThatMatter, Visible } from './call-body';
import { GrantEditor } from './grant-editor';
import { CardSuggestion } from './grant-suggestions';

export { ARMING_MS };

const KEY_HINTS: Partial<Record<HumanOutcome, string>> = { approve_once: 'Y', skip: 'S', deny: 'N' };

/** Deny and Skip keep the call from running; every other outcome lets it (or more) run. */
export function weightOf(o: HumanOutcome): DecisionWeight {
  return o === 'skip' || o === 'deny' ? 'refuse' : 'run';
}

function inTextField(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable);
}

function TimeLeft({ expiresAt, offline }: { expiresAt: number | null; offline: boolean }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (expiresAt === null || offline) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [expiresAt, offline]);
  // Disconnected, the page cannot know what Threshold did with the card meanwhile: no countdown pretends to.
  if (offline) return <span className="time-left">Time left unknown while disconnected</span>;
  if (expiresAt === null) return <span className="time-left">Waits until you decide</span>;
  return <span className="time-left">{formatRemaining(expiresAt - now)}</span>;
}

export function ApprovalCard({ p, position, total }: { p: PendingApproval; position: number; total: number }) {
  const titleId = useId();
  const shownAt = useApp((s) => s.shownAt[p.id]);
  const markShown = useApp((s) => s.markShown);
  const decide = useApp((s) => s.decide);
  const sessionTitle = useApp((s) => s.sessions.find((x) => x.id === p.session_id)?.title ?? p.session_id);
  const onPhone = useApp((s) => s.info?.runtime === 'phone');
  const [armed, setArmed] = useState(false);
  const [editing, setEditing] = useState(false);
  // A suggestion's "Always allow" opens the editor on "until revoked"; the card's own button on the session.
  const [editDuration, setEditDuration] = useState<'session' | 'always'>('session');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmingAll, setConfirmingAll] = useState(false);
  // While the page cannot reach Threshold the card says so and cannot be decided (model/connection.ts).
  const offline = useApp((s) => cannotActNow(s.connection));
  const [seen, setSeen] = useState(false);
  const reveal = useApp((s) => s.reveal);
  // The original arguments while Reveal is pressed; held by this card only and dropped on any decision.
  const [revealed, setRevealed] = useState<{ args: unknown } | null>(null);
  const [revealing, setRevealing] = useState(false);
  const ref = useRef<HTMLElement>(null);
  const alwaysButton = useRef<HTMLButtonElement>(null);
  const editorOpened = useRef(false);
  const saveClick = useRef<{ detail: number; at: number } | null>(null);

  useLayoutEffect(() => {
    markShown(p.id, performance.now());
    const t = setTimeout(() => setArmed(true), ARMING_MS);
    const el = ref.current;
    return () => {
      clearTimeout(t);
      // Decided (here or elsewhere), expired or cancelled while focus was in it: focus moves on, never to <body>.
      rememberFocusLeaving(el);
    };
  }, [p.id, markShown]);

  // "Always allow…" swaps the buttons for the editor: focus goes into the editor, and back on Cancel.
  useEffect(() => {
    if (editing) {
      editorOpened.current = true;
      ref.current?.querySelector<HTMLElement>('.grant-editor input, .grant-editor button')?.focus();
    } else if (editorOpened.current) {
      editorOpened.current = false;
      alwaysButton.current?.focus();
    }
  }, [editing]);

  const onSeen = useCallback((s: boolean) => setSeen(s), []);

  const act = async (outcome: HumanOutcome, extras: Parameters<typeof decide>[2] = {}) => {
    setRevealed(null);
    // The busy buttons are disabled, which drops their focus: say now where focus must go after.
    rememberFocusLeaving(ref.current);
    setBusy(true);
    const r = await decide(p.id, outcome, extras);
    setBusy(false);
    if (!r.ok) setNotice(r.error.message);
  };

  /** Whether the key being handled may make a decision of this weight here (a notice says why not). */
  const keyAllowed = (weight: DecisionWeight): boolean => {
    const why = refusedKey(weight, shownAt);
    if (why) setNotice(why);
    return !why;
  };

  /** Whether a press (a click, or Enter/Space on the button) may make a decision of this weight. */
  const pressAllowed = (weight: DecisionWeight, e: { detail: number; timeStamp: number }): boolean => {
    const why = refusedPress(weight, e, shownAt);
    if (why) setNotice(why);
    return !why;
  };

  const onButton = (outcome: HumanOutcome) => (e: MouseEvent<HTMLButtonElement>) => {
    const weight = weightOf(outcome);
    if (weight === 'run' && !seen) return setNotice(UNSEEN_WORDS);
    if (!pressAllowed(weight, e)) return;
    setNotice(null);
    if (outcome === 'approve_always') {
      setEditDuration('session');
      return setEditing(true);
    }
    // Approve all asks once more, in words (components/approve-all.tsx).
    if (outcome === 'approve_all_session') return setConfirmingAll(true);
    void act(outcome, weight === 'refuse' ? { note: note.trim() || undefined } : {});
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // While the approve-all question is open, or Threshold cannot be reached, no key on the card decides.
    if (confirmingAll || offline) return;
    const action = cardShortcut({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inTextField: inTextField(e.target) });
    if (!action || !p.outcomes.includes(action)) return;
    e.preventDefault();
    const weight = weightOf(action);
    if (weight === 'run' && !seen) return setNotice(UNSEEN_WORDS);
    if (!keyAllowed(weight)) return;
    setNotice(null);
    void act(action, weight === 'refuse' ? { note: note.trim() || undefined } : {});
  };

  const onReveal = async () => {
    if (revealed) return setRevealed(null);
    setRevealing(true);
    const r = await reveal(p.id);
    setRevealing(false);
    if (!r.ok) return setNotice(`Reveal failed: ${r.error.message}`);
    setNotice(null);
    setRevealed(r.value);
  };

  const buttons = BUTTON_ORDER.filter((o) => p.outcomes.includes(o));
  const cwd = (p as { cwd?: unknown }).cwd;
  const workspace = useApp((s) => s.workspace);
  const args = (p.args ?? {}) as Record<string, unknown>;
  const folder = typeof cwd === 'string' ? cwd : typeof args['cwd'] === 'string' ? (args['cwd'] as string) : null;
  const reasonId = `${titleId}-unseen`;
  return (
    <section ref={ref} className={`card approval class-${p.class}${p.floor ? ' floor' : ''}`} role="region" aria-labelledby={titleId} tabIndex={0} onKeyDown={onKeyDown} data-approval-id={p.id}>
      <header className="card-head">
        <h2 id={titleId}>{`Approval request: ${oneLine(p.tool)}`}</h2>
        <span className={`class-badge class-${p.class}`} title={CLASS_WORDS[p.class]}>
          <span aria-hidden="true" className="class-icon" />
          {CLASS_LABEL[p.class]}
        </span>
        {total > 1 && <span className="count">{`${position} of ${total}`}</span>}
        <TimeLeft expiresAt={p.expires_at} offline={offline !== null} />
      </header>
      <p className="origin">
        {`${originLine(p.origin)}, in this chat (`}
        <Visible text={clipEnd(sessionTitle, 48)} oneLine />
        {')'}
      </p>
      <p className="summary">{cardTitle(p)}</p>
      <PartsThatMatter p={p} />
      <p className="class-words">{`Class: ${CLASS_WORDS[p.class]}`}</p>
      {offersReveal(p) && (
        <div className="reveal">
          <button type="button" aria-pressed={revealed !== null} disabled={revealing} onClick={() => void onReveal()} title="Show the call as the agent sent it, secrets included, while it waits">
            Reveal
          </button>
          <span className="hint">{revealed ? 'Showing the original arguments, secrets included. Press Reveal again to hide them.' : 'Parts of this call are redacted (secrets).'}</span>
        </div>
      )}
      <CallBody p={revealed ? { ...p, args: revealed.args } : p} onSeen={onSeen} />
      <dl className="facts">
        <dt>Working folder</dt>
        <dd>
          <code>
            <Visible text={folder ?? workspace ?? 'the workspace'} />
          </code>
        </dd>
        <dt>Why you are asked</dt>
        <dd className="reason">
          <Visible text={p.reason} />
        </dd>
      </dl>
      {p.floor && <p className="floor-note">{`No "Always allow": ${floorWords(p.floor)}`}</p>}
      {onPhone ? (
        // A paired phone is offered approve once, skip and deny only (main/remote/phone.ts); say so rather than guess why.
        <p className="floor-note">{p.outcomes.includes('approve_once') ? 'On a phone: approve once, skip or deny. Always allow and approve all are at your desk.' : 'Approve is not offered on a phone for this card (a floor, or above what you allowed from afar): decide it at your desk, or skip or deny it here.'}</p>
      ) : (
        !p.floor && !p.outcomes.includes('approve_always') && <p className="floor-note">No &quot;Always allow&quot;: no grant can be made safely for this call (it holds a secret, or cannot be analysed).</p>
      )}
      {p.orphan && <p className="warning">{orphanNote(p.origin)}</p>}
      {editing && p.proposed_grant ? (
        <div
          onClickCapture={(e) => {
            saveClick.current = { detail: e.detail, at: e.timeStamp };
          }}
        >
          <GrantEditor
            tool={p.tool}
            initial={p.proposed_grant.patterns}
            initialDuration={editDuration}
            busy={busy}
            approval={p}
            verb="Allow"
            onCancel={() => setEditing(false)}
            onSave={(v) => {
              // Saving lets the call run: the same deliberate-act rules as Approve.
              const press = saveClick.current ?? { detail: 0, at: performance.now() };
              if (!seen) return setNotice(UNSEEN_WORDS);
              if (offline) return setNotice(offline);
              if (!pressAllowed('run', { detail: press.detail, timeStamp: press.at })) return;
              void act('approve_always', { grant: { patterns: v.patterns, duration: v.duration }, grantNote: v.note.trim() || undefined });
            }}
          />
        </div>
      ) : (
        <>
          <CardSuggestion
            p={p}
            onAccept={() => {
              setEditDuration('always');
              setEditing(true);
            }}
          />
          <div className="field note">
            <label htmlFor={`${titleId}-note`}>Note for the agent (optional, sent with Skip or Deny)</label>
            <input id={`${titleId}-note`} type="text" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
          </div>
          {offline && <p className="offline-note">{offline}</p>}
          <div className="actions">
            {buttons.map((o) => {
              const run = weightOf(o) === 'run';
              return (
                <button
                  key={o}
                  ref={o === 'approve_always' ? alwaysButton : undefined}
                  type="button"
                  className={o === 'approve_once' ? 'primary' : o === 'deny' ? 'danger' : ''}
                  disabled={busy || offline !== null || (run && (!armed || !seen))}
                  title={offline ?? undefined}
                  aria-describedby={run && !seen ? reasonId : undefined}
                  onClick={onButton(o)}
                  aria-keyshortcuts={KEY_HINTS[o]}
                >
                  {OUTCOME_BUTTONS[o]}
                  {KEY_HINTS[o] && (
                    <kbd aria-hidden="true" className="key-hint">
                      {KEY_HINTS[o]}
                    </kbd>
                  )}
                </button>
              );
            })}
          </div>
          {!seen && (
            <p className="unseen-reason" id={reasonId}>
              {UNSEEN_WORDS}
            </p>
          )}
          <p className="hint">Keys while this card has focus: Y approves once, S skips, N denies. Nothing typed in the message box decides a card; wider approvals take their own button.</p>
        </>
      )}
      {notice && (
        <p className="error" role="alert">
          <Visible text={notice} />
        </p>
      )}
      {confirmingAll && !offline && (
        <ApproveAllConfirm
          p={p}
          onCancel={() => setConfirmingAll(false)}
          onConfirm={() => {
            setConfirmingAll(false);
            void act('approve_all_session');
          }}
        />
      )}
    </section>
  );
}

/** Why the buttons that let the call run are off. */
export const UNSEEN_WORDS = 'Approving is off until you have seen all of it: scroll the box to its end or press Show all. Skip and Deny work now.';
