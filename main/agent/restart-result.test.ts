import { describe, expect, it } from 'vitest';
import type { CallState } from '../../common/call-state';
import { restartResult } from './agent';

describe('what the model is told after a restart about a call it got no result for', () => {
  const ran = { status: 'failed' as const, exit_code: 2, signal: null, duration_ms: 5, error: null, recorded_at: 1 };
  it.each([
    { state: null, label: 'not run', text: /^Threshold stopped before this call ran \(not run\); it had no effect/ },
    { state: 'not_run' as CallState, label: 'not run', text: /^Threshold stopped before this call ran \(not run\)/ },
    { state: 'scheduled' as CallState, label: 'not run', text: /^Threshold stopped before this call ran/ },
    { state: 'interrupted' as CallState, label: 'interrupted', text: /^Threshold stopped while this call ran \(interrupted\); it may have done part of its work/ },
    { state: 'awaiting_approval' as CallState, label: 'waiting for approval', text: /^Threshold stopped while this call waited for approval; it did not run\. The approval stays pending/ },
    { state: 'refused' as CallState, label: 'not run', text: /^This call was refused and did not run/ },
    { state: 'failed' as CallState, label: 'ran', text: /^This call ran before Threshold restarted and failed \(exit 2\); its output was lost/ },
  ])('$state → $label', ({ state, label, text }) => {
    const r = restartResult(state, state === 'failed' ? ran : undefined);
    expect({ label: r.label, text: text.test(r.text) }).toEqual({ label, text: true });
  });
});
