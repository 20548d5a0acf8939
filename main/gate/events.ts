// The events the core broadcasts to every surface (desktop, web, control clients): exactly the events of
// the operations table (common/operations.ts), so a payload the core emits is the one a client parses.
// Past tense names; every payload is redacted before it is emitted.
import { EventBus } from '../../common/event-bus';
import type { EventPayloads } from '../../common/operations';

export type CoreEvents = EventPayloads;
export type TurnEndReason = CoreEvents['turn.ended']['reason'];
/** A paired phone as Settings → Devices shows it (main/remote/devices.ts). */
export type DeviceView = CoreEvents['device.paired'];

/** The core's bus: a failing listener becomes a process warning and stops nothing else. */
export class CoreEventBus extends EventBus<CoreEvents> {
  constructor() {
    super((err) => process.emitWarning(`Threshold event listener failed: ${(err as Error).message}`));
  }
}
