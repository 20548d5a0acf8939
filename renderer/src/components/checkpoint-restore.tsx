// History's checkpoint part: what the call changed, and Restore. A restore puts the workspace back as
// it was before the call, so it undoes this call and every change made after it: the confirmation
// names each of them (this call, every later call, a later restore, edits made meanwhile) with its
// files and diff before anything happens, and the restore runs only on the workspace that list was made
// from. Every restore can be undone from here (the checkpoint taken just before it), and the undo too.
import { useEffect, useId, useState } from 'react';
import { formatTime, summarizeCall } from '../model/describe';
import { useApp } from '../store/store';
import type { CheckpointDiff, CheckpointView, RestorePlan } from '../store/types';
import { DiffView, Visible } from './call-body';

/** What a restore (or the undo of one) does to a file, by how it changed since the checkpoint. */
function changeWords(change: 'added' | 'modified' | 'deleted', undo: boolean): string {
  const who = undo ? 'the undo' : 'Restore';
  return change === 'added' ? `added since: ${who} deletes it` : change === 'modified' ? `changed since: ${who} puts it back as it was` : `deleted since: ${who} brings it back`;
}

function callText(c: CheckpointView): string {
  return c.call ? `${c.call.tool}: ${summarizeCall(c.call.tool, c.call.args)}` : '';
}

/** What a step of the plan was: this call, a later one, a restore, or changes after a manual checkpoint. */
function stepLabel(step: CheckpointView, target: CheckpointView): string {
  const first = step.id === target.id;
  switch (step.kind) {
    case 'before_call':
      return first ? 'This call' : 'A later call';
    case 'before_restore':
      return first ? 'The restore' : 'A later restore';
    default:
      return first ? 'Changes after this checkpoint' : 'Later changes';
  }
}

function PlanStep({ s, target, open }: { s: RestorePlan['steps'][number]; target: CheckpointView; open: boolean }) {
  const label = stepLabel(s.checkpoint, target);
  return (
    <li className="plan-step">
      <p>
        <strong>{label}</strong>
        {s.checkpoint.call && (
          <>
            {': '}
            <Visible text={callText(s.checkpoint)} />
          </>
        )}
        {`, ${formatTime(s.checkpoint.created_at)}`}
        {s.checkpoint.session_id && s.checkpoint.session_id !== target.session_id ? `, in session ${s.checkpoint.session_id}` : ''}
      </p>
      <ul className="plan-files">
        {s.files.map((f) => (
          <li key={`${f.change}:${f.path}`}>
            <code>
              <Visible text={f.path} />
            </code>
            {` ${f.change}`}
          </li>
        ))}
      </ul>
      <details open={open}>
        <summary>{`Diff of what ${label.toLowerCase()} changed`}</summary>
        <DiffView preview={s.patch} path={`the workspace after ${label.toLowerCase()}`} />
        {s.truncated && <p className="muted">{`The diff is cut short; threshold checkpoints diff ${s.checkpoint.id} shows all of it.`}</p>}
      </details>
    </li>
  );
}

/** The confirmation: everything the restore (or the undo of one) will change, then the button. */
function RestorePlanView({ id, undo, onDone, onCancel }: { id: string; undo: boolean; onDone: (message: string) => void; onCancel: () => void }) {
  const planRestore = useApp((s) => s.planRestore);
  const restore = useApp((s) => s.restoreCheckpoint);
  const connected = useApp((s) => s.connection === 'open');
  const headingId = useId();
  const [plan, setPlan] = useState<RestorePlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let live = true;
    setPlan(null);
    setError(null);
    void planRestore(id).then((r) => {
      if (!live) return;
      if (r.ok) setPlan(r.value);
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [id, planRestore, generation]);

  if (!plan) {
    return (
      <div className="restore-plan" role="group" aria-label="What Restore would undo">
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : (
          <p role="status">Working out everything Restore would undo…</p>
        )}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    );
  }

  const target = plan.checkpoint;
  const calls = new Set(plan.steps.filter((s) => s.checkpoint.kind === 'before_call').map((s) => s.checkpoint.call_id));
  const laterCalls = [...calls].filter((c) => c !== target.call_id).length;
  const counts = (['added', 'modified', 'deleted'] as const).map((k) => [k, plan.files.filter((f) => f.change === k).length] as const);
  const run = async () => {
    setBusy(true);
    const r = await restore(id, plan.tree);
    setBusy(false);
    if (!r.ok) {
      setError(r.error.message);
      return;
    }
    const n = plan.files.length;
    onDone(undo ? `Undid the restore: the workspace is back as it was before it (${n} file${n === 1 ? '' : 's'}).` : `Restored the workspace to before this call: ${n} file${n === 1 ? '' : 's'} put back, undoing ${calls.size} call${calls.size === 1 ? '' : 's'}.`);
  };

  return (
    <section className="restore-plan" aria-labelledby={headingId}>
      <h4 id={headingId}>{undo ? `Undo the restore of ${formatTime(target.created_at)}?` : 'Restore the workspace to before this call?'}</h4>
      {plan.files.length === 0 ? (
        <p>{undo ? 'Nothing to undo: the workspace is as it was before that restore.' : 'Nothing to undo: the workspace is already as it was before this call.'}</p>
      ) : (
        <>
          <p>
            {undo
              ? 'This puts back the workspace as it was just before the restore, undoing the restore and every change made since:'
              : `This undoes every change made in the workspace since this call began: this call${laterCalls ? ` and ${laterCalls} later call${laterCalls === 1 ? '' : 's'}` : ''}, and anything else changed there meanwhile (your own edits too).`}
          </p>
          <p className="plan-total">{`In all, since then: ${counts
            .filter(([, n]) => n > 0)
            .map(([k, n]) => `${n} file${n === 1 ? '' : 's'} ${k === 'modified' ? 'changed' : k}`)
            .join(', ')}. Step by step (each step lists what changed before the next checkpoint):`}</p>
          <ol className="plan-steps">
            {plan.steps.map((s, i) => (
              <PlanStep key={s.checkpoint.id} s={s} target={target} open={plan.steps.length === 1 && i === 0} />
            ))}
          </ol>
          {plan.more_steps > 0 && <p className="warning">{`…and ${plan.more_steps} later checkpoint${plan.more_steps === 1 ? '' : 's'} not listed here: threshold checkpoints plan ${target.id} lists them all. The totals above include them.`}</p>}
          <p className="plan-files-all">
            {'Every file: '}
            {plan.files.map((f, i) => (
              <span key={`${f.change}:${f.path}`}>
                {i ? '; ' : ''}
                <code>
                  <Visible text={f.path} />
                </code>
                {` ${changeWords(f.change, undo)}`}
              </span>
            ))}
          </p>
        </>
      )}
      {plan.left_alone.length > 0 && (
        <p className="muted">
          {'Left as they are (no checkpoint holds files .gitignore ignores, or files too large): '}
          {plan.left_alone.map((p, i) => (
            <span key={p}>
              {i ? ', ' : ''}
              <code>
                <Visible text={p} />
              </code>
            </span>
          ))}
          {plan.left_alone_more ? ` and ${plan.left_alone_more} more.` : '.'}
        </p>
      )}
      {plan.files.length > 0 && <p>A checkpoint of the workspace as it is now is taken first: this can be undone from here.</p>}
      <div className="row-actions">
        {plan.files.length > 0 && (
          <button type="button" className="danger" disabled={busy || !connected} onClick={() => void run()}>
            {undo ? 'Undo the restore' : 'Restore the workspace'}
          </button>
        )}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {error && (
          <button type="button" onClick={() => setGeneration((g) => g + 1)}>
            Look again
          </button>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

export function CheckpointPart() {
  const cp = useApp((s) => s.openCall?.checkpoint ?? null);
  const getDiff = useApp((s) => s.getCheckpointDiff);
  const [diff, setDiff] = useState<CheckpointDiff | null>(null);
  const [confirming, setConfirming] = useState<'restore' | 'undo' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = cp?.id;
  useEffect(() => {
    setDiff(null);
    setConfirming(null);
    setMessage(null);
    setError(null);
  }, [id]);
  if (!cp) return <p className="muted">No checkpoint: this call could not change the workspace, or did not run.</p>;
  const undoPoint = cp.undo;
  const planFor = confirming === 'restore' ? cp.id : confirming === 'undo' && undoPoint ? undoPoint.id : null;
  const confirm = (what: 'restore' | 'undo') => {
    setMessage(null);
    setConfirming(what);
  };
  return (
    <div className="checkpoint">
      <p>{`Checkpoint ${cp.id}, taken ${formatTime(cp.created_at)} before the call (${cp.files} files${cp.excluded.length ? `, ${cp.excluded.length} left out by the size cap` : ''}).`}</p>
      {cp.restored_at !== null && undoPoint && (
        <p className="restore-state" data-testid="restore-state">
          {`The workspace was restored to this checkpoint ${formatTime(cp.restored_at)}. `}
          {undoPoint.restored_at !== null ? `That restore was undone ${formatTime(undoPoint.restored_at)}.` : `What it replaced is kept in checkpoint ${undoPoint.id}.`}
        </p>
      )}
      <div className="row-actions">
        <button
          type="button"
          onClick={async () => {
            const r = await getDiff(cp.id);
            if (r.ok) setDiff(r.value);
            else setError(r.error.message);
          }}
        >
          Show what it changed
        </button>
        {confirming === null && (
          <button type="button" onClick={() => confirm('restore')}>
            Restore…
          </button>
        )}
        {confirming === null && undoPoint && undoPoint.restored_at === null && (
          <button type="button" onClick={() => confirm('undo')}>
            Undo this restore…
          </button>
        )}
      </div>
      {planFor && (
        <RestorePlanView
          key={planFor}
          id={planFor}
          undo={confirming === 'undo'}
          onCancel={() => setConfirming(null)}
          onDone={(m) => {
            setConfirming(null);
            setMessage(m);
          }}
        />
      )}
      {message && <p role="status">{message}</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {diff && (diff.stat.trim() ? <DiffView preview={diff.patch} path="the workspace" /> : <p>No changes: the workspace after the call is the same as before it.</p>)}
      {diff?.truncated && <p className="muted">The diff is cut short; `threshold checkpoints diff {cp.id}` shows all of it.</p>}
    </div>
  );
}
