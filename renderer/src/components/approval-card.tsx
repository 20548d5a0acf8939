// One approval card: a non-modal region named "Approval request: <tool>", rendered from the pending
// approval's own data (its outcomes decide which buttons exist). Type-ahead safety: the card never
// takes focus; a key acts only if the card was visible before it and nothing was typed in the second
// before; single keys work only while the card has focus; no key means anything wider than once.
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { HumanOutcome, PendingApproval } from '../../../common/approvals';
import { currentKey } from '../key-clock';
import { BUTTON_ORDER, CLASS_LABEL, CLASS_WORDS, OUTCOME_BUTTONS, floorWords, formatRemaining, summarizeCall } from '../model/describe';
import { offersReveal } from '../model/reveal';
import { cardShortcut, keyMayDecide } from '../model/type-ahead';
import { useApp } from '../store/store';
import { CallBody, Visible } from './call-body';
import { GrantEditor } from './grant-editor';
import { CardSuggestion } from './grant-suggestions';

/** A pointer click this soon after the card appeared is not taken as a decision. */
export const ARMING_MS = 400;

const KEY_HINTS: Partial<Record<HumanOutcome, string>> = { approve_once: 'Y', skip: 'S', deny: 'N' };

function inTextField(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable);
}

function TimeLeft({ expiresAt }: { expiresAt: number | null }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (expiresAt === null) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [expiresAt]);
  if (expiresAt === null) return <span className="time-left">Waits until you decide</span>;
  return <span className="time-left">{formatRemaining(expiresAt - now)}</span>;
}

export function ApprovalCard({ p, position, total }: { p: PendingApproval; position: number; total: number }) {
  const titleId = useId();
  const shownAt = useApp((s) => s.shownAt[p.id]);
  const markShown = useApp((s) => s.markShown);
  const decide = useApp((s) => s.decide);
  const onPhone = useApp((s) => s.info?.runtime === 'phone');
  const [armed, setArmed] = useState(false);
  const [editing, setEditing] = useState(false);
  // A suggestion's "Always allow" opens the editor on "until revoked"; the card's own button on the session.
  const [editDuration, setEditDuration] = useState<'session' | 'always'>('session');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const reveal = useApp((s) => s.reveal);
  // The original arguments while Reveal is pressed; held by this card only and dropped on any decision.
  const [revealed, setRevealed] = useState<{ args: unknown } | null>(null);
  const [revealing, setRevealing] = useState(false);
  const ref = useRef<HTMLElement>(null);

  useLayoutEffect(() => {
    markShown(p.id, performance.now());
    const t = setTimeout(() => setArmed(true), ARMING_MS);
    return () => clearTimeout(t);
  }, [p.id, markShown]);

  const act = async (outcome: HumanOutcome, extras: Parameters<typeof decide>[2] = {}) => {
    setRevealed(null);
    setBusy(true);
    const r = await decide(p.id, outcome, extras);
    setBusy(false);
    if (!r.ok) setNotice(r.error.message);
  };

  /** Whether the key being handled may decide this card. */
  const keyAllowed = (): boolean => {
    const k = currentKey();
    const verdict = k && shownAt !== undefined ? keyMayDecide({ at: k.at, previousAt: k.previousAt, cardShownAt: shownAt, repeat: k.repeat }) : ({ ok: false, why: 'before_card' } as const);
    if (!verdict.ok) setNotice(verdict.why === 'typing' ? 'That key was ignored: keys typed within a second of other typing never decide. Press it again.' : 'That key was ignored: it was pressed before this card appeared.');
    return verdict.ok;
  };

  const onButton = (outcome: HumanOutcome) => (e: MouseEvent<HTMLButtonElement>) => {
    // detail 0: the button was pressed with Enter or Space, so the key rules apply.
    if (e.detail === 0 && !keyAllowed()) return;
    setNotice(null);
    if (outcome === 'approve_always') {
      setEditDuration('session');
      return setEditing(true);
    }
    void act(outcome, outcome === 'deny' || outcome === 'skip' ? { note: note.trim() || undefined } : {});
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const action = cardShortcut({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inTextField: inTextField(e.target) });
    if (!action || !p.outcomes.includes(action)) return;
    e.preventDefault();
    if (!armed || !keyAllowed()) return;
    void act(action, action === 'approve_once' ? {} : { note: note.trim() || undefined });
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
  const summary = summarizeCall(p.tool, p.args);
  const cwd = (p as { cwd?: unknown }).cwd;
  const workspace = useApp((s) => s.workspace);
  const args = (p.args ?? {}) as Record<string, unknown>;
  return (
    <section ref={ref} className={`card approval class-${p.class}${p.floor ? ' floor' : ''}`} role="region" aria-labelledby={titleId} tabIndex={0} onKeyDown={onKeyDown} data-approval-id={p.id}>
      <header className="card-head">
        <h2 id={titleId}>{`Approval request: ${p.tool}`}</h2>
        <span className={`class-badge class-${p.class}`} title={CLASS_WORDS[p.class]}>
          <span aria-hidden="true" className="class-icon" />
          {CLASS_LABEL[p.class]}
        </span>
        {total > 1 && <span className="count">{`${position} of ${total}`}</span>}
        <TimeLeft expiresAt={p.expires_at} />
      </header>
      <p className="summary">
        <Visible text={summary} />
      </p>
      <p className="class-words">{`Class: ${CLASS_WORDS[p.class]}`}</p>
      {offersReveal(p) && (
        <div className="reveal">
          <button type="button" aria-pressed={revealed !== null} disabled={revealing} onClick={() => void onReveal()} title="Show the call as the agent sent it, secrets included, while it waits">
            Reveal
          </button>
          <span className="hint">{revealed ? 'Showing the original arguments, secrets included. Press Reveal again to hide them.' : 'Parts of this call are redacted (secrets).'}</span>
        </div>
      )}
      <CallBody p={revealed ? { ...p, args: revealed.args } : p} />
      <dl className="facts">
        <dt>Working folder</dt>
        <dd>
          <code>{typeof cwd === 'string' ? cwd : typeof args['cwd'] === 'string' ? (args['cwd'] as string) : (workspace ?? 'the workspace')}</code>
        </dd>
        <dt>Why you are asked</dt>
        <dd className="reason">{p.reason}</dd>
      </dl>
      {p.floor && <p className="floor-note">{`No "Always allow": ${floorWords(p.floor)}`}</p>}
      {onPhone ? (
        // A paired phone is offered approve once, skip and deny only (main/remote/phone.ts); say so rather than guess why.
        <p className="floor-note">{p.outcomes.includes('approve_once') ? 'On a phone: approve once, skip or deny. Always allow and approve all are at your desk.' : 'Approve is not offered on a phone for this card (a floor, or above what you allowed from afar): decide it at your desk, or skip or deny it here.'}</p>
      ) : (
        !p.floor && !p.outcomes.includes('approve_always') && <p className="floor-note">No &quot;Always allow&quot;: no grant can be made safely for this call (it holds a secret, or cannot be analysed).</p>
      )}
      {p.orphan && <p className="warning">This approval is from an earlier run of Threshold. Approving it lets the agent carry the call out when the session continues.</p>}
      {editing && p.proposed_grant ? (
        <GrantEditor
          tool={p.tool}
          initial={p.proposed_grant.patterns}
          initialDuration={editDuration}
          busy={busy}
          approval={p}
          verb="Allow"
          onCancel={() => setEditing(false)}
          onSave={(v) => void act('approve_always', { grant: { patterns: v.patterns, duration: v.duration }, grantNote: v.note.trim() || undefined })}
        />
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
          <div className="actions">
            {buttons.map((o) => (
              <button key={o} type="button" className={o === 'approve_once' ? 'primary' : o === 'deny' ? 'danger' : ''} disabled={!armed || busy} onClick={onButton(o)} aria-keyshortcuts={o === 'approve_once' ? 'Control+Enter Meta+Enter' : undefined}>
                {OUTCOME_BUTTONS[o]}
                {KEY_HINTS[o] && (
                  <kbd aria-hidden="true" className="key-hint">
                    {KEY_HINTS[o]}
                  </kbd>
                )}
              </button>
            ))}
          </div>
          <p className="hint">Keys while this card has focus: Y approves once, S skips, N denies. Anywhere: Ctrl+Enter (⌘+Enter) approves once. Wider approvals take a click.</p>
        </>
      )}
      {notice && (
        <p className="error" role="alert">
          {notice}
        </p>
      )}
    </section>
  );
}
