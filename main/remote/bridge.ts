// The shape every remote approver's bridge has (Telegram, Matrix): it sends a card with its buttons,
// edits it in place, and reports answers; it never decides. The hub (hub.ts) checks each answer and
// calls the gate's one decide, as any other surface does.
import { setTimeout as delay } from 'node:timers/promises';
import type { HumanOutcome } from '../../common/approvals';
import type { Disposable } from '../../common/disposable';

export type BridgeName = 'telegram' | 'matrix';

export interface RemoteButton {
  outcome: HumanOutcome;
  label: string;
  /** The decision token (decision-token.ts) the button carries. */
  token: string;
}

export interface OutgoingCard {
  approvalId: string;
  text: string;
  buttons: RemoteButton[];
}

/** An answer from the chat: a button press (Telegram) or a reaction or reply to a card (Matrix). */
export interface Press {
  bridge: BridgeName;
  /** The chat or room it came from. */
  audience: string;
  /** Who answered (a Telegram user id, a Matrix user id). */
  sender: string;
  /** The token a button carried (Telegram); null when the answer names a card instead. */
  token: string | null;
  /** The card answered and the outcome chosen (Matrix). */
  card: { messageId: string; outcome: string } | null;
  /** Tells the person who answered what happened (a toast, a reply). */
  reply(text: string, refused: boolean): Promise<void>;
}

export interface BridgeStatus {
  state: 'starting' | 'ok' | 'failing' | 'stopped';
  /** The last failure, in a sentence (redacted). */
  error: string | null;
  last_ok_at: number | null;
}

export interface RemoteBridge extends Disposable {
  readonly name: BridgeName;
  /** The one chat or room whose answers count. */
  readonly audience: string;
  /** Starts the long poll; answers go to `onPress`. */
  start(onPress: (press: Press) => void): void;
  send(card: OutgoingCard): Promise<{ messageId: string }>;
  /** Replaces the card's text and removes its buttons. */
  edit(messageId: string, text: string): Promise<void>;
  status(): BridgeStatus;
  dispose(): Promise<void>;
}

/** How long a poll loop waits after a failure: doubling from 1 s to 30 s. */
export function backoffMs(failures: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));
}

/** Waits `ms`, or less when the bridge is stopped: resolves either way (a stopped wait is not an error). */
export function waitOrStop(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}
