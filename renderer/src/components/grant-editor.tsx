// "Always allow…": the proposed grant, editable, with its scope, a note and a preview of what it
// covers and what it never covers. Saving approves this call and makes the grant.
import { useEffect, useId, useState } from 'react';
import type { GrantDuration, PendingApproval } from '../../../common/approvals';
import type { GrantPattern } from '../../../common/domain';
import { patternText } from '../model/describe';
import { DURATION_ORDER, DURATION_WORDS, editableToPattern, patternToEditable, previewCoverage } from '../model/grant-preview';
import { useApp } from '../store/store';
import type { GrantSample } from '../store/types';
import { Visible } from './call-body';

export interface GrantEditorValue {
  patterns: GrantPattern[];
  duration: GrantDuration;
  note: string;
}

export function GrantEditor(props: {
  tool: string;
  initial: GrantPattern[];
  initialDuration?: GrantDuration;
  initialNote?: string;
  saveLabel: (v: GrantEditorValue) => string;
  onSave: (v: GrantEditorValue) => void;
  onCancel: () => void;
  busy?: boolean;
  approval?: PendingApproval;
}) {
  const base = useId();
  const [texts, setTexts] = useState(props.initial.map(patternToEditable));
  const [duration, setDuration] = useState<GrantDuration>(props.initialDuration ?? 'session');
  const [note, setNote] = useState(props.initialNote ?? '');
  const parsed = props.initial.map((p, i) => editableToPattern(p, texts[i] ?? ''));
  const problem = parsed.find((r) => !r.ok);
  const patterns = parsed.flatMap((r) => (r.ok ? [r.pattern] : []));
  const value: GrantEditorValue = { patterns, duration, note };
  return (
    <div className="grant-editor" role="group" aria-labelledby={`${base}-title`}>
      <h3 id={`${base}-title`}>Always allow: the grant</h3>
      {props.initial.map((p, i) => (
        <div className="field" key={i}>
          <label htmlFor={`${base}-p${i}`}>{props.initial.length > 1 ? `Pattern for part ${i + 1}` : 'Pattern'}</label>
          {p.kind === 'tool' ? (
            <p id={`${base}-p${i}`}>{patternText(p)}</p>
          ) : (
            <input id={`${base}-p${i}`} type="text" spellCheck={false} value={texts[i]} onChange={(e) => setTexts(texts.map((t, j) => (j === i ? e.target.value : t)))} />
          )}
        </div>
      ))}
      <fieldset className="scope">
        <legend>Scope</legend>
        {DURATION_ORDER.map((d) => (
          <label key={d}>
            <input type="radio" name={`${base}-scope`} value={d} checked={duration === d} onChange={() => setDuration(d)} />
            {DURATION_WORDS[d]}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${base}-note`}>Note (optional)</label>
        <input id={`${base}-note`} type="text" value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
      </div>
      {problem && !problem.ok && (
        <p className="error" role="alert">
          {problem.error}
        </p>
      )}
      <ServerPreview tool={props.tool} patterns={patterns} approvalId={props.approval?.id} />
      <div className="actions">
        <button type="button" className="primary" disabled={!!problem || props.busy} onClick={() => props.onSave(value)}>
          {props.saveLabel(value)}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

const SAMPLE_MARK = { covered: '✓', never: '✗', asks: '–' } as const;

/** The gate's own verdict on examples (the call itself, generated edges); the local rules if it cannot answer. */
export function ServerPreview({ tool, patterns, approvalId, samples: given }: { tool: string; patterns: GrantPattern[]; approvalId?: string; samples?: string[] }) {
  const preview = useApp((s) => s.previewGrant);
  const [samples, setSamples] = useState<GrantSample[] | null>(null);
  const key = JSON.stringify(patterns);
  useEffect(() => {
    if (!patterns.length) return;
    let live = true;
    const t = setTimeout(() => {
      void preview({ tool, patterns, ...(approvalId ? { approval_id: approvalId } : {}), ...(given?.length ? { samples: given } : {}) }).then((r) => {
        if (live) setSamples(r.ok ? r.value.samples : null);
      });
    }, 200);
    return () => {
      live = false;
      clearTimeout(t);
    };
    // key stands for patterns (a new array each render)
  }, [key, tool, approvalId, preview, given?.join('\n')]);
  if (samples) {
    const groups = [
      { title: 'Covers', className: 'covers', mark: SAMPLE_MARK.covered, items: samples.filter((x) => x.covered) },
      { title: 'Does not cover (these would still ask)', className: 'asks', mark: SAMPLE_MARK.asks, items: samples.filter((x) => !x.covered && !x.never) },
      { title: 'Never covers (no grant can)', className: 'never', mark: SAMPLE_MARK.never, items: samples.filter((x) => x.never) },
    ].filter((g) => g.items.length);
    return (
      <div className="preview" aria-live="polite">
        {groups.map((g) => (
          <div key={g.className}>
            <h4>{g.title}</h4>
            <ul className={g.className}>
              {g.items.map((x) => (
                <li key={x.text}>
                  <span aria-hidden="true">{`${g.mark} `}</span>
                  <code>
                    <Visible text={x.text} />
                  </code>
                  {x.source === 'call' ? ' (this call)' : !x.covered && <span className="sample-why">{` ${x.reason}`}</span>}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="preview" aria-live="polite">
      {patterns.map((p, i) => {
        const c = previewCoverage(tool, p);
        return (
          <div key={i} className="preview-pattern">
            <h4>{`Covers (${patternText(p)})`}</h4>
            <ul className="covers">
              {c.covers.map((t) => (
                <li key={t}>
                  <span aria-hidden="true">✓ </span>
                  {t}
                </li>
              ))}
            </ul>
            <h4>Never covers</h4>
            <ul className="never">
              {c.never.map((t) => (
                <li key={t}>
                  <span aria-hidden="true">✗ </span>
                  {t}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
