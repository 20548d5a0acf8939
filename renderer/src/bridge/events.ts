// The event payloads the renderer reads, named from the operations table (common/operations.ts).
import type { EventPayloads } from '../../../common/operations';

export type CallState = EventPayloads['call.state']['state'];
export type ConsentOfferView = EventPayloads['sandbox.denied'];
export type NotificationView = EventPayloads['notification.sent'];

export const FINAL_CALL_STATES: ReadonlySet<CallState> = new Set(['denied', 'succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled', 'handed_off']);
