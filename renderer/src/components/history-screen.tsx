// History: every call the gate saw, whoever or whatever decided it, newest first. The list is windowed
// (only the rows in view are in the DOM; pages load as they scroll into view), filtered in the store's
// query, and a row opens the call in full with its checkpoint (diff, Restore). The audit chain's
// verification and the JSONL export sit above the list.
import { visibleText } from '../../../common/visible-text';
import { memo, useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { CLASSES, type Class } from '../../../common/domain';
import { DECIDER_GROUPS, OUTCOME_GROUPS, outcomeGroupOf, type CallRecord, type DeciderGroup } from '../../../common/history';
import { CLASS_LABEL, OUTCOME_WORDS, formatTime } from '../model/describe';
import { blockWindow, decidedByText, durationText, outcomeText, pagesFor, rowTime } from '../model/history';
import { HISTORY_PAGE } from '../store/history-slice';
import { useApp } from '../store/store';
import { ArgsView, CommandView, DiffView, Visible } from './call-body';
import { CheckpointPart } from './checkpoint-restore';

/** Every row has the same height, so a scroll position maps to a row without measuring. */
export const ROW_HEIGHT = 36;
const ROW_STYLE = { height: ROW_HEIGHT };

function ClassBadge({ c }: { c: Class | null }) {
  if (!c) return <span className="muted">–</span>;
  return (
    <span className={`class-badge class-${c}`}>
      <span className="class-icon" aria-hidden="true" />
      {CLASS_LABEL[c]}
    </span>
  );
}

const CallRow = memo(function CallRow({ r, index, total, now, open, onOpen }: { r: CallRecord | undefined; index: number; total: number; now: number; open: boolean; onOpen: (id: string) => void }) {
  if (!r) {
    return (
      <li className="call-row loading" style={ROW_STYLE} aria-setsize={total} aria-posinset={index + 1}>
        <span className="muted">Loading…</span>
      </li>
    );
  }
  return (
    <li className={`call-row outcome-${outcomeGroupOf(r.state)}`} style={ROW_STYLE} aria-setsize={total} aria-posinset={index + 1} data-call-id={r.id}>
      <button type="button" aria-pressed={open} onClick={() => onOpen(r.id)}>
        <span className="c-when">{rowTime(r.created_at, now)}</span>
        <span className="c-tool">
          <Visible text={r.tool} oneLine />
        </span>
        <span className="c-what">
          {r.origin?.kind === 'external' && <span className="c-origin">{`${visibleText(r.origin.name, { oneLine: true })}: `}</span>}
          <Visible text={r.summary} oneLine />
        </span>
        <span className="c-class">
          <ClassBadge c={r.class} />
        </span>
        <span className="c-by">{decidedByText(r)}</span>
        <span className="c-outcome">{outcomeText(r)}</span>
        <span className="c-took">{durationText(r.execution?.duration_ms)}</span>
      </button>
    </li>
  );
});

/**
 * Rows are added and removed this many at a time: a steady scroll changes the DOM once every few frames
 * instead of every frame, and the frames between only move the composited list.
 */
const BLOCK_ROWS = 4;
/**
 * Rows beyond the window whose pages are fetched ahead while the list moves steadily, so a wheel scroll
 * does not meet "Loading…". A jump (a flung scrollbar, End) fetches only the rows it lands on: the pages
 * it passes would arrive after it had left them.
 */
const FETCH_AHEAD = HISTORY_PAGE / 2;

/** How long the list must rest after a jump before the rows it landed on are fetched. */
const JUMP_SETTLE_MS = 50;

type RowWindow = { first: number; last: number };

function CallList() {
  const total = useApp((s) => s.historyTotal);
  const pages = useApp((s) => s.historyPages);
  const upto = useApp((s) => s.historyUpto);
  const ensure = useApp((s) => s.ensureHistoryPages);
  const openId = useApp((s) => s.openCall?.id ?? null);
  const openCall = useApp((s) => s.openHistoryCall);
  const ref = useRef<HTMLDivElement>(null);
  const count = total ?? 0;
  // The scroll position and the viewport's height live in refs: a scroll re-renders the list only when
  // it moves the window to another block, never for the pixels in between.
  const height = useRef(600);
  const shown = useRef<RowWindow>({ first: 0, last: -1 });
  const [win, setWin] = useState<RowWindow>(shown.current);
  const [now] = useState(Date.now());
  // Stable, so a row whose call did not change is not rendered again as the list scrolls.
  const onOpen = useCallback((id: string) => void openCall(id), [openCall]);
  const place = useCallback(() => {
    const el = ref.current;
    const next = blockWindow(el ? el.scrollTop : 0, height.current, ROW_HEIGHT, count, BLOCK_ROWS);
    if (next.first === shown.current.first && next.last === shown.current.last) return;
    shown.current = next;
    setWin(next);
  }, [count]);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    height.current = el.clientHeight;
    const ro = new ResizeObserver(() => {
      height.current = el.clientHeight;
      place();
    });
    ro.observe(el);
    el.addEventListener('scroll', place, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener('scroll', place);
    };
  }, [place]);
  // A new query starts at the top.
  useLayoutEffect(() => {
    if (ref.current) ref.current.scrollTop = 0;
  }, [upto]);
  useLayoutEffect(place, [place, upto]);
  const { first, last } = win;
  const fetchedAt = useRef(0);
  useEffect(() => {
    if (last < first) return;
    const steady = Math.abs(first - fetchedAt.current) <= 2 * BLOCK_ROWS;
    fetchedAt.current = first;
    const fetch = () => void ensure(pagesFor(Math.max(0, first - (steady ? FETCH_AHEAD : 0)), Math.min(count - 1, last + (steady ? FETCH_AHEAD : 0)), HISTORY_PAGE));
    if (steady) return fetch();
    // A jump fetches once the list stays there: during a fling every position is left before its page
    // could arrive, and rendering pages already scrolled past only slows the frames that follow.
    const t = setTimeout(fetch, JUMP_SETTLE_MS);
    return () => clearTimeout(t);
  }, [first, last, count, upto, ensure]);
  const rows: number[] = [];
  for (let i = first; i <= Math.min(last, count - 1); i++) rows.push(i);
  return (
    <div className="call-list" ref={ref} data-testid="call-list">
      <ul aria-label={`Calls, newest first: ${count} in all`} style={{ height: count * ROW_HEIGHT, paddingTop: first * ROW_HEIGHT }}>
        {rows.map((i) => {
          const r = pages[Math.floor(i / HISTORY_PAGE)]?.[i % HISTORY_PAGE];
          return <CallRow key={i} r={r} index={i} total={count} now={now} open={r !== undefined && r.id === openId} onOpen={onOpen} />;
        })}
      </ul>
    </div>
  );
}

/** A text filter applied a moment after typing stops (only when the text changed). */
function useDebounced(value: string, apply: (v: string) => void, ms = 300) {
  const latest = useRef(apply);
  latest.current = apply;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => latest.current(value.trim()), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
}

function Filters() {
  const filter = useApp((s) => s.historyFilter);
  const setFilter = useApp((s) => s.setHistoryFilter);
  const sessions = useApp((s) => s.sessions);
  const total = useApp((s) => s.historyTotal);
  const reload = useApp((s) => s.reloadHistory);
  const [tool, setTool] = useState(filter.tool ?? '');
  const [text, setText] = useState(filter.text ?? '');
  const [session, setSession] = useState(filter.session_id ?? '');
  const ids = useId();
  useDebounced(session, (v) => setFilter({ session_id: v }));
  useDebounced(tool, (v) => setFilter({ tool: v }));
  useDebounced(text, (v) => setFilter({ text: v }));
  const outcome = OUTCOME_GROUPS.find((g) => filter.state && g.states.length === filter.state.length && g.states.every((s) => filter.state!.includes(s)))?.key ?? '';
  return (
    <form className="history-filters" aria-label="Filter calls" onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label htmlFor={`${ids}-outcome`}>Outcome</label>
        <select id={`${ids}-outcome`} value={outcome} onChange={(e) => setFilter({ state: e.target.value ? [...OUTCOME_GROUPS.find((g) => g.key === e.target.value)!.states] : '' })}>
          <option value="">All outcomes</option>
          {OUTCOME_GROUPS.map((g) => (
            <option key={g.key} value={g.key}>
              {g.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-tool`}>Tool</label>
        <input id={`${ids}-tool`} type="text" value={tool} placeholder="e.g. run_command" onChange={(e) => setTool(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-class`}>Class</label>
        <select id={`${ids}-class`} value={filter.class ?? ''} onChange={(e) => setFilter({ class: e.target.value as Class | '' })}>
          <option value="">All classes</option>
          {CLASSES.map((c) => (
            <option key={c} value={c}>
              {CLASS_LABEL[c]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-session`}>Session</label>
        <input id={`${ids}-session`} type="text" list="history-sessions" value={session} placeholder="any session" onChange={(e) => setSession(e.target.value)} />
        <datalist id="history-sessions">
          {sessions.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title ? s.title.slice(0, 60) : s.id}
            </option>
          ))}
        </datalist>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-decidedby`}>Decided by</label>
        <select id={`${ids}-decidedby`} value={filter.decided_by ?? ''} onChange={(e) => setFilter({ decided_by: e.target.value as DeciderGroup | '' })}>
          <option value="">Anyone or anything</option>
          {DECIDER_GROUPS.map((g) => (
            <option key={g.key} value={g.key}>
              {g.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field grow">
        <label htmlFor={`${ids}-search`}>Search</label>
        <input id={`${ids}-search`} type="text" value={text} placeholder="command, path, URL, explanation" onChange={(e) => setText(e.target.value)} />
      </div>
      <button type="button" onClick={() => void reload()}>
        Refresh
      </button>
      <span className="history-count" role="status">
        {total === null ? 'Loading…' : `${total.toLocaleString('en-US')} call${total === 1 ? '' : 's'}`}
      </span>
    </form>
  );
}

function VerifyBar() {
  const verify = useApp((s) => s.verify);
  const verifyNow = useApp((s) => s.verifyNow);
  const exportHistory = useApp((s) => s.exportHistory);
  const exportStatus = useApp((s) => s.exportStatus);
  const words =
    verify.state === 'idle'
      ? 'Audit chain: not verified in this window yet.'
      : verify.state === 'running'
        ? 'Verifying the audit chain…'
        : verify.state === 'ok'
          ? `Audit chain verified: ${verify.entries.toLocaleString('en-US')} entries, nothing changed, removed or inserted (${formatTime(verify.at)}).`
          : verify.state === 'broken'
            ? `AUDIT CHAIN BROKEN at entry ${verify.brokenAt}: ${verify.reason}`
            : `Could not verify the audit chain: ${verify.message}`;
  const save = (jsonl: string) => {
    const url = URL.createObjectURL(new Blob([jsonl], { type: 'application/x-ndjson' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `threshold-history-${new Date().toISOString().slice(0, 10)}.jsonl`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <div className="history-bar">
      <p className={`verify verify-${verify.state}`} role="status" data-testid="verify-state">
        {words}
      </p>
      <button type="button" disabled={verify.state === 'running'} onClick={() => void verifyNow()}>
        Verify now
      </button>
      <button type="button" onClick={() => void exportHistory(save)}>
        Export JSONL
      </button>
      {exportStatus && (
        <span className="export-status" role="status">
          {exportStatus}
        </span>
      )}
    </div>
  );
}

function DetailPanel() {
  const c = useApp((s) => s.openCall);
  const close = useApp((s) => s.closeHistoryCall);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    title.current?.focus();
  }, [c?.id]);
  if (!c) return null;
  const args = (c.args ?? {}) as Record<string, unknown>;
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') close();
  };
  return (
    <section className="call-detail" aria-labelledby="call-detail-title" onKeyDown={onKey}>
      <div className="detail-head">
        <h2 id="call-detail-title" tabIndex={-1} ref={title}>
          <Visible text={`${c.tool}: ${outcomeText(c)}`} oneLine />
        </h2>
        <button type="button" aria-label="Close the call's details" onClick={close}>
          Close
        </button>
      </div>
      <dl className="facts">
        <dt>When</dt>
        <dd>{new Date(c.created_at).toLocaleString()}</dd>
        <dt>Decided by</dt>
        <dd>{decidedByText(c)}</dd>
        <dt>Policy said</dt>
        <dd>{c.decision ?? '–'}</dd>
        <dt>Class</dt>
        <dd>
          <ClassBadge c={c.class} />
          {c.effects.length ? ` (${c.effects.join(', ')})` : ''}
        </dd>
        <dt>Outcome</dt>
        <dd>{`${outcomeText(c)}${c.execution ? `, took ${durationText(c.execution.duration_ms)}` : ''}${c.execution?.signal ? `, signal ${c.execution.signal}` : ''}`}</dd>
        <dt>Session</dt>
        <dd>
          <Visible text={c.session_id} oneLine />
        </dd>
        {c.cwd && (
          <>
            <dt>Folder</dt>
            <dd>
              <Visible text={c.cwd} />
            </dd>
          </>
        )}
        <dt>Call id</dt>
        <dd>
          <code>{c.id}</code>
        </dd>
      </dl>
      {c.tool === 'run_command' && typeof args['command'] === 'string' ? (
        <CommandView p={{ id: c.id, segment: null, reason: c.explanation ?? '' }} command={args['command']} />
      ) : (
        <ArgsView args={c.args} />
      )}
      <h3>Why</h3>
      <p className="explanation">
        <Visible text={c.explanation ?? '–'} />
      </p>
      {c.execution?.error && (
        <>
          <h3>Error</h3>
          <pre className="command">
            <Visible text={c.execution.error} />
          </pre>
        </>
      )}
      {c.asked && (
        <>
          <h3>The approval</h3>
          <p>
            <Visible text={`Asked ${formatTime(c.asked.created_at)}: ${c.asked.outcome ? `${OUTCOME_WORDS[c.asked.outcome]}${c.asked.decided_by ? ` (${c.asked.decided_by})` : ''}` : 'still waiting'}.${c.asked.note ? ` Note: ${c.asked.note}` : ''}${c.asked.grant_ids.length ? ` Grant made: ${c.asked.grant_ids.join(', ')}.` : ''}`} />
          </p>
          {c.asked.preview && <DiffView preview={c.asked.preview} path={typeof args['path'] === 'string' ? args['path'] : null} />}
        </>
      )}
      <h3>Checkpoint</h3>
      <CheckpointPart />
      <h3>Audit entries</h3>
      <ol className="audit-entries">
        {c.audit.map((e) => (
          <li key={e.seq}>{`#${e.seq} ${e.kind} · ${formatTime(e.at)}`}</li>
        ))}
      </ol>
    </section>
  );
}

export function HistoryScreen() {
  const reload = useApp((s) => s.reloadHistory);
  const error = useApp((s) => s.historyError);
  const openError = useApp((s) => s.openCallError);
  useEffect(() => {
    void reload();
  }, [reload]);
  return (
    <main className="history-screen" aria-labelledby="history-title">
      <h1 id="history-title">History</h1>
      <p className="intro">Every call the agent made: the ones the level, a rule or a grant let through without asking, the ones you answered, and the ones that were refused.</p>
      <VerifyBar />
      <Filters />
      {(error || openError) && (
        <p className="error" role="alert">
          {error ?? openError}
        </p>
      )}
      <div className="history-body">
        <div className="history-list">
          <div className="call-head" aria-hidden="true">
            <span className="c-when">When</span>
            <span className="c-tool">Tool</span>
            <span className="c-what">What</span>
            <span className="c-class">Class</span>
            <span className="c-by">Decided by</span>
            <span className="c-outcome">Outcome</span>
            <span className="c-took">Took</span>
          </div>
          <CallList />
        </div>
        <DetailPanel />
      </div>
    </main>
  );
}
