// What a card shows of the call itself: a command (every segment, the deciding one marked), a diff, a
// path to open, or the arguments. Every string goes through visiblePieces.
import type { PendingApproval } from '../../../common/approvals';
import { decidingSegment, splitSegments } from '../model/segments';
import { hiddenCount, visiblePieces } from '../../../common/visible-text';
import { openFacts } from '../model/open-path';

export function Visible({ text }: { text: string }) {
  return (
    <>
      {visiblePieces(text).map((p, i) =>
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

function HiddenWarning({ text }: { text: string }) {
  const n = hiddenCount(text);
  if (!n) return null;
  return <p className="warning">{`${n} hidden or direction-changing character${n > 1 ? 's are' : ' is'} shown as escapes (in a box).`}</p>;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function CommandView({ p, command }: { p: Pick<PendingApproval, 'id' | 'segment' | 'reason'>; command: string }) {
  const segments = splitSegments(command);
  const deciding = decidingSegment(segments, p.segment);
  return (
    <>
      <div className="label" id={`cmd-${p.id}`}>
        Command
      </div>
      <pre className="command" aria-labelledby={`cmd-${p.id}`}>
        <Visible text={command} />
      </pre>
      <HiddenWarning text={command} />
      {segments.length > 1 && (
        <ol className="segments" aria-label="Parts of the command">
          {segments.map((s, i) => (
            <li key={i} className={i === deciding ? 'segment deciding' : 'segment'}>
              <code>
                <Visible text={s.text} />
              </code>
              {s.joiner && <span className="joiner">{` ${s.joiner}`}</span>}
              {i === deciding && <span className="deciding-why">{`This part decides: ${p.reason}`}</span>}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

export function DiffView({ preview, path }: { preview: string; path: string | null }) {
  const lines = preview.split('\n');
  const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  return (
    <>
      <div className="label">{`Changes to ${path ?? 'the file'}: ${added} line${added === 1 ? '' : 's'} added, ${removed} removed`}</div>
      <pre className="diff" aria-label={`Diff of ${path ?? 'the file'}`}>
        {lines.map((l, i) => (
          <div key={i} className={l.startsWith('+++') || l.startsWith('---') ? 'diff-file' : l.startsWith('+') ? 'diff-add' : l.startsWith('-') ? 'diff-del' : l.startsWith('@@') ? 'diff-hunk' : 'diff-ctx'}>
            <Visible text={l || ' '} />
          </div>
        ))}
      </pre>
    </>
  );
}

/** open_path: the path asked for, the real path it resolves to, and the application that will open it. */
export function OpenPathView({ p }: { p: PendingApproval }) {
  const args = (p.args ?? {}) as Record<string, unknown>;
  const { realPath, application, mime } = openFacts(p.preview);
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
      <dd>{application ? `${application}${mime ? ` (${mime})` : ''}` : mime ? `the desktop's default application for ${mime} (the system does not say which)` : "the desktop's default application (the system does not say which)"}</dd>
    </dl>
  );
}

export function ArgsView({ args }: { args: unknown }) {
  const text = JSON.stringify(args ?? {}, null, 2);
  return (
    <>
      <div className="label">Arguments</div>
      <pre className="command">
        <Visible text={text} />
      </pre>
      <HiddenWarning text={text} />
    </>
  );
}

export function CallBody({ p }: { p: PendingApproval }) {
  const args = (p.args ?? {}) as Record<string, unknown>;
  if (p.tool === 'run_command' && str(args['command']) !== null) return <CommandView p={p} command={str(args['command'])!} />;
  if ((p.tool === 'write_file' || p.tool === 'edit_file') && p.preview) return <DiffView preview={p.preview} path={str(args['path'])} />;
  if (p.tool === 'open_path') return <OpenPathView p={p} />;
  return <ArgsView args={p.args} />;
}
