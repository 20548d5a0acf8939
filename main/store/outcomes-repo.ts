// The write-once execution outcome of an approved call.
import type { ExecutionOutcome, ExecutionStatus } from '../../common/approvals';
import type { Redacted } from '../redact/redactor';
import type { Db } from './db';

export class OutcomeAlreadyRecorded extends Error {
  constructor(callId: string) {
    super(`The execution outcome of call ${callId} is already recorded; it cannot be written twice.`);
    this.name = 'OutcomeAlreadyRecorded';
  }
}

/** An outcome to store: its error text has passed the redactor (sanitiseErrorText). */
/** An outcome joined into another query under `x_` column aliases (o.status AS x_status, …), or null when there is none. */
export function outcomeOfJoinedRow(r: Record<string, unknown>): ExecutionOutcome | null {
  if (!r['x_status']) return null;
  return {
    status: r['x_status'] as ExecutionStatus,
    exit_code: (r['x_exit_code'] as number | null) ?? null,
    signal: (r['x_signal'] as string | null) ?? null,
    duration_ms: (r['x_duration_ms'] as number | null) ?? null,
    error: (r['x_error'] as string | null) ?? null,
    recorded_at: r['x_recorded_at'] as number,
  };
}

export type NewOutcome = Omit<ExecutionOutcome, 'error'> & { error: Redacted<string> | null };

export class OutcomesRepo {
  constructor(private readonly db: Db) {}

  /** Writes the outcome once; a second write throws OutcomeAlreadyRecorded. */
  record(callId: string, o: NewOutcome): void {
    const r = this.db
      .prepare('INSERT INTO outcomes (call_id, status, exit_code, signal, duration_ms, error, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(call_id) DO NOTHING')
      .run(callId, o.status, o.exit_code, o.signal, o.duration_ms, o.error, o.recorded_at);
    if (r.changes === 0) throw new OutcomeAlreadyRecorded(callId);
  }

  get(callId: string): ExecutionOutcome | undefined {
    return this.db.prepare('SELECT status, exit_code, signal, duration_ms, error, recorded_at FROM outcomes WHERE call_id = ?').get(callId) as ExecutionOutcome | undefined;
  }
}
