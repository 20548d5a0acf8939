// TEST HOOK, inert unless THRESHOLD_CRASH_AT is set: the crash harness (test/integration/crash-harness.test.ts)
// names a stage of a call (`stage`, or `stage@N` for the Nth time the process reaches it), and the
// process kills itself with SIGKILL there, exactly as kill -9 would, so every stage can be hit
// deterministically. Nothing else reads the variable; unset, each crash point is one comparison.
export const CRASH_STAGES = [
  /** The model's message with its calls is stored; no call has reached the gate. */
  'model_emitted',
  /** The pending approval is committed (and broadcast); the waiter has no timer yet. */
  'pending_written',
  /** Inside the decision's transaction, before it commits. */
  'decision_write',
  /** The decision committed; the waiting call has not been released. */
  'decision_written',
  /** The call is marked as running; the command has not started. */
  'executing',
  /** A command is running (its first output arrived). */
  'command_running',
  /** Inside the outcome's transaction, before it commits. */
  'outcome_write',
] as const;
export type CrashStage = (typeof CRASH_STAGES)[number];

const reached = new Map<CrashStage, number>();

export function crashPoint(stage: CrashStage): void {
  const wanted = process.env['THRESHOLD_CRASH_AT'];
  if (!wanted) return;
  const [name, nth] = wanted.split('@');
  if (name !== stage) return;
  const count = (reached.get(stage) ?? 0) + 1;
  reached.set(stage, count);
  if (count !== Number(nth ?? 1)) return;
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL to oneself lands at once; never run another line if it has not yet.
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
}
