// Words for people: one-line summaries of calls, classes, floors, outcomes, scopes and provenance.
// One place, so a card, the chat and Settings say the same thing the same way.
import type { CallPart, DecisionRecord, GrantRecord, HumanOutcome, Outcome, PendingApproval } from '../../../common/approvals';
import { classRank, type Class, type GrantPattern } from '../../../common/domain';
import { deciderDetail } from '../../../common/decided-by';
import { patternText as commonPatternText } from '../../../common/grant-pattern';
import { originWords, type CallOrigin } from '../../../common/origin';
import { visibleText } from '../../../common/visible-text';

export const OUTCOME_BUTTONS: Record<HumanOutcome, string> = {
  approve_once: 'Approve once',
  approve_session: 'Approve for session',
  approve_always: 'Always allow…',
  skip: 'Skip',
  deny: 'Deny',
  approve_all_session: 'Approve all for this session',
};

/** The order buttons appear in, whatever order the approval lists them. */
export const BUTTON_ORDER: HumanOutcome[] = ['approve_once', 'approve_session', 'approve_always', 'skip', 'deny', 'approve_all_session'];

export const OUTCOME_WORDS: Record<Outcome, string> = {
  approve_once: 'approved once',
  approve_session: 'approved for this session',
  approve_always: 'approved, and a grant was made',
  approve_all_session: 'approved, with everything else in this session',
  skip: 'skipped',
  deny: 'denied',
  expired: 'expired (no decision in time)',
  cancelled: 'cancelled (the turn stopped)',
  no_approver: 'denied (no one could approve)',
};

export const CLASS_WORDS: Record<Class, string> = {
  read: 'Read: only looks at things',
  write: 'Write: changes files',
  network: 'Network: reaches the network',
  install: 'Install: installs software',
  destructive: 'Destructive: may destroy data',
};

export const CLASS_LABEL: Record<Class, string> = { read: 'Read', write: 'Write', network: 'Network', install: 'Install', destructive: 'Destructive' };

/** Why a floor offers no "Always allow". */
export const FLOOR_WORDS: Record<string, string> = {
  hardline: 'This command is on the hardline list: it never runs.',
  destructive: 'Destructive commands need your decision every time, so no grant can be made for them.',
  secret_read: 'Reading credentials needs your decision every time, so no grant can be made for it.',
  capability_change: 'Changing what the agent can do needs your decision every time, so no grant can be made for it.',
  human_input: 'Acting as you needs your decision every time, so no grant can be made for it.',
};

export function floorWords(floor: string): string {
  return FLOOR_WORDS[floor] ?? `A safety floor (${floor}) applies: it needs your decision every time, so no grant can be made for it.`;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** Untrusted text on one line: hidden characters and newlines as escapes. */
export function oneLine(s: string): string {
  return visibleText(s, { oneLine: true });
}

/** The start and the end of raw text longer than `max` characters, and how many are left out between; null when it fits. */
export function middleClip(s: string, max: number): { head: string; left: number; tail: string } | null {
  const chars = Array.from(s);
  if (chars.length <= max) return null;
  const head = Math.ceil(max * 0.55);
  const tail = max - head;
  return { head: chars.slice(0, head).join(''), left: chars.length - head - tail, tail: chars.slice(chars.length - tail).join('') };
}

/**
 * Untrusted text on one line, at most about `max` characters: when longer, its start and its end with
 * the count of what is left out between them, so neither the program nor the last word is ever cut off.
 */
export function clipMiddle(s: string, max = 120): string {
  const line = oneLine(s);
  const c = middleClip(line, max);
  return c ? `${c.head} … (${c.left.toLocaleString('en-US')} more characters) … ${c.tail}` : line;
}

/** A label that only names something (a session's title): one line, cut at its end with "…". */
export function clipEnd(s: string, max: number): string {
  const chars = Array.from(oneLine(s));
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

function firstLine(s: string, max = 120): string {
  const line = s.split('\n')[0]!;
  const more = s.includes('\n');
  return clipMiddle(line, max) + (more ? ' …' : '');
}

/** The one-line summary of a call, from its (redacted) arguments. */
export function summarizeCall(tool: string, args: unknown): string {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  switch (tool) {
    case 'run_command':
      return str(a['command']) !== null ? `Run ${firstLine(str(a['command'])!)}` : 'Run a command';
    case 'read_file':
      return `Read ${firstLine(str(a['path']) ?? '?')}`;
    case 'list_dir':
      return `List ${firstLine(str(a['path']) ?? '.')}`;
    case 'search_files':
      return `Search for ${firstLine(str(a['pattern']) ?? '?')} in ${firstLine(str(a['path']) ?? 'the workspace')}`;
    case 'write_file':
      return `Write ${firstLine(str(a['path']) ?? '?')}`;
    case 'edit_file':
      return `Edit ${firstLine(str(a['path']) ?? '?')}`;
    case 'open_path':
      return `Open ${firstLine(str(a['path']) ?? '?')} on the desktop`;
    case 'web_fetch':
      return `Fetch ${firstLine(str(a['url']) ?? '?')}`;
    case 'ask_user':
      return `Ask: ${firstLine(str(a['question']) ?? '?')}`;
    case 'notify_user':
      return `Notify: ${firstLine(str(a['message']) ?? '?')}`;
    default: {
      const json = JSON.stringify(args ?? {});
      return `Call ${oneLine(tool)} ${firstLine(json ?? '', 80)}`;
    }
  }
}

/** The tool name as people read it: mcp.server.tool and model names (mcp__server__tool) alike. */
export function toolLabel(name: string): string {
  if (name.startsWith('mcp__')) {
    const rest = name.slice(5);
    const at = rest.indexOf('__');
    return at === -1 ? name : `mcp.${rest.slice(0, at)}.${rest.slice(at + 2)}`;
  }
  return name;
}

/** A grant's pattern in a few words (common/grant-pattern.ts: the same text every surface prints), on one line with hidden characters as escapes (it may hold what the model wrote). */
export function patternText(p: GrantPattern): string {
  return oneLine(commonPatternText(p));
}

export function formatTime(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const sameDay = new Date(now).toDateString() === d.toDateString();
  const time = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return sameDay ? time : `${d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })} ${time}`;
}

/** "in 4 min 05 s", "in 12 s", for the time left on a card. */
export function formatRemaining(ms: number): string {
  if (ms <= 0) return 'expiring now';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s} s left`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s left`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min left`;
}

export function grantScopeText(g: Pick<GrantRecord, 'scope' | 'session_id' | 'expires_at'>): string {
  switch (g.scope) {
    case 'session':
      return g.session_id ? `Session ${g.session_id}` : 'This session';
    case 'until':
      return 'Time-limited';
    case 'always':
      return 'Until revoked';
  }
}

export function grantExpiryText(g: Pick<GrantRecord, 'scope' | 'expires_at'>, now = Date.now()): string {
  if (g.scope === 'session') return 'When the session ends';
  if (g.expires_at === null) return 'Never';
  return `${g.expires_at <= now ? 'Expired' : 'Expires'} ${formatTime(g.expires_at, now)}`;
}

export function grantProvenanceText(g: Pick<GrantRecord, 'source' | 'source_session_id' | 'source_call_id' | 'created_at'>, now = Date.now()): string {
  const when = formatTime(g.created_at, now);
  switch (g.source) {
    case 'approval':
      return `Approval in session ${g.source_session_id ?? '?'}, call ${g.source_call_id ?? '?'}, ${when}`;
    case 'config':
      return `Config file, loaded ${when}`;
    case 'user':
      return `Made with ctl or Settings, ${when}`;
    case 'import':
      return `Imported with threshold import, ${when}`;
  }
}

export type GrantState = 'active' | 'expired' | 'revoked';

export function grantState(g: Pick<GrantRecord, 'revoked_at' | 'scope' | 'expires_at'>, now = Date.now()): GrantState {
  if (g.revoked_at !== null) return 'revoked';
  if (g.scope === 'until' && g.expires_at !== null && g.expires_at <= now) return 'expired';
  return 'active';
}

/** Who decided, for people, read from the decider as data; a decision stored before that reads as its stored words. */
export function decidedByWords(d: Pick<DecisionRecord, 'by' | 'decided_by'>): string {
  const by = d.by;
  switch (by?.kind) {
    case 'human':
      return by.surface === 'desktop' ? 'you, in the app' : by.surface === 'web' ? 'you, in the browser' : by.surface === 'control' ? 'you, with threshold ctl' : d.decided_by;
    case 'timeout':
      return 'the time limit';
    case 'turn_stopped':
      return 'stopping the turn';
    case 'session_approve_all':
      return '"Approve all for this session"';
    case 'remote':
      return `you, via ${deciderDetail(by)}`;
    case 'reviewer':
      // Told apart from you and from a grant: "reviewer approval (model m) and second (model n)".
      return by.reviewers.length ? `reviewer ${by.reviewers.map((r) => `${r.name} (model ${r.model})`).join(' and ')}` : 'the reviewer';
    default:
      return d.decided_by;
  }
}

/** The parts of a command a card shows in its first screen: every part above read, and the one that decided. */
export function partsThatMatter(p: Pick<PendingApproval, 'parts' | 'segment'>): { part: CallPart; deciding: boolean }[] {
  const parts = p.parts ?? [];
  const at = decidingPartIndex(p);
  return parts.flatMap((part, i) => (i === at || classRank(part.class) > classRank('read') ? [{ part, deciding: i === at }] : []));
}

/** Which part the gate named as deciding: by index when the texts agree, else by text. */
export function decidingPartIndex(p: Pick<PendingApproval, 'parts' | 'segment'>): number | null {
  const parts = p.parts ?? [];
  if (!p.segment || !parts.length) return null;
  if (parts[p.segment.index]?.text === p.segment.text) return p.segment.index;
  const i = parts.findIndex((x) => x.text === p.segment!.text);
  return i === -1 ? null : i;
}

function sizeWords(command: string): string {
  const chars = Array.from(command).length;
  const lines = command.split('\n').length;
  return `${chars.toLocaleString('en-US')}-character${lines > 1 ? `, ${lines}-line` : ''} command`;
}

/** What the card's title line fits in one line; longer commands show the part that decides instead. */
export const TITLE_MAX = 120;

/**
 * The card's title line. A command that fits is shown whole; a longer one shows the part that decided
 * (clipped in the middle, never at its end) and says how big the whole is, so the title never cuts off
 * what made the card ask.
 */
export function cardTitle(p: Pick<PendingApproval, 'tool' | 'args' | 'parts' | 'segment'>): string {
  const command = p.tool === 'run_command' ? str((p.args as Record<string, unknown> | null)?.['command']) : null;
  if (command === null) return summarizeCall(p.tool, p.args);
  const whole = oneLine(command);
  if (Array.from(whole).length <= TITLE_MAX) return `Run ${whole}`;
  const at = decidingPartIndex(p);
  const deciding = at === null ? null : p.parts![at]!;
  if (deciding) return `Run ${clipMiddle(deciding.text, 90)} (the part that decides, in a ${sizeWords(command)})`;
  return `Run ${clipMiddle(command, 90)} (a ${sizeWords(command)})`;
}

/** Who asked, on the card: "Asked by the agent", "Asked through threshold ctl (the control socket)". */
export function originLine(o: CallOrigin | null | undefined): string {
  if (!o) return `Asked by ${originWords(o)}`;
  return o.kind === 'control' ? `Asked through ${originWords(o)}` : `Asked by ${oneLine(originWords(o))}`;
}

/**
 * What an orphan card (its asker was cut off when Threshold stopped) says approving it does. Only
 * Threshold's own agent takes it up again, when the model makes the same call in a later turn; a ctl
 * request and another agent's hook already had their answer (an error; the agent's own prompt), so for
 * them approving runs nothing.
 */
export function orphanNote(o: CallOrigin | null | undefined): string {
  const start = 'This approval is from an earlier run of Threshold.';
  if (o?.kind === 'control') return `${start} The threshold ctl request that asked for it ended when Threshold stopped, so approving it here runs nothing.`;
  if (o?.kind === 'external') return `${start} ${oneLine(o.name)} was answered when Threshold stopped (its own prompt decided), so approving it here runs nothing.`;
  return `${start} Approving it lets the agent carry the call out when the session continues.`;
}

/** How a person's own decision reads in the chat: "You approved once". */
export const YOU_DECIDED: Record<HumanOutcome, string> = {
  approve_once: 'You approved once',
  approve_session: 'You approved for this session',
  approve_always: 'You approved and made a grant',
  approve_all_session: 'You approved everything in this session',
  skip: 'You skipped',
  deny: 'You denied',
};

/** Where a decision came from when this page did not make it: "decided in another window". */
export function decidedElsewhereWords(d: Pick<DecisionRecord, 'outcome' | 'decided_by' | 'by'>): string {
  const by = d.by;
  if (by?.kind === 'timeout' || d.outcome === 'expired') return 'Expired: nobody decided in time, so it did not run';
  if (by?.kind === 'turn_stopped' || d.outcome === 'cancelled') return 'Cancelled: the turn stopped, so it did not run';
  const outcome = OUTCOME_WORDS[d.outcome];
  if (by?.kind === 'human' && (by.surface === 'web' || by.surface === 'desktop')) return `Decided in another window: ${outcome}`;
  if (by?.kind === 'human' && by.surface === 'control') return `Decided with threshold ctl: ${outcome}`;
  return `Decided by ${decidedByWords(d)}: ${outcome}`;
}

/** The line a decision leaves in its chat. */
export function decisionLine(d: Pick<DecisionRecord, 'tool' | 'args' | 'outcome' | 'decided_by' | 'by'>, here: boolean): string {
  const what = `${oneLine(d.tool)}: ${summarizeCall(d.tool, d.args)}`;
  const head = here && (d.outcome as string) in YOU_DECIDED ? YOU_DECIDED[d.outcome as HumanOutcome] : decidedElsewhereWords(d);
  return `${head}: ${what}`;
}
