// What a chat message says for a card, as pure functions of redacted data. Every piece that came from the
// model, a file or a tool passes through the one escaping rule (common/visible-text.ts) on one line, and
// is redacted again here, so whatever [remote] content says, a secret never leaves (docs/remote.md).
import type { HumanOutcome, Outcome } from '../../common/approvals';
import { displayDecidedBy, type DecidedBy } from '../../common/decided-by';
import { visibleText } from '../../common/visible-text';
import type { RemoteContent } from '../config/remote-settings';

/** The longest one-line summary a message carries; the rest is at the desk. */
export const SUMMARY_MAX = 300;

export interface CardFacts {
  tool: string;
  class: string;
  /** The session's title, or its id. */
  session: string;
  /** The call in one line (command, path or URL), redacted. */
  summary: string;
  expiresAt: number | null;
}

export const BUTTON_LABELS: Record<(typeof BUTTON_ORDER)[number], string> = { approve_once: 'Approve once', skip: 'Skip', deny: 'Deny' };
export const BUTTON_ORDER = ['approve_once', 'skip', 'deny'] as const;

const FINAL_WORDS: Record<Outcome, string> = {
  approve_once: 'Approved once',
  approve_session: 'Approved for this session',
  approve_always: 'Approved, and a grant was made',
  approve_all_session: 'Approved, with the rest of this session',
  skip: 'Skipped: it did not run',
  deny: 'Denied: it did not run',
  expired: 'Expired: nobody decided in time, so it did not run',
  cancelled: 'Cancelled: the turn stopped',
  no_approver: 'Refused: no one could approve it',
};

/** One line, escaped, clipped with a visible mark. */
export function oneLine(text: string, max = SUMMARY_MAX): string {
  const shown = visibleText(text, { oneLine: true });
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

/** The call in one line from its (redacted) arguments: the command, path or URL, else the arguments as JSON. */
export function callSummary(tool: string, args: unknown): string {
  const a = (args ?? {}) as Record<string, unknown>;
  for (const key of tool === 'run_command' ? ['command'] : tool === 'web_fetch' ? ['url'] : ['path', 'url', 'command']) {
    if (typeof a[key] === 'string') return a[key] as string;
  }
  return JSON.stringify(args ?? {}).slice(0, SUMMARY_MAX * 2);
}

function detailLines(f: CardFacts): string[] {
  return [`Tool: ${oneLine(f.tool, 80)}`, `Class: ${f.class}`, `Session: ${oneLine(f.session, 80)}`, `Call: ${oneLine(f.summary)}`];
}

function expiryWords(expiresAt: number | null, now: number): string {
  if (expiresAt === null) return 'It waits until you decide.';
  const minutes = Math.max(0, Math.round((expiresAt - now) / 60_000));
  return `It is denied if nobody decides within ${minutes < 1 ? 'a minute' : `${minutes} min`}.`;
}

/** The message for a card that waits: with its facts (summary) or only that one waits (none). */
export function pendingText(f: CardFacts, content: RemoteContent, deskOnly: string | null, now: number): string {
  if (content === 'none') return ['Threshold: a card is waiting for you. Open Threshold to see it.', deskOnly ?? '', expiryWords(f.expiresAt, now)].filter(Boolean).join('\n');
  return ['Threshold asks before it acts:', ...detailLines(f), deskOnly ?? '', expiryWords(f.expiresAt, now)].filter(Boolean).join('\n');
}

/** The message once the card is decided anywhere (edited in place; no buttons left). */
export function finalText(f: CardFacts, content: RemoteContent, outcome: Outcome, decidedBy: DecidedBy | null): string {
  const head = `${FINAL_WORDS[outcome]}${decidedBy && outcome !== 'expired' ? ` (by ${oneLine(displayDecidedBy(decidedBy), 120)})` : ''}.`;
  if (content === 'none') return `Threshold: a card was decided. ${head}`;
  return [`Threshold: ${head}`, ...detailLines(f)].join('\n');
}

/** What the presser is told when their answer counted. */
export function acceptedText(outcome: HumanOutcome, awaitingFollowUp = false): string {
  if (awaitingFollowUp && outcome === 'approve_once') return 'Approved once: Threshold restarted since it asked, so the call runs when its session goes on.';
  return outcome === 'approve_once' ? 'Approved once: the call runs now.' : outcome === 'skip' ? 'Skipped: the call does not run; the agent goes on.' : 'Denied: the call does not run and the turn stops.';
}
