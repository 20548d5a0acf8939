// The chat: sessions, the conversation (streamed text, tool calls inline with their state and live
// output), the dock of cards, and the message box with Send and Stop.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FINAL_CALL_STATES, type CallState } from '../bridge/events';
import { CLASS_LABEL, summarizeCall } from '../model/describe';
import { isApproveChord } from '../model/type-ahead';
import { chatItems, type ChatItem } from '../model/transcript';
import { useApp } from '../store/store';
import { Visible } from './call-body';
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

function Sessions() {
  const sessions = useApp((s) => s.sessions);
  const current = useApp((s) => s.currentSessionId);
  const running = useApp((s) => s.running);
  const select = useApp((s) => s.selectSession);
  return (
    <nav className="sessions" aria-label="Sessions">
      <button type="button" className="new-chat" onClick={() => void select(null)}>
        New chat
      </button>
      <ul>
        {sessions.map((s) => (
          <li key={s.id}>
            <button type="button" aria-current={s.id === current ? 'true' : undefined} onClick={() => void select(s.id)}>
              <span className="session-title">{s.title ?? s.id}</span>
              {running.includes(s.id) && <span className="running-dot">running</span>}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ToolCall({ item }: { item: Extract<ChatItem, { kind: 'call' }> }) {
  const live = useApp((s) => s.calls[item.toolCallId]);
  const output = useApp((s) => (live?.gateCallId ? s.output[live.gateCallId] : undefined));
  // The gate parks a call without a state change of its own, and a page opened meanwhile has none at
  // all: a pending approval for the same tool and arguments in this session says the call waits.
  const unsettled = !item.result && (!live || live.state === 'classifying' || live.state === 'reviewing');
  const waitingFor = useApp((s) => (unsettled ? s.pending.find((p) => p.session_id === s.currentSessionId && p.tool === item.tool && JSON.stringify(p.args) === JSON.stringify(item.args)) : undefined));
  const klass = useApp((s) => (live?.gateCallId ? s.classOf[live.gateCallId] : undefined)) ?? waitingFor?.class;
  const state: CallState = waitingFor ? 'awaiting_approval' : (live?.state ?? (item.result ? (item.result.isError ? 'failed' : 'succeeded') : 'received'));
  const [open, setOpen] = useState(false);
  const final = FINAL_CALL_STATES.has(state) || !!item.result;
  const showOpen = open || (!final && !!output);
  const body = item.result?.text ?? output ?? '';
  return (
    <li className={`tool-call state-${state}`} data-tool={item.tool}>
      <button type="button" className="tool-call-head" aria-expanded={showOpen} onClick={() => setOpen(!showOpen)}>
        <span className="tool-name">{item.tool}</span>
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
  return (
    <div className="conversation" role="log" aria-label="Conversation">
      <ol>
      {items.map((it) => {
        if (it.kind === 'call') return <ToolCall key={it.key} item={it} />;
        return (
          <li key={it.key} className={`message ${it.kind}`}>
            <span className="who">{it.kind === 'user' ? 'You' : it.kind === 'assistant' ? 'Agent' : 'Note'}</span>
            <div className="text">
              <Visible text={it.text} />
            </div>
          </li>
        );
      })}
      {(notes ?? []).map((n, i) => (
        <li key={`local${i}`} className="message note local">
          <span className="who">Decision</span>
          <div className="text">{n.text}</div>
        </li>
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
  const [text, setText] = useState('');
  const draftStartedAt = useRef<number | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focus) box.current?.focus();
  }, [focus]);
  const submit = async () => {
    const message = text;
    if (!message.trim()) return;
    const started = draftStartedAt.current;
    setText('');
    draftStartedAt.current = null;
    const ok = await send(message, started);
    if (!ok) setText((t) => t || message);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (draftStartedAt.current === null && e.key.length === 1) draftStartedAt.current = e.timeStamp || performance.now();
    if (isApproveChord(e.nativeEvent)) return; // the dock's chord, never a send
    if (e.key === 'Enter' && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
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
        onChange={(e) => {
          setText(e.target.value);
          if (!e.target.value) draftStartedAt.current = null;
        }}
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
          {error}
        </p>
      )}
    </form>
  );
}

export function ChatScreen() {
  return (
    <div className="chat-screen">
      <Sessions />
      <section className="chat" aria-label="Chat">
        <Conversation />
        <Dock />
        <Composer />
      </section>
    </div>
  );
}
