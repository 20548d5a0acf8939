// What an approval card offers: the outcomes a person may choose and the narrowest grant that would
// cover the call (editable before "always allow").
import { GRANT_DURATIONS, type GrantDuration, type HumanOutcome, type ProposedGrant } from '../../common/approvals';
import type { Grant, GrantPattern } from '../../common/domain';
import type { Evaluation } from '../policy/evaluate';
import { parseExternalTool } from '../policy/external-tools';
import { segmentUncoverable } from '../policy/grants';
import { isInside, type PathContext } from '../policy/paths';
import { BUILTIN_TOOL_NAMES, type CallFacts } from '../policy/tools';

export function availableOutcomes(e: Evaluation, proposal: ProposedGrant | null): HumanOutcome[] {
  // A floor needs a decision for each call: nothing that would approve later calls is offered.
  if (e.floor) return ['approve_once', 'skip', 'deny'];
  const out: HumanOutcome[] = ['approve_once', 'approve_session'];
  if (proposal) out.push('approve_always');
  if (e.decider.kind !== 'safety') out.push('approve_all_session');
  out.push('skip', 'deny');
  return out;
}

export function proposeGrant(f: CallFacts, e: Evaluation, ctx: PathContext): ProposedGrant | null {
  if (e.floor || e.decider.kind === 'safety') return null;
  const patterns: GrantPattern[] = [];
  if (f.tool === 'run_command') {
    for (const s of f.segments) {
      if (segmentUncoverable(s) !== null) return null;
      const redirects = s.redirects.filter((r) => r.op !== '<<' && r.op !== '<<<').map((r) => r.target);
      const p: GrantPattern = redirects.length ? { kind: 'argv', argv: s.argv, redirects } : { kind: 'argv', argv: s.argv };
      if (!patterns.some((q) => JSON.stringify(q) === JSON.stringify(p))) patterns.push(p);
    }
  } else if (f.url !== undefined) patterns.push({ kind: 'url', prefix: f.url });
  else if (f.tool.startsWith('mcp.') || f.tool.startsWith('external.')) patterns.push({ kind: 'tool' });
  else if (f.paths.length) {
    for (const p of f.paths) patterns.push({ kind: 'path', glob: isInside(p.path, ctx.workspace) && p.path !== ctx.workspace ? p.path.slice(ctx.workspace.length + 1) : p.path });
  }
  return patterns.length ? { tool: f.tool, patterns } : null;
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

/** Why a grant pattern (for a tool, with a duration) cannot be used, or null when it can. */
export function grantPatternProblem(tool: string, pattern: GrantPattern | undefined, duration: string | undefined): string | null {
  if (!tool.startsWith('mcp.') && !parseExternalTool(tool) && !(BUILTIN_TOOL_NAMES as string[]).includes(tool)) return `There is no tool named "${tool}".`;
  if (tool === 'ask_user' || tool === 'notify_user') return `A grant would do nothing for ${tool}.`;
  if (duration !== undefined && !(GRANT_DURATIONS as readonly string[]).includes(duration)) return `"${duration}" is not a grant duration (${GRANT_DURATIONS.join(', ')}).`;
  if (!pattern || typeof pattern !== 'object') return 'A grant needs a pattern.';
  switch (pattern.kind) {
    case 'argv':
      if (tool !== 'run_command') return 'argv patterns are for run_command.';
      if (!Array.isArray(pattern.argv) || pattern.argv.length === 0 || pattern.argv.some((t) => typeof t !== 'string' || t === '')) return 'An argv pattern needs at least one non-empty token.';
      return null;
    case 'path':
      if (tool === 'run_command' || tool === 'web_fetch') return `path patterns are not for ${tool}.`;
      if (typeof pattern.glob !== 'string' || !pattern.glob.trim()) return 'A path pattern needs a glob.';
      if (['**', '/**', '/', '~/**', '~'].includes(pattern.glob)) return `"${pattern.glob}" would cover every file; choose a narrower glob.`;
      return null;
    case 'url':
      if (tool !== 'web_fetch') return 'url patterns are for web_fetch.';
      if (typeof pattern.prefix !== 'string' || !/^https?:\/\/[^/]+\//.test(pattern.prefix)) return 'A URL prefix must include the scheme, the host and the slash after it (https://example.com/).';
      return null;
    case 'tool':
      if (tool === 'run_command') return 'A grant for every command would allow anything; use an argv pattern.';
      return null;
    default:
      return 'The pattern kind must be argv, path, url or tool.';
  }
}

