// Grant suggestions, mined from the history: a call a person approved one at a time again and again in
// this workspace ("you approved `npm test` 12 times — always allow it?"), with the grant its card
// offered. Never for a floor or a destructive call (the store leaves those out, and the call is judged
// again here with today's classifier), never for a call a grant already covers, and never for a call
// from another workspace. The grant offered is the one a card for that call offers today: exactly this
// call, one grant. Accepting one makes the grant through the normal paths (grant.create, or
// approve_always on a card), so a suggestion itself changes nothing.
import type { z } from 'zod';
import type { Effect } from '../../common/domain';
import type { grantSuggestionSchema } from '../../common/operations';
import type { SurfaceKind } from '../gate/approvers';
import type { ThresholdCore } from './core';
import { judgeGrantWidth, proposeGrantPattern } from '../policy/grant-width';
import { coverCall, segmentUncoverable } from '../policy/grants';
import { isInside } from '../policy/paths';
import { describeCall, isMcpTool, subjectOf } from '../policy/tools';
import { toPolicyGrant } from '../store/grants-repo';

export type GrantSuggestion = z.output<typeof grantSuggestionSchema>;

/** A card suggests a grant once the same call has been approved this many times before. */
export const SUGGEST_AFTER = 3;
/** The surfaces whose decisions are a person's at the desk (deciders of kind human). */
const PERSON_SURFACES: readonly SurfaceKind[] = ['desktop', 'web', 'control'];
/** Floor effects: they always ask a person, whatever a grant says, so a suggestion would be a lie. */
const FLOOR_EFFECTS: readonly Effect[] = ['secret_read', 'capability_change', 'human_input'];
/** Repeats read from the store before filtering (most approved first). */
const SCAN = 200;

export function grantSuggestions(core: ThresholdCore, opts: { now: number; limit?: number; hash?: string }): GrantSuggestion[] {
  const ctx = core.paths;
  const grants = [...core.config.grants, ...core.store.grants.list({ active: true, now: opts.now }).map(toPolicyGrant).filter((g) => judgeGrantWidth(g.tool, g.pattern, ctx).ok)];
  const out: GrantSuggestion[] = [];
  for (const r of core.store.repeats.repeatedApprovals({ minCount: SUGGEST_AFTER, surfaces: PERSON_SURFACES, hash: opts.hash, limit: SCAN })) {
    if (out.length >= (opts.limit ?? 10)) break;
    // Stored paths are redacted with the home folder written as ~.
    const cwd = r.cwd === null ? ctx.workspace : r.cwd === '~' || r.cwd.startsWith('~/') ? ctx.home + r.cwd.slice(1) : r.cwd;
    if (!isInside(cwd, ctx.workspace)) continue;
    const text = callText(r.tool, r.args);
    if (text === null || !r.proposed.patterns.length) continue;
    const described = describeCall(r.tool, r.args, { ctx, cwd });
    if (!described.ok) continue;
    const facts = described.facts;
    if (facts.class === 'destructive' || facts.hardline || facts.effects.some((e) => FLOOR_EFFECTS.includes(e)) || facts.segments.some((s) => segmentUncoverable(s) !== null)) continue;
    // Already covered: a grant made since (or a config grant) lets it run; nothing to suggest.
    if (coverCall(facts, grants, ctx, { now: opts.now, sessionId: null }).covered) continue;
    // The grant today's card would offer: exactly this call, one grant (older rows stored one per part).
    const pattern = proposeGrantPattern(facts, ctx);
    if (!pattern || !judgeGrantWidth(r.tool, pattern, ctx).ok) continue;
    out.push({ tool: r.tool, text, class: r.class, count: r.count, last_approved_at: r.lastAt, patterns: [pattern], hash: r.hash });
  }
  return out;
}

/** The call as a person reads it: its command, URL or path. */
export function callText(tool: string, args: unknown): string | null {
  return subjectOf(tool, args) || (isMcpTool(tool) ? tool : null);
}
