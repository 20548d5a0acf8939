// The History screen's pure parts: which rows a scroll position shows (our own windowing: only the
// rows in view are in the DOM, so 100,000 calls scroll like 100), which pages those rows live in, and
// the words for a call's decider, outcome and duration.
import type { CallState } from '../../../common/call-state';
import { deciderDetail, displayDecidedBy } from '../../../common/decided-by';
import { DECIDER_GROUPS, type CallRecord, type DeciderGroup } from '../../../common/history';

/** The rows [first, last] to render for a scroll position, with `overscan` rows either side. */
export function visibleRange(scrollTop: number, viewport: number, rowHeight: number, total: number, overscan = 8): { first: number; last: number } {
  if (total <= 0) return { first: 0, last: -1 };
  const top = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const bottom = Math.min(total - 1, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  return { first: Math.min(top, total - 1), last: Math.max(bottom, Math.min(top, total - 1)) };
}

/**
 * The rows to render, moved a block at a time: the rows in view widened to whole blocks of `block` rows,
 * plus one more block either side. Scrolling inside a block gives the same window, so most scroll
 * frames leave the DOM as it is, and the block either side is there before it scrolls into view.
 */
export function blockWindow(scrollTop: number, viewport: number, rowHeight: number, total: number, block: number): { first: number; last: number } {
  const { first, last } = visibleRange(scrollTop, viewport, rowHeight, total, 0);
  if (last < first) return { first, last };
  return { first: Math.max(0, (Math.floor(first / block) - 1) * block), last: Math.min(total - 1, (Math.floor(last / block) + 2) * block - 1) };
}

/** The pages (of `pageSize` rows) that hold rows first..last. */
export function pagesFor(first: number, last: number, pageSize: number): number[] {
  if (last < first) return [];
  const pages: number[] = [];
  for (let p = Math.floor(first / pageSize); p <= Math.floor(last / pageSize); p++) pages.push(p);
  return pages;
}

/** Pages to forget when too many are loaded: the farthest from the one in view first. */
export function pagesToEvict(loaded: readonly number[], current: number, keep: number): number[] {
  if (loaded.length <= keep) return [];
  return [...loaded].sort((a, b) => Math.abs(b - current) - Math.abs(a - current) || b - a).slice(0, loaded.length - keep);
}

const GROUP_LABEL: Record<DeciderGroup, string> = Object.fromEntries(DECIDER_GROUPS.map((g) => [g.key, g.label])) as Record<DeciderGroup, string>;

/** "A person (web)", "A grant (gr_1)", "The level (supervised)": the group, then what tells it apart. */
export function decidedByText(r: Pick<CallRecord, 'decided_by' | 'by' | 'decider'>): string {
  if (!r.decided_by) return 'Not decided yet';
  // The session's "Approve all", as the confirmation that turned it on says History records it.
  if (r.by?.kind === 'session_approve_all') return 'Approve all (this session)';
  // A row stored before deciders were data reads as its stored words.
  if (!r.by || !r.decider) return r.decided_by;
  // A remote person reads as `person via telegram:42` (formatted once, in common/decided-by.ts).
  if (r.by.kind === 'remote') return displayDecidedBy(r.by);
  const detail = deciderDetail(r.by) || r.decided_by;
  return `${GROUP_LABEL[r.decider]} (${detail})`;
}

const STATE_WORDS: Record<CallState, string> = {
  received: 'Received',
  validating: 'Checking',
  classifying: 'Judging',
  reviewing: 'With the reviewer',
  awaiting_approval: 'Waiting for you',
  scheduled: 'Allowed',
  executing: 'Running',
  denied: 'Refused',
  refused: 'Refused',
  cancelled: 'Stopped',
  not_run: 'Not run',
  handed_off: 'Handed off',
  succeeded: 'Succeeded',
  failed: 'Failed',
  timed_out: 'Timed out',
  interrupted: 'Interrupted',
};

export function outcomeText(r: Pick<CallRecord, 'state' | 'execution'>): string {
  const words = STATE_WORDS[r.state];
  const code = r.execution?.exit_code;
  return r.state === 'failed' && code !== null && code !== undefined ? `${words} (exit ${code})` : words;
}

/** "12 ms", "3.4 s", "2 min 05 s"; "–" when the call did not run. */
export function durationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** One JSON object a line, as `ctl calls --jsonl` writes. */
export function toJsonl(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
}

// Intl formatters are costly to build; a row's time is formatted with these two, made once.
let timeFormat: Intl.DateTimeFormat | null = null;
let dateFormat: Intl.DateTimeFormat | null = null;

/** A row's time: "14:05" today, "Jan 1, 2026 14:05" before. */
export function rowTime(ms: number, now: number): string {
  timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
  dateFormat ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  const d = new Date(ms);
  const time = timeFormat.format(d);
  return new Date(now).toDateString() === d.toDateString() ? time : `${dateFormat.format(d)} ${time}`;
}
