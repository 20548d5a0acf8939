// Settings → Agent access: the level (a sentence each), the approval timeout, the reviewer's switch,
// rules per effect and per tool, and the jail's status; every value with the layer it comes from and the
// one that wins. Edits are a draft: Preview replays recent calls under it, Save writes this page's layer
// (validated, never past a managed policy; the config file is never rewritten), applying at the next call.
import { useEffect, useId } from 'react';
import { LEVELS, type Level } from '../../../common/domain';
import { EFFECT_WORDS, LEVEL_WORDS, draftIsEmpty, draftedRule, sourceText, timeoutText, type AccessView, type LayerName, type SettingsView } from '../model/access';
import type { PolicyPreview } from '../store/types';
import { useApp } from '../store/store';

type Files = { config: string | null; managed: string | null };
type Prov<T> = { key: string; value: T | null; source: LayerName; layers: Record<LayerName, T | null>; capped: boolean };

const LEVEL_RANK: Record<Level, number> = { 'read-only': 0, supervised: 1, 'auto-edit': 2, full: 3 };
const EFFECT_RANK: Record<string, number> = { auto: 0, ask: 2, deny: 3 };
const TOOL_RANK: Record<string, number> = { allow: 0, ask: 2, deny: 3 };

/** "In force: ask, from the config file. Config file: ask · this page: not set · …" */
function Provenance<T>({ p, files, show }: { p: Prov<T>; files: Files; show: (v: T | null) => string }) {
  const layers: [LayerName, string][] = [
    ['default', 'default'],
    ['file', 'config file'],
    ['ui', 'this page'],
    ['managed', 'managed policy'],
  ];
  return (
    <p className="provenance">
      <span className="in-force">{`In force: ${show(p.value)}, from ${sourceText(p.source, files)}${p.capped ? ' (it lowers what a lower layer chose)' : ''}.`}</span>{' '}
      <span className="layers">
        {layers
          .filter(([name]) => name !== 'managed' || p.layers.managed !== null)
          .map(([name, words]) => `${words}: ${p.layers[name] === null ? 'not set' : show(p.layers[name])}${name === p.source ? ' (wins)' : ''}`)
          .join(' · ')}
      </span>
    </p>
  );
}

function JailStatus({ jail }: { jail: SettingsView['jail'] }) {
  if (jail.warning) {
    return (
      <div className="jail-warning" role="alert">
        <strong>{jail.unjailed ? 'Commands run unjailed. ' : 'The jail cannot start. '}</strong>
        {jail.warning}
      </div>
    );
  }
  return <p className="jail-ok">{`Commands run in the jail (bubblewrap), limited by ${jail.containment === 'cgroup' ? 'a cgroup' : 'resource limits'}.`}</p>;
}

function LevelChoice({ a, files }: { a: AccessView; files: Files }) {
  const draft = useApp((s) => s.draft);
  const edit = useApp((s) => s.editDraft);
  const max = a.managed?.max_level ?? null;
  const chosen: Level = draft.level === undefined ? a.level.value! : (draft.level ?? a.level.layers.file ?? a.level.layers.default!);
  return (
    <fieldset className="levels">
      <legend>Level</legend>
      {LEVELS.map((l) => {
        const above = max !== null && LEVEL_RANK[l] > LEVEL_RANK[max];
        const id = `level-${l}`;
        return (
          <div key={l} className={`level-option${chosen === l ? ' chosen' : ''}`}>
            <input type="radio" name="level" id={id} value={l} checked={chosen === l} disabled={above} aria-describedby={`${id}-says`} onChange={() => edit({ level: l })} />
            <label htmlFor={id}>
              <strong>{LEVEL_WORDS[l].name}</strong>
              {above && ' (above the managed policy’s highest level)'}
            </label>
            <p id={`${id}-says`} className="level-sentence">
              {LEVEL_WORDS[l].sentence}
            </p>
          </div>
        );
      })}
      <Provenance p={a.level} files={files} show={(v) => (v ? LEVEL_WORDS[v].name : 'not set')} />
      {a.level.layers.ui !== null && draft.level !== null && (
        <button type="button" onClick={() => edit({ level: null })}>
          Use the config file’s level
        </button>
      )}
    </fieldset>
  );
}

function Timeout({ a, files }: { a: AccessView; files: Files }) {
  const draft = useApp((s) => s.draft);
  const edit = useApp((s) => s.editDraft);
  const id = useId();
  const value = draft.approval_ttl_seconds === undefined ? a.approval_ttl_seconds.value! : (draft.approval_ttl_seconds ?? a.approval_ttl_seconds.layers.file ?? a.approval_ttl_seconds.layers.default!);
  const indefinite = value === 0;
  return (
    <fieldset className="timeout">
      <legend>Approval timeout</legend>
      <p>How long a card waits for you before the call is refused as expired.</p>
      <div className="timeout-row">
        <label htmlFor={`${id}-s`}>Seconds</label>
        <input
          id={`${id}-s`}
          type="number"
          min={1}
          max={604800}
          value={indefinite ? '' : value}
          disabled={indefinite}
          onChange={(e) => {
            const n = Number(e.target.value);
            if (Number.isInteger(n) && n >= 1 && n <= 604800) edit({ approval_ttl_seconds: n });
          }}
        />
        <input id={`${id}-w`} type="checkbox" checked={indefinite} onChange={(e) => edit({ approval_ttl_seconds: e.target.checked ? 0 : 600 })} />
        <label htmlFor={`${id}-w`}>Wait indefinitely</label>
      </div>
      <Provenance p={a.approval_ttl_seconds} files={files} show={(v) => (v === null ? 'not set' : timeoutText(v))} />
    </fieldset>
  );
}

function Reviewer({ a, files }: { a: AccessView; files: Files }) {
  const draft = useApp((s) => s.draft);
  const edit = useApp((s) => s.editDraft);
  const id = useId();
  const r = a.auto_approval;
  const on = draft.auto_approval_enabled === undefined ? r.enabled.value === true : (draft.auto_approval_enabled ?? r.enabled.layers.file ?? false);
  const why = r.forbidden_by ? `Turned off by the managed policy (${r.forbidden_by}).` : r.declared.length === 0 ? 'No reviewer is declared: add a [reviewers.<name>] table to the config file first.' : null;
  return (
    <fieldset className="reviewer">
      <legend>Reviewer</legend>
      <p>A second model may answer some prompts in your place; it can only approve what you could have approved, never deny, and never answers a floor.</p>
      <div>
        <input id={id} type="checkbox" role="switch" checked={on} disabled={why !== null && !on} aria-describedby={`${id}-state`} onChange={(e) => edit({ auto_approval_enabled: e.target.checked })} />
        <label htmlFor={id}>Let the reviewer answer prompts</label>
      </div>
      <p id={`${id}-state`} className="reviewer-state">
        {`${on ? 'On' : 'Off'}. Reviewers named: ${r.reviewers.join(', ') || 'none'}; declared: ${r.declared.join(', ') || 'none'}.`}
        {why && ` ${why}`}
      </p>
      <Provenance p={r.enabled} files={files} show={(v) => (v === null ? 'not set' : v ? 'on' : 'off')} />
      {a.never_auto_approve.length > 0 && (
        <p>
          {'Never reviewed (a person decides): '}
          {a.never_auto_approve.map((n, i) => (
            <span key={n.entry}>
              {i > 0 && ', '}
              <code>{n.entry}</code>
              {` (${sourceText(n.source, files)})`}
            </span>
          ))}
        </p>
      )}
    </fieldset>
  );
}

function RuleTable({ kind, rows, values, rank, files, caption, nameOf }: { kind: 'effects' | 'tools'; rows: Prov<string>[]; values: readonly string[]; rank: Record<string, number>; files: Files; caption: string; nameOf: (key: string) => string }) {
  const draft = useApp((s) => s.draft);
  const edit = useApp((s) => s.editDraft);
  const prefix = `rules.${kind}.`;
  return (
    <table className="rules">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{kind === 'effects' ? 'Effect' : 'Tool'}</th>
          <th scope="col">This page</th>
          <th scope="col">In force</th>
          <th scope="col">Comes from</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => {
          const name = p.key.slice(prefix.length);
          const drafted = draftedRule(draft, kind, name);
          const pageValue = drafted === undefined ? (p.layers.ui ?? '') : (drafted ?? '');
          const managed = p.layers.managed;
          const label = nameOf(name);
          return (
            <tr key={p.key} className={drafted !== undefined ? 'edited' : undefined}>
              <th scope="row">
                {label}
                {kind === 'effects' && <code className="rule-key">{name}</code>}
              </th>
              <td>
                <select
                  aria-label={`Rule for ${label}`}
                  value={pageValue}
                  onChange={(e) => edit({ [kind]: { [name]: e.target.value === '' ? null : e.target.value } })}
                >
                  <option value="">{p.layers.file !== null ? `Not set (config file: ${p.layers.file})` : 'Not set (the level decides)'}</option>
                  {values.map((v) => (
                    <option key={v} value={v} disabled={managed !== null && rank[v]! < rank[managed]!}>
                      {v}
                    </option>
                  ))}
                </select>
              </td>
              <td>{p.value ?? 'the level decides'}</td>
              <td>{`${sourceText(p.source, files)}${p.capped ? ', lowers what a lower layer chose' : ''}`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const CHANGE_WORDS = { now_allowed: 'would now run unasked', now_asked: 'would now ask', now_denied: 'would now be refused' } as const;
const DECISION_WORDS = { allow: 'runs', ask: 'asks', deny: 'refused' } as const;

function PreviewResult({ preview }: { preview: PolicyPreview }) {
  const changed = preview.calls.filter((c) => c.change !== null);
  return (
    <section className="policy-preview" aria-labelledby="policy-preview-title">
      <h3 id="policy-preview-title">Policy preview</h3>
      {preview.problem && (
        <p className="error" role="alert">
          {`Saving would be refused: ${preview.problem}`}
        </p>
      )}
      <p role="status">
        {preview.replayed === 0
          ? 'No calls in the history yet to replay.'
          : `Of the last ${preview.replayed} calls, with these changes ${preview.counts.allow} would run unasked, ${preview.counts.ask} would ask and ${preview.counts.deny} would be refused; ${changed.length} ${changed.length === 1 ? 'is' : 'are'} decided differently.`}
      </p>
      {preview.replayed > 0 && (
        <table className="preview-calls">
          <caption className="sr-only">Recent calls under the current and the proposed settings</caption>
          <thead>
            <tr>
              <th scope="col">Call</th>
              <th scope="col">Today</th>
              <th scope="col">With the changes</th>
            </tr>
          </thead>
          <tbody>
            {preview.calls.map((c) => (
              <tr key={c.call_id} className={c.change ? `changed ${c.change}` : undefined} data-change={c.change ?? 'same'}>
                <td>
                  <span className="preview-tool">{c.tool}</span> <code>{c.text}</code>
                </td>
                <td>{DECISION_WORDS[c.current.decision]}</td>
                <td title={c.proposed.explanation}>{c.change ? `${DECISION_WORDS[c.proposed.decision]}: ${CHANGE_WORDS[c.change]}` : `${DECISION_WORDS[c.proposed.decision]} (no change)`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function AgentAccessPage() {
  const settings = useApp((s) => s.settings);
  const draft = useApp((s) => s.draft);
  const preview = useApp((s) => s.policyPreview);
  const previewing = useApp((s) => s.previewing);
  const error = useApp((s) => s.settingsError);
  const saved = useApp((s) => s.settingsSaved);
  const load = useApp((s) => s.loadSettings);
  const discard = useApp((s) => s.discardDraft);
  const runPreview = useApp((s) => s.previewDraft);
  const save = useApp((s) => s.saveDraft);
  useEffect(() => {
    void load();
  }, [load]);
  if (!settings) return <p>Loading the settings…</p>;
  const a = settings.access;
  const files: Files = { config: settings.config_file, managed: a.managed?.file ?? null };
  const empty = draftIsEmpty(draft);
  return (
    <div className="agent-access">
      <h2>Agent access</h2>
      <p>
        {'What the agent may do without asking. Changes here are kept by Threshold on top of your config file '}
        {settings.config_file ? <code>{settings.config_file}</code> : '(there is none)'}
        {', which is never rewritten; they apply from the next call.'}
      </p>
      <JailStatus jail={settings.jail} />
      {a.managed && (
        <p className="managed-note">
          {`An administrator’s managed policy applies (${a.managed.file})${a.managed.max_level ? `: the highest level is ${LEVEL_WORDS[a.managed.max_level].name}` : ''}. What it sets is marked “managed policy” and cannot be loosened here.`}
        </p>
      )}
      <LevelChoice a={a} files={files} />
      <Timeout a={a} files={files} />
      <Reviewer a={a} files={files} />
      <div className="rule-tables">
      <RuleTable kind="effects" rows={a.effects} values={['auto', 'ask', 'deny']} rank={EFFECT_RANK} files={files} caption="Rules per effect: auto runs it without asking (above read-only), ask always asks, deny refuses" nameOf={(e) => EFFECT_WORDS[e] ?? e} />
      <RuleTable kind="tools" rows={a.tools} values={['allow', 'ask', 'deny']} rank={TOOL_RANK} files={files} caption="Rules per tool: allow, ask or deny at every level (floors still ask)" nameOf={(t) => t} />
      </div>
      <div className="access-actions" role="group" aria-label="Unsaved changes">
        <span className="draft-state">{empty ? 'No unsaved changes.' : 'You have unsaved changes.'}</span>
        <button type="button" disabled={empty || previewing} onClick={() => void runPreview()}>
          {previewing ? 'Replaying…' : 'Preview on recent calls'}
        </button>
        <button type="button" className="primary" disabled={empty} onClick={() => void save()}>
          Save changes
        </button>
        <button type="button" disabled={empty} onClick={discard}>
          Discard
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {saved && (
        <p className="saved" role="status">
          {saved}
        </p>
      )}
      {preview && <PreviewResult preview={preview} />}
    </div>
  );
}
