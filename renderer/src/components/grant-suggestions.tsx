// Grant suggestions from the history: on Settings → Grants, every call approved one at a time three
// times or more in this workspace, with its coverage preview and an Always allow that makes the one
// grant it names, exactly that call (grant.create); on a card, the same question once the call has been approved three times before,
// whose answer opens the card's own grant editor (approve_always, the normal path). The core never
// suggests a floor or a destructive call.
import { useEffect, useState } from 'react';
import type { PendingApproval } from '../../../common/approvals';
import { patternMeaning } from '../../../common/grant-pattern';
import { useApp } from '../store/store';
import type { GrantSuggestion } from '../store/types';
import { Visible } from './call-body';
import { ServerPreview } from './grant-editor';

/** The suggested grant in the words the Save buttons use: exactly what would be stored. */
function grantText(s: GrantSuggestion): string {
  return s.patterns.map((p) => patternMeaning(s.tool, p)).join(' and ');
}

export function SuggestionsSection() {
  const suggestions = useApp((s) => s.suggestions);
  const load = useApp((s) => s.loadSuggestions);
  const accept = useApp((s) => s.acceptSuggestion);
  const dismiss = useApp((s) => s.dismissSuggestion);
  const [busy, setBusy] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="suggestions" aria-labelledby="suggestions-title">
      <h2 id="suggestions-title">Suggestions</h2>
      {done && (
        <p className="hint" role="status">
          {done}
        </p>
      )}
      {suggestions.length === 0 ? (
        <p className="empty">No suggestions: nothing was approved one at a time three times or more in this workspace (floors and destructive calls are never suggested).</p>
      ) : (
        <ul className="suggestion-list">
          {suggestions.map((s) => {
            const grant = grantText(s);
            return (
              <li key={s.hash} className="suggestion" data-testid="suggestion">
                <p>
                  {'You approved '}
                  <code>
                    <Visible text={s.text} />
                  </code>
                  {` ${s.count} times in this workspace. Always allow `}
                  <code>{grant}</code>?
                </p>
                <ServerPreview tool={s.tool} patterns={s.patterns} samples={[s.text]} />
                <div className="actions">
                  <button
                    type="button"
                    className="primary"
                    disabled={busy !== null}
                    onClick={async () => {
                      setBusy(s.hash);
                      const r = await accept(s);
                      setBusy(null);
                      if (r.ok) setDone(`Granted: ${grant} runs without asking until you revoke it.`);
                    }}
                  >
                    {`Always allow ${grant}`}
                  </button>
                  <button type="button" onClick={() => dismiss(s.hash)} aria-label={`Not now: ${grant}`}>
                    Not now
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** On a card: the suggestion for this very call, when it has been approved three times or more before. */
export function CardSuggestion({ p, onAccept }: { p: PendingApproval; onAccept: () => void }) {
  const find = useApp((s) => s.suggestionFor);
  const dismiss = useApp((s) => s.dismissSuggestion);
  const dismissed = useApp((s) => s.dismissedSuggestions);
  const [s, setS] = useState<GrantSuggestion | null>(null);
  useEffect(() => {
    if (!p.outcomes.includes('approve_always')) return;
    let live = true;
    void find(p.id).then((r) => live && setS(r));
    return () => {
      live = false;
    };
  }, [p.id, p.outcomes, find]);
  if (!s || dismissed.includes(s.hash)) return null;
  const grant = grantText(s);
  return (
    <div className="card-suggestion" role="group" aria-label="Suggestion">
      <p>
        {`You approved this call ${s.count} times before in this workspace. Always allow `}
        <code>{grant}</code>?
      </p>
      <div className="actions">
        <button type="button" onClick={onAccept}>
          {`Always allow ${grant}…`}
        </button>
        <button type="button" onClick={() => dismiss(s.hash)}>
          Not now
        </button>
      </div>
    </div>
  );
}
