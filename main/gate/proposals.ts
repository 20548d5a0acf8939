// What an approval card offers: the outcomes a person may choose and the narrowest grant that would
// cover the call (editable before "always allow").
import { GRANT_DURATIONS, type GrantDuration, type HumanOutcome, type ProposedGrant } from '../../common/approvals';
import type { Grant, GrantPattern } from '../../common/domain';
import type { Evaluation } from '../policy/evaluate';
import { judgeGrantWidth, proposeGrantPattern } from '../policy/grant-width';
import type { PathContext } from '../policy/paths';
import type { CallFacts } from '../policy/tools';

export function availableOutcomes(e: Evaluation, proposal: ProposedGrant | null): HumanOutcome[] {
  // A floor needs a decision for each call: nothing that would approve later calls is offered.
  if (e.floor) return ['approve_once', 'skip', 'deny'];
  const out: HumanOutcome[] = ['approve_once', 'approve_session'];
  if (proposal) out.push('approve_always');
  if (e.decider.kind !== 'safety') out.push('approve_all_session');
  out.push('skip', 'deny');
  return out;
}

/** The one grant approve_always makes: exactly this call (main/policy/grant-width.ts), editable on the card. */
export function proposeGrant(f: CallFacts, e: Evaluation, ctx: PathContext): ProposedGrant | null {
  if (e.floor || e.decider.kind === 'safety') return null;
  const pattern = proposeGrantPattern(f, ctx);
  return pattern ? { tool: f.tool, patterns: [pattern] } : null;
}

export function grantScope(duration: GrantDuration, now: number, sessionId: string): Pick<Grant, 'scope' | 'expiresAt' | 'sessionId'> {
  switch (duration) {
    case '15m':
      return { scope: 'until', expiresAt: now + 15 * 60_000, sessionId: null };
    case '1h':
      return { scope: 'until', expiresAt: now + 60 * 60_000, sessionId: null };
    case 'session':
      return { scope: 'session', expiresAt: null, sessionId };
    case 'always':
      return { scope: 'always', expiresAt: null, sessionId: null };
  }
}

/**
 * Why a grant (for a tool, with a duration) cannot be made, or null when it can: its duration, then the
 * width judge (shape, whether it ever lets anything run, whether it covers more than it shows).
 */
export function grantPatternProblem(tool: string, pattern: GrantPattern | undefined, duration: string | undefined, ctx: PathContext): string | null {
  if (duration !== undefined && !(GRANT_DURATIONS as readonly string[]).includes(duration)) return `"${duration}" is not a grant duration (${GRANT_DURATIONS.join(', ')}).`;
  if (!pattern || typeof pattern !== 'object') return 'A grant needs a pattern.';
  const j = judgeGrantWidth(tool, pattern, ctx);
  return j.ok ? null : j.reason;
}
