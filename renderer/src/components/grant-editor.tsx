// "Always allow…": the one grant this choice makes. For a command, the person chooses what it matches —
// exactly this command (the default), this command then any further arguments, or a pattern they write
// (common/grant-pattern.ts) — then its scope and a note. The preview is the gate's own judgement
// (grant.preview): this call, the session's recent calls and the variants an attacker would try, each
// covered, still asking, or never coverable. Save says exactly what is stored, and stays off while the
// preview says the grant is wider than it looks, would never let anything run, or does not cover this call.
import { useEffect, useId, useState } from 'react';
import type { GrantDuration, PendingApproval } from '../../../common/approvals';
import type { GrantPattern } from '../../../common/domain';
import { formatArgvPattern, patternText } from '../../../common/grant-pattern';
import {
  commandModes,
  commandPattern,
  DURATION_ORDER,
  DURATION_WORDS,
  editableToPattern,
  initialMode,
  initialPatternText,
  MODE_WORDS,
  patternToEditable,
  saveLabel,
  type CommandMode,
  type PatternResult,
} from '../model/grant-preview';
import { useApp } from '../store/store';
import type { GrantPreview, GrantSample } from '../store/types';
import { Visible } from './call-body';

export interface GrantEditorValue {
  /** Always one: an Always allow makes one grant. */
  patterns: GrantPattern[];
  duration: GrantDuration;
  note: string;
}

export function GrantEditor(props: {
  tool: string;
  initial: GrantPattern[];
  initialDuration?: GrantDuration;
  initialNote?: string;
  /** The Save button's first word(s): "Allow" on a card, "Save grant:" in Settings. */
  verb?: string;
  onSave: (v: GrantEditorValue) => void;
  onCancel: () => void;
  busy?: boolean;
  approval?: PendingApproval;
}) {
  const base = useId();
  const initial = props.initial[0] ?? { kind: 'tool' as const };
  const [mode, setMode] = useState<CommandMode>(initialMode(initial));
  const [patternInput, setPatternInput] = useState(initial.kind === 'argv' ? initialPatternText(initial) : '');
  const [otherInput, setOtherInput] = useState(patternToEditable(initial));
  const [duration, setDuration] = useState<GrantDuration>(props.initialDuration ?? 'session');
  const [note, setNote] = useState(props.initialNote ?? '');
  const isCommand = props.tool === 'run_command' && (initial.kind === 'argv' || initial.kind === 'command');
  const parsed: PatternResult = isCommand ? commandPattern(initial, mode, patternInput) : editableToPattern(initial, otherInput);
  const pattern = parsed.ok ? parsed.pattern : null;
  const key = pattern ? JSON.stringify(pattern) : '';
  const [judged, setJudged] = useState<{ key: string; preview: GrantPreview | null } | null>(null);
  const current = judged && judged.key === key ? judged.preview : undefined;
  const refusal = !parsed.ok ? parsed.error : current?.verdict && !current.verdict.ok ? (current.verdict.reason ?? 'This grant cannot be saved.') : null;
  // Saving waits for the server's verdict on exactly this pattern (it refuses what the preview refuses).
  const waiting = pattern !== null && current === undefined;
  const label = saveLabel(props.verb ?? 'Allow', props.tool, pattern, duration);
  return (
    <div className="grant-editor" role="group" aria-labelledby={`${base}-title`}>
      <h3 id={`${base}-title`}>Always allow: the grant</h3>
      {isCommand ? (
        <fieldset className="match">
          <legend>What it allows</legend>
          {commandModes(initial).map((m) => (
            <div key={m} className="match-choice">
              <label>
                <input type="radio" name={`${base}-mode`} value={m} checked={mode === m} onChange={() => setMode(m)} />
                {MODE_WORDS[m]}
              </label>
              {m === 'exact' && (
                <pre className="exact-command" tabIndex={0} aria-label="The command, exactly">
                  <Visible text={patternText(initial.kind === 'argv' ? { ...initial, match: 'exact' } : initial)} />
                </pre>
              )}
              {m === 'prefix' && initial.kind === 'argv' && <code>{formatArgvPattern(initial.argv, 'prefix')}</code>}
            </div>
          ))}
          {mode === 'pattern' && (
            <div className="field">
              <label htmlFor={`${base}-pattern`}>Pattern</label>
              <input id={`${base}-pattern`} type="text" spellCheck={false} value={patternInput} onChange={(e) => setPatternInput(e.target.value)} aria-describedby={`${base}-language`} />
              <p id={`${base}-language`} className="hint">
                The command&apos;s words, in order. A last word <code>*</code> allows any further arguments; <code>*</code> inside a word stands for any characters in that word; quote a word to match
                it as written. Nothing else is special.
              </p>
            </div>
          )}
        </fieldset>
      ) : initial.kind === 'tool' ? (
        <p>{`Every call of ${props.tool}`}</p>
      ) : (
        <div className="field">
          <label htmlFor={`${base}-pattern`}>Pattern</label>
          <input id={`${base}-pattern`} type="text" spellCheck={false} value={otherInput} onChange={(e) => setOtherInput(e.target.value)} />
        </div>
      )}
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
      {pattern && <ServerPreview tool={props.tool} patterns={[pattern]} approvalId={props.approval?.id} onJudged={(preview) => setJudged({ key: JSON.stringify(pattern), preview })} />}
      {refusal && (
        <p className="error" role="alert">
          {refusal}
        </p>
      )}
      <div className="actions">
        <button type="button" className="primary" disabled={!pattern || !!refusal || waiting || props.busy} onClick={() => pattern && props.onSave({ patterns: [pattern], duration, note })}>
          {label}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

const VERDICT = {
  covered: { mark: '✓', word: 'covered' },
  asks: { mark: '–', word: 'still asks' },
  never: { mark: '✗', word: 'never, by any grant' },
} as const;

const SOURCE_TITLES: Record<GrantSample['source'], string> = {
  call: 'This call',
  recent: 'Recent calls',
  sample: 'Variants an attacker would try',
  given: 'Examples',
};

function verdictOf(x: GrantSample): keyof typeof VERDICT {
  return x.covered ? 'covered' : x.never ? 'never' : 'asks';
}

/** The gate's own verdict on the call, the session's recent calls and the variants; nothing is guessed here. */
export function ServerPreview({ tool, patterns, approvalId, samples: given, onJudged }: { tool: string; patterns: GrantPattern[]; approvalId?: string; samples?: string[]; onJudged?: (p: GrantPreview | null) => void }) {
  const preview = useApp((s) => s.previewGrant);
  const [result, setResult] = useState<{ key: string; value: GrantPreview | null; error: string | null } | null>(null);
  const key = JSON.stringify(patterns);
  useEffect(() => {
    if (!patterns.length) return;
    let live = true;
    const t = setTimeout(() => {
      void preview({ tool, patterns, ...(approvalId ? { approval_id: approvalId } : {}), ...(given?.length ? { samples: given } : {}) }).then((r) => {
        if (!live) return;
        setResult({ key, value: r.ok ? r.value : null, error: r.ok ? null : r.error.message });
        onJudged?.(r.ok ? r.value : { samples: [], verdict: { ok: false, reason: `The preview failed, so this grant cannot be saved: ${r.error.message}` } });
      });
    }, 150);
    return () => {
      live = false;
      clearTimeout(t);
    };
    // key stands for patterns (a new array each render); onJudged is the caller's setter
  }, [key, tool, approvalId, preview, given?.join('\n')]);
  if (!result || result.key !== key) {
    return (
      <div className="preview" aria-live="polite" aria-busy="true">
        <p className="hint">Checking what this grant covers…</p>
      </div>
    );
  }
  if (!result.value) {
    return (
      <div className="preview" aria-live="polite">
        <p className="error">{`The preview failed: ${result.error ?? 'no answer'}`}</p>
      </div>
    );
  }
  const groups = (['call', 'recent', 'sample', 'given'] as const).map((source) => ({ source, items: result.value!.samples.filter((x) => x.source === source) })).filter((g) => g.items.length);
  return (
    <div className="preview" aria-live="polite">
      <h4 className="sr-only">What this grant covers</h4>
      {groups.map((g) => (
        <div key={g.source} className={`preview-group ${g.source}`}>
          <h4>{SOURCE_TITLES[g.source]}</h4>
          <ul>
            {g.items.map((x) => {
              const v = verdictOf(x);
              return (
                <li key={x.text} className={`sample ${v}`} data-verdict={v} data-source={x.source}>
                  <span className="mark" aria-hidden="true">{`${VERDICT[v].mark} `}</span>
                  <code>
                    <Visible text={x.text} />
                  </code>
                  <span className="sample-why">{` ${VERDICT[v].word}${v === 'covered' ? '' : `: ${x.reason.replace(/^[^:]*: /, '')}`}`}</span>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </div>
  );
}
