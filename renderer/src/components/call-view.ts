// What the chat's row of one tool call shows: its state from the stored record (the one History lists)
// advanced by the live events since, the card waiting for that very call (matched by the gate's call id,
// never by look-alike arguments), its class and its live output.
import type { Class } from '../../../common/domain';
import type { CallState } from '../bridge/events';
import { callStatus } from '../model/call-status';
import type { ChatItem } from '../model/transcript';
import { useApp } from '../store/store';

export interface CallView {
  state: CallState;
  klass: Class | undefined;
  output: string | undefined;
}

export function useCallView(item: Extract<ChatItem, { kind: 'call' }>): CallView {
  const session = useApp((s) => s.currentSessionId);
  const live = useApp((s) => s.calls[item.toolCallId]);
  const record = useApp((s) => (session ? s.callRecords[session]?.[item.toolCallId] : undefined));
  const gateCallId = live?.gateCallId ?? record?.id ?? null;
  const waiting = useApp((s) => gateCallId !== null && s.pending.some((p) => p.call_id === gateCallId));
  const klass = useApp((s) => (gateCallId ? s.classOf[gateCallId] : undefined)) ?? record?.class ?? undefined;
  const output = useApp((s) => (gateCallId ? s.output[gateCallId] : undefined));
  const state = callStatus({ live: live?.state ?? null, stored: record?.state ?? null, waiting, result: item.result ? (item.result.isError ? 'error' : 'ok') : null });
  return { state, klass, output };
}
