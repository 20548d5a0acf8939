// Where a call came from: Threshold's own agent, a script or person on the control socket (`threshold
// ctl request`, the JSON-RPC approval.request), or another tool that routes its calls through the gate
// (the later hooks of other agents: "Claude Code in ~/project"). A tagged union that logic reads; one
// formatter for people; stored as JSON on the call and its approval, so a card restored after a
// restart still says who asked.
import { z } from 'zod';

export type CallOrigin =
  /** Threshold's agent loop, in the session's chat. */
  | { kind: 'agent' }
  /** The control API: `threshold ctl request`, or any client of the control socket. */
  | { kind: 'control' }
  /** Another tool that routes its calls through the gate; `name` and `workspace` are what it says of itself. */
  | { kind: 'external'; name: string; workspace: string | null };

export const callOriginSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('agent') }),
  z.object({ kind: z.literal('control') }),
  z.object({ kind: z.literal('external'), name: z.string().min(1).max(200), workspace: z.string().max(4096).nullable() }),
]);

/** What a row holds when nothing was stored (rows from before origins were recorded). */
export const UNKNOWN_ORIGIN_WORDS = 'an earlier version of Threshold (origin not recorded)';

/**
 * Reads a stored origin; anything unreadable is null (shown as "not recorded"), never guessed. The
 * text is ours, but an external origin's name and workspace are what another tool said: show them
 * through the escaping rule.
 */
export function parseOrigin(stored: string | null | undefined): CallOrigin | null {
  if (!stored) return null;
  try {
    const r = callOriginSchema.safeParse(JSON.parse(stored));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** Who asked, for people: "the agent", "threshold ctl (the control socket)", "Claude Code in ~/project". */
export function originWords(o: CallOrigin | null | undefined): string {
  if (!o) return UNKNOWN_ORIGIN_WORDS;
  switch (o.kind) {
    case 'agent':
      return 'the agent';
    case 'control':
      return 'threshold ctl (the control socket)';
    case 'external':
      return o.workspace ? `${o.name} in ${o.workspace}` : o.name;
  }
}
