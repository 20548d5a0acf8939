// Settings → Grants: every grant as a row (filter active / expired / revoked) with where it came from,
// when it was last used and how many prompts it saved; Revoke (effective at the next call) and Edit.
import { useEffect, useState } from 'react';
import type { GrantDuration, GrantRecord } from '../../../common/approvals';
import { formatTime, grantExpiryText, grantProvenanceText, grantScopeText, grantState, patternText } from '../model/describe';
import type { GrantFilter } from '../store/types';
import { useApp } from '../store/store';
import { GrantEditor } from './grant-editor';
import { SuggestionsSection } from './grant-suggestions';

const FILTERS: GrantFilter[] = ['active', 'expired', 'revoked'];
const FILTER_WORDS: Record<GrantFilter, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

function durationOf(g: GrantRecord): GrantDuration {
  if (g.scope === 'session') return 'session';
  if (g.scope === 'always') return 'always';
  return g.expires_at !== null && g.expires_at - g.created_at <= 15 * 60_000 ? '15m' : '1h';
}

/** Prompts a grant saved: the calls it let through that would otherwise have asked. */
function promptsSaved(g: GrantRecord): number {
  const extra = (g as { prompts_saved?: unknown }).prompts_saved;
  return typeof extra === 'number' ? extra : g.use_count;
}

function GrantRow({ g, now }: { g: GrantRecord; now: number }) {
  const revoke = useApp((s) => s.revokeGrant);
  const update = useApp((s) => s.updateGrant);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const state = grantState(g, now);
  const pattern = patternText(g.pattern);
  return (
    <>
      <tr className={`grant state-${state}`}>
        <td>{g.tool}</td>
        <td>
          <code>{pattern}</code>
          {g.note && <div className="grant-note">{g.note}</div>}
          {g.not_in_force && <div className="error grant-not-in-force">{g.not_in_force}</div>}
        </td>
        <td>{grantScopeText(g)}</td>
        <td>{grantExpiryText(g, now)}</td>
        <td>{grantProvenanceText(g, now)}</td>
        <td>{g.last_used_at ? formatTime(g.last_used_at, now) : 'Never'}</td>
        <td className="num">{g.use_count}</td>
        <td className="num">{promptsSaved(g)}</td>
        <td>
          <div className="row-actions">
          {state === 'revoked' ? (
            `Revoked ${formatTime(g.revoked_at!, now)}`
          ) : g.source === 'config' ? (
            'Edit the config file to change it'
          ) : (
            <>
              <button type="button" aria-label={`Edit grant ${pattern}`} onClick={() => setEditing(!editing)}>
                Edit
              </button>
              <button type="button" className="danger" aria-label={`Revoke grant ${pattern}`} onClick={() => void revoke(g.id)}>
                Revoke
              </button>
            </>
          )}
          </div>
        </td>
      </tr>
      {editing && (
        <tr className="grant-edit">
          <td colSpan={9}>
            <GrantEditor
              tool={g.tool}
              initial={[g.pattern]}
              initialDuration={durationOf(g)}
              initialNote={g.note ?? ''}
              verb="Save grant:"
              onCancel={() => setEditing(false)}
              onSave={async (v) => {
                const r = await update(g.id, { pattern: v.patterns[0]!, duration: v.duration, note: v.note.trim() || null });
                if (r.ok) setEditing(false);
                else setError(r.error.message);
              }}
            />
            {error && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
          </td>
        </tr>
      )}
    </>
  );
}

export function GrantsScreen() {
  const grants = useApp((s) => s.grants);
  const filter = useApp((s) => s.grantFilter);
  const setFilter = useApp((s) => s.setGrantFilter);
  const load = useApp((s) => s.loadGrants);
  const error = useApp((s) => s.grantsError);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    void load();
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, [load]);
  const shown = grants.filter((g) => grantState(g, now) === filter);
  return (
    <section className="grants-screen" aria-labelledby="grants-title">
      <h2 id="grants-title">Grants</h2>
      <p>Grants let matching calls run without asking. Revoking one takes effect at the next call. Floors (destructive commands, credentials, capability changes) always ask, whatever a grant says.</p>
      <div className="filters" role="group" aria-label="Show grants">
        {FILTERS.map((f) => (
          <button key={f} type="button" aria-pressed={filter === f} onClick={() => setFilter(f)}>
            {`${FILTER_WORDS[f]} (${grants.filter((g) => grantState(g, now) === f).length})`}
          </button>
        ))}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {shown.length === 0 ? (
        <p className="empty">{`No ${FILTER_WORDS[filter].toLowerCase()} grants.`}</p>
      ) : (
        <table className="grants">
          <caption className="sr-only">{`${FILTER_WORDS[filter]} grants`}</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Pattern</th>
              <th scope="col">Scope</th>
              <th scope="col">Expiry</th>
              <th scope="col">Where it came from</th>
              <th scope="col">Last used</th>
              <th scope="col">Uses</th>
              <th scope="col">Prompts saved</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((g) => (
              <GrantRow key={g.id} g={g} now={now} />
            ))}
          </tbody>
        </table>
      )}
      <SuggestionsSection />
    </section>
  );
}
