// What a card shows of the call itself: a command (the parts the gate judged above read first, then the
// whole command), a diff, a path to open, or the arguments. Every string goes through the one escaping
// rule (common/visible-text.ts). A body taller than its box says how much is hidden and reports whether
// the person has seen all of it (scrolled to its end or pressed Show all): the card will not approve
// what was never on screen.
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { previewWasCut, type PendingApproval } from '../../../common/approvals';
import { hiddenCount, visiblePieces } from '../../../common/visible-text';
import { CLASS_LABEL, middleClip, partsThatMatter } from '../model/describe';
import { openFacts } from '../model/open-path';
import { decidingSegment, splitSegments } from '../model/segments';

export function Visible({ text, oneLine }: { text: string; oneLine?: boolean }) {
  return (
    <>
      {visiblePieces(text, { oneLine }).map((p, i) =>
        p.escaped ? (
          <span key={i} className="escape" title="A hidden character, shown as an escape">
            {p.text}
          </span>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

/** Untrusted text on one line, its middle left out when longer than `max` (the count is said). */
export function Clipped({ text, max }: { text: string; max: number }) {
  const c = middleClip(text, max);
  if (!c) return <Visible text={text} oneLine />;
  return (
    <>
      <Visible text={c.head} oneLine />
      <span className="omitted">{` … (${c.left.toLocaleString('en-US')} more characters) … `}</span>
      <Visible text={c.tail} oneLine />
    </>
  );
}

function HiddenWarning({ text }: { text: string }) {
  const n = hiddenCount(text);
  if (!n) return null;
  return <p className="warning">{`${n} hidden or direction-changing character${n > 1 ? 's are' : ' is'} shown as escapes (in a box).`}</p>;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** Reports whether everything in a body has been on screen. */
export type SeenReport = (seen: boolean) => void;

/**
 * A box with a maximum height. When its content is taller it says how many lines are below ("+48
 * lines below"), offers Show all, and counts as seen only once scrolled to its end or shown in full.
 */
function ScrollBox({ className, content, labelledBy, label, onSeen, children }: { className: string; content: string; labelledBy?: string; label?: string; onSeen?: SeenReport; children: ReactNode }) {
  const ref = useRef<HTMLPreElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [size, setSize] = useState({ overflow: false, below: 0 });
  const [reachedEnd, setReachedEnd] = useState(false);
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const style = getComputedStyle(el);
    const line = parseFloat(style.lineHeight) || 20;
    // What is cut off below may be only the box's bottom padding: no text is hidden there.
    const slack = (parseFloat(style.paddingBottom) || 0) + 1;
    const hidden = el.scrollHeight - el.clientHeight;
    const below = Math.max(0, hidden - el.scrollTop);
    setSize({ overflow: hidden > slack, below: Math.ceil((below - slack) / line) });
    if (hidden <= slack || below <= slack) setReachedEnd(true);
  }, []);
  // New content (another card, revealed arguments) must be seen again.
  useLayoutEffect(() => {
    setExpanded(false);
    setReachedEnd(false);
    measure();
  }, [content, measure]);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const o = new ResizeObserver(() => measure());
    o.observe(el);
    return () => o.disconnect();
  }, [measure]);
  const seen = !size.overflow || expanded || reachedEnd;
  useEffect(() => onSeen?.(seen), [seen, onSeen]);
  const clipped = size.overflow && !expanded;
  return (
    <>
      <pre
        ref={ref}
        className={`${className}${expanded ? ' expanded' : ''}`}
        aria-labelledby={labelledBy}
        aria-label={label}
        // A box that scrolls is reachable by keyboard (arrow keys, Page Down).
        tabIndex={clipped ? 0 : undefined}
        onScroll={measure}
        data-seen={seen ? 'yes' : 'no'}
      >
        {children}
      </pre>
      {clipped && size.below > 0 && (
        <p className="more-below">
          <span className="more-count">{`+${size.below} line${size.below === 1 ? '' : 's'} below`}</span>
          <button type="button" onClick={() => setExpanded(true)}>
            Show all
          </button>
        </p>
      )}
    </>
  );
}

export function CommandView({ p, command, onSeen, showSegments = true }: { p: Pick<PendingApproval, 'id' | 'segment' | 'reason'>; command: string; onSeen?: SeenReport; showSegments?: boolean }) {
  const segments = showSegments ? splitSegments(command) : [];
  const deciding = decidingSegment(segments, p.segment);
  const chars = Array.from(command).length;
  const lines = command.split('\n').length;
  return (
    <>
      <div className="label" id={`cmd-${p.id}`}>
        {chars > 200 || lines > 3 ? `Command (${chars.toLocaleString('en-US')} characters${lines > 1 ? `, ${lines} lines` : ''})` : 'Command'}
      </div>
      <ScrollBox className="command" content={command} labelledBy={`cmd-${p.id}`} onSeen={onSeen}>
        <Visible text={command} />
      </ScrollBox>
      <HiddenWarning text={command} />
      {segments.length > 1 && (
        <ol className="segments" aria-label="Parts of the command">
          {segments.map((s, i) => (
            <li key={i} className={i === deciding ? 'segment deciding' : 'segment'}>
              <code>
                <Visible text={s.text} />
              </code>
              {s.joiner && <span className="joiner">{` ${s.joiner}`}</span>}
              {i === deciding && (
                <span className="deciding-why">
                  This part decides: <Visible text={p.reason} />
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** Parts of the command shown in the card's first screen: each above read, and the one that decided. */
const PARTS_SHOWN = 12;

export function PartsThatMatter({ p }: { p: Pick<PendingApproval, 'id' | 'parts' | 'segment' | 'reason'> }) {
  const parts = partsThatMatter(p);
  if (!parts.length) return null;
  const shown = parts.slice(0, PARTS_SHOWN);
  const above = parts.filter((x) => x.part.class !== 'read').length;
  return (
    <div className="parts">
      <div className="label" id={`parts-${p.id}`}>
        {above === parts.length ? `Parts that are not read-only (${parts.length})` : above ? `The part that decides, and parts that are not read-only (${parts.length})` : 'The part that decides'}
      </div>
      <ol className="parts-list" aria-labelledby={`parts-${p.id}`}>
        {shown.map(({ part, deciding }, i) => (
          <li key={i} className={`part class-${part.class}${deciding ? ' deciding' : ''}`}>
            <span className={`class-badge class-${part.class}`}>
              <span aria-hidden="true" className="class-icon" />
              {CLASS_LABEL[part.class]}
            </span>
            <code className="part-text">
              <Clipped text={part.text} max={200} />
            </code>
            {part.via.length > 0 && <span className="via">{`inside ${part.via.join(' inside ')}`}</span>}
            {deciding ? (
              <span className="deciding-why">
                This part decides: <Visible text={part.reason ?? p.reason} />
              </span>
            ) : (
              part.reason && (
                <span className="part-why">
                  <Visible text={part.reason} />
                </span>
              )
            )}
          </li>
        ))}
      </ol>
      {parts.length > shown.length && <p className="warning">{`And ${parts.length - shown.length} more parts that are not read-only: all are in the command below, which you must read to its end before approving.`}</p>}
    </div>
  );
}

export function DiffView({ preview, path, onSeen }: { preview: string; path: string | null; onSeen?: SeenReport }) {
  const lines = preview.split('\n');
  // A diff ends with a newline: the empty line after it is not a line of the diff.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  return (
    <>
      <div className="label">
        {'Changes to '}
        {path === null ? 'the file' : <Clipped text={path} max={160} />}
        {`: ${added} line${added === 1 ? '' : 's'} added, ${removed} removed`}
      </div>
      <ScrollBox className="diff" content={preview} label={`Diff of ${path === null ? 'the file' : middleClipText(path)}`} onSeen={onSeen}>
        {lines.map((l, i) => (
          <div key={i} className={l.startsWith('+++') || l.startsWith('---') ? 'diff-file' : l.startsWith('+') ? 'diff-add' : l.startsWith('-') ? 'diff-del' : l.startsWith('@@') ? 'diff-hunk' : 'diff-ctx'}>
            <Visible text={l || ' '} />
          </div>
        ))}
      </ScrollBox>
    </>
  );
}

function middleClipText(s: string): string {
  const c = middleClip(s, 120);
  return c ? `${c.head} … ${c.tail}` : s;
}

/** open_path: the path asked for, the real path it resolves to, and the application that will open it. */
export function OpenPathView({ p, onSeen }: { p: PendingApproval; onSeen?: SeenReport }) {
  const args = (p.args ?? {}) as Record<string, unknown>;
  const { realPath, application, mime } = openFacts(p.preview);
  useEffect(() => onSeen?.(true), [onSeen]);
  return (
    <dl className="facts">
      <dt>Path asked for</dt>
      <dd>
        <code>
          <Visible text={str(args['path']) ?? '?'} />
        </code>
      </dd>
      <dt>Real path</dt>
      <dd>
        {realPath ? (
          <code>
            <Visible text={realPath} />
          </code>
        ) : (
          'not resolved (it may not exist)'
        )}
      </dd>
      <dt>Opens with</dt>
      <dd>
        <Visible text={application ? `${application}${mime ? ` (${mime})` : ''}` : mime ? `the desktop's default application for ${mime} (the system does not say which)` : "the desktop's default application (the system does not say which)"} />
      </dd>
    </dl>
  );
}

export function ArgsView({ args, onSeen }: { args: unknown; onSeen?: SeenReport }) {
  const text = JSON.stringify(args ?? {}, null, 2);
  const id = useId();
  return (
    <>
      <div className="label" id={id}>
        Arguments
      </div>
      <ScrollBox className="command" content={text} labelledBy={id} onSeen={onSeen}>
        <Visible text={text} />
      </ScrollBox>
      <HiddenWarning text={text} />
    </>
  );
}

export function CallBody({ p, onSeen }: { p: PendingApproval; onSeen?: SeenReport }) {
  const args = (p.args ?? {}) as Record<string, unknown>;
  if (p.tool === 'run_command' && str(args['command']) !== null) return <CommandView p={p} command={str(args['command'])!} onSeen={onSeen} showSegments={!p.parts?.length} />;
  if ((p.tool === 'write_file' || p.tool === 'edit_file') && p.preview) {
    // A diff too long for a card was cut: the arguments in full stand in for it, to be read to their end.
    if (previewWasCut(p.preview))
      return (
        <>
          <p className="warning">The diff is longer than a card holds, so the arguments are shown in full instead: read them to their end before approving.</p>
          <ArgsView args={p.args} onSeen={onSeen} />
        </>
      );
    return <DiffView preview={p.preview} path={str(args['path'])} onSeen={onSeen} />;
  }
  if (p.tool === 'open_path') return <OpenPathView p={p} onSeen={onSeen} />;
  return <ArgsView args={p.args} onSeen={onSeen} />;
}
