// Which asks a reviewer may answer, as data: the floors it never answers for, the never_auto_approve
// entries (a tool, a toolset, an effect), and the one test the gate applies to an evaluation. Pure.
import { EFFECTS, type Effect } from '../../common/domain';
import type { Evaluation } from './evaluate';

/** Effects on the always-ask floor: a human decides each one (DESIGN.md, Floors). */
export const REVIEW_FLOOR_EFFECTS: readonly Effect[] = ['destructive', 'secret_read', 'capability_change', 'human_input'];
/** Tools that always go to the user (questions) or never ask (notifications). */
export const REVIEW_FLOOR_TOOLS: readonly string[] = ['ask_user', 'notify_user'];

export function isReviewFloorEffect(e: Effect): boolean {
  return REVIEW_FLOOR_EFFECTS.includes(e);
}

export function isReviewFloorTool(tool: string): boolean {
  return REVIEW_FLOOR_TOOLS.includes(tool);
}

/** What a never_auto_approve entry may be: a built-in tool, an MCP tool or toolset, or an effect. */
export function neverAutoApproveEntryProblem(entry: string, builtinTools: readonly string[]): string | null {
  if ((EFFECTS as readonly string[]).includes(entry) || builtinTools.includes(entry)) return null;
  if (entry === 'mcp' || entry === 'mcp.*') return null;
  if (/^mcp\.[a-z0-9][a-z0-9-]{0,30}\.(\*|[^.\s]+)$/.test(entry)) return null;
  return `"${entry}" is not a tool, an MCP toolset (mcp.*, mcp.<server>.*, mcp.<server>.<tool>) or an effect`;
}

/** Whether an entry covers a tool (by name, so a toolset holds before its servers load) or any of its effects. */
export function neverAutoApproveCovers(entry: string, tool: string | null, effects: readonly Effect[]): boolean {
  if ((EFFECTS as readonly string[]).includes(entry)) return effects.includes(entry as Effect);
  if (tool === null) return false;
  if (entry === 'mcp' || entry === 'mcp.*') return tool.startsWith('mcp.');
  if (entry.endsWith('.*')) return tool.startsWith(entry.slice(0, -1));
  return tool === entry;
}

/**
 * The gate's question: does this ask go to the reviewer? Only an ask the policy marked reviewable (no
 * floor, no safety ask), decided by one of the user's `review` rules, and covered by no never_auto_approve
 * entry (checked again here, whatever start-up checked: the list may be tightened by another layer).
 */
export function reviewRequested(e: Evaluation, neverAutoApprove: readonly string[]): boolean {
  if (e.decision !== 'ask' || !e.reviewable || e.floor) return false;
  if (e.decider.kind !== 'rule' || e.decider.on === 'effects_auto' || e.decider.value !== 'review') return false;
  if (e.effects.some(isReviewFloorEffect) || isReviewFloorTool(e.tool)) return false;
  return !neverAutoApprove.some((n) => neverAutoApproveCovers(n, e.tool, e.effects));
}
