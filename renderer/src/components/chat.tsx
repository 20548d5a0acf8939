// The chat: sessions (each with how many cards wait for it), the conversation (streamed text, tool calls
// inline with their state and live output, the line each decision leaves), the dock of this chat's
// cards, and the message box with Send and Stop. Nothing typed in the message box decides a card.
import { Fragment, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FINAL_CALL_STATES, type CallState } from '../bridge/events';
import { CLASS_LABEL, clipEnd, clipMiddle, summarizeCall } from '../model/describe';
import { isSendChord } from '../model/type-ahead';
import { chatItems, SPEAKER, type ChatItem } from '../model/transcript';
import { useApp } from '../store/store';
import { ApproveAllBanner } from './approve-all';
import { Visible } from './call-body';
import { useCallView } from './call-view';
import { useDraft } from './draft';
import { Dock } from './dock';
import { ReviewCard } from './review-card';

const STATE_WORDS: Record<CallState, string> = {
  received: 'received',
  validating: 'checking',
  classifying: 'classifying',
  denied: 'refused',
  scheduled: 'allowed',
  reviewing: 'being reviewed',
  awaiting_approval: 'waiting for you',
  executing: 'running',
  succeeded: 'done',
  failed: 'failed',
  timed_out: 'timed out',
  interrupted: 'interrupted',
  cancelled: 'cancelled',
  refused: 'refused',
  not_run: 'not run',
  handed_off: 'run by the agent that asked',
};

/** Cards (approvals and questions) waiting in each session. */
function useWaitingBySession(): Map<string, number> {
  const pending = useApp((s) => s.pending);
  const questions = useApp((s) => s.questions);
  return useMemo(() => {
    const m = new Map<string, number>();
    for (const x of [...pending, ...questions]) m.set(x.session_id, (m.get(x.session_id) ?? 0) + 1);
    return m;
  }, [pending, questions]);
}

function Sessions() {
  const sessions = useApp((s) => s.sessions);
  const current = useApp((s) => s.currentSessionId);
  const running = useApp((s) => s.running);
  const select = useApp((s) => s.selectSession);
  const waiting = useWaitingBySession();
  return (
    <nav className="sessions" aria-label="Sessions">
      <button type="button" className="new-chat" onClick={() => void select(null)}>
        New chat
      </button>
      <ul>
        {sessions.map((s) => {
          const n = waiting.get(s.id) ?? 0;
          return (
            <li key={s.id}>
              <button type="button" aria-current={s.id === current ? 'true' : undefined} onClick={() => void select(s.id)} data-session-id={s.id}>
                <span className="session-title">{clipEnd(s.title ?? s.id, 80)}</span>
                {n > 0 && (
                  <span className="waiting-count" title={`${n} card${n > 1 ? 's' : ''} waiting for you`}>
                    {n}
                    <span className="sr-only"> waiting</span>
                  </span>
                )}
                {running.includes(s.id) && <span className="running-dot">running</span>}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function ToolCall({ item }: { item: Extract<ChatItem, { kind: 'call' }> }) {
  // The stored record History reads, advanced by live events (components/call-view.ts).
  const { state, klass, output } = useCallView(item);
  const [open, setOpen] = useState(false);
  const final = FINAL_CALL_STATES.has(state) || !!item.result;
  const showOpen = open || (!final && !!output);
  const body = item.result?.text ?? output ?? '';
  return (
    <li className={`tool-call state-${state}`} data-tool={item.tool}>
      <button type="button" className="tool-call-head" aria-expanded={showOpen} onClick={() => setOpen(!showOpen)}>
        <span className="tool-name">{clipMiddle(item.tool, 60)}</span>
        <span className="tool-summary">
          <Visible text={summarizeCall(item.tool, item.args)} />
        </span>
        {klass && <span className={`class-badge class-${klass}`}>{CLASS_LABEL[klass]}</span>}
        <span className="tool-state">{STATE_WORDS[state]}</span>
      </button>
      {showOpen && body && (
        <pre className="tool-output" aria-label={`Output of ${item.tool}`}>
          <Visible text={body} />
        </pre>
      )}
    </li>
  );
}

function Conversation() {
  const id = useApp((s) => s.currentSessionId);
  const entries = useApp((s) => (id ? s.transcripts[id] : undefined));
  const streaming = useApp((s) => (id ? s.streaming[id] : undefined));
  const notes = useApp((s) => (id ? s.localNotes[id] : undefined));
  const allReviews = useApp((s) => s.reviews);
  const reviews = useMemo(() => allReviews.filter((r) => r.session_id === id), [allReviews, id]);
  const items = useMemo(() => chatItems(entries ?? []), [entries]);
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [items.length, streaming, notes?.length]);
  if (!id) return <p className="empty">Start a conversation: type a message below.</p>;
  // The page's own lines (what was decided) sit after the items that were there when they were said.
  const notesAfter = (n: number) =>
    (notes ?? []).map((note, i) =>
      Math.min(note.after, items.length) === n ? (
        <li key={`local${i}`} className="message note local">
          <span className="who">Decision</span>
          <div className="text">
            <Visible text={note.text} />
          </div>
        </li>
      ) : null,
    );
  return (
    // Focusable: a keyboard can scroll the conversation even when it holds no button.
    <div className="conversation" role="log" aria-label="Conversation" tabIndex={0}>
      <ol>
      {notesAfter(0)}
      {items.map((it, i) => (
        <Fragment key={it.key}>
          {it.kind === 'call' ? (
            <ToolCall item={it} />
          ) : (
            <li className={`message ${it.kind}`}>
              <span className="who">{SPEAKER[it.kind]}</span>
              <div className="text">
                <Visible text={it.text} />
              </div>
            </li>
          )}
          {notesAfter(i + 1)}
        </Fragment>
      ))}
      {reviews.map((r) => (
        <li key={`review-${r.approval_id}`} className="message review">
          <ReviewCard r={r} />
        </li>
      ))}
      {streaming && (
        <li className="message assistant streaming">
          <span className="who">Agent</span>
          <div className="text">
            <Visible text={streaming} />
          </div>
        </li>
      )}
      <li ref={end} aria-hidden="true" className="end" />
      </ol>
    </div>
  );
}

function Composer() {
  const send = useApp((s) => s.send);
  const stop = useApp((s) => s.stop);
  const current = useApp((s) => s.currentSessionId);
  const running = useApp((s) => (current ? s.running.includes(current) : false));
  const focus = useApp((s) => s.composerFocus);
  const error = useApp((s) => s.sendError);
  // Kept in the tab as typed (components/draft.ts): a page reopened to sign in gets it back.
  const [text, setText] = useDraft();
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focus) box.current?.focus();
  }, [focus]);
  const submit = async () => {
    const message = text;
    if (!message.trim()) return;
    setText('');
    const ok = await send(message);
    if (!ok) setText((t) => t || message);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME's Enter confirms the text being composed; it sends nothing.
    if (e.nativeEvent.isComposing || e.key === 'Process' || e.keyCode === 229) return;
    // Enter sends, and so does Ctrl+Enter (Cmd+Enter), as in most chat apps. Neither ever decides a card.
    if (isSendChord(e.nativeEvent) || (e.key === 'Enter' && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey)) {
      e.preventDefault();
      void submit();
    }
  };
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label htmlFor="message-box" className="sr-only">
        Message
      </label>
      <textarea
        id="message-box"
        ref={box}
        rows={2}
        value={text}
        placeholder="Message the agent (Enter sends, Shift+Enter for a new line)"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="primary" disabled={!text.trim()}>
        Send
      </button>
      {running && (
        <button type="button" className="danger" onClick={() => void stop()}>
          Stop
        </button>
      )}
      {error && (
        <p className="error" role="alert">
          <Visible text={error} />
        </p>
      )}
    </form>
  );
}

export function ChatScreen() {
  const title = useApp((s) => s.sessions.find((x) => x.id === s.currentSessionId)?.title ?? s.currentSessionId);
  return (
    <div className="chat-screen">
      <Sessions />
      <section className="chat" aria-label="Chat">
        <ApproveAllBanner />
        <h1 className="chat-title">{title ? clipEnd(title, 100) : 'New chat'}</h1>
        <Conversation />
        <Dock />
        <Composer />
      </section>
    </div>
  );
}
