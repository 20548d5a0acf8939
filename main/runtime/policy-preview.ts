// Policy preview: the last calls of the history replayed under the policy in force and under a proposed
// change, through the gate's own evaluator, so the page can say which calls would now run unasked, be
// asked, or be refused. Both sides are judged now, with today's grants and files, so the difference is
// the change alone. Calls are replayed from their stored (redacted) arguments.
import type { z } from 'zod';
import type { Decision } from '../../common/domain';
import type { policyPreviewSchema } from '../../common/operations';
import { applyChange, fileLayerOfConfig, mergeLayers, type AccessChange } from '../config/layers';
import type { ThresholdCore } from './core';
import { observeCall } from '../gate/observe';
import { evaluate, type Evaluation, type PolicyContext } from '../policy/evaluate';
import { toPolicyGrant } from '../store/grants-repo';
import { subjectOf } from '../policy/tools';

export type PolicyPreview = z.output<typeof policyPreviewSchema>;

const CHANGE: Record<Decision, 'now_allowed' | 'now_asked' | 'now_denied'> = { allow: 'now_allowed', ask: 'now_asked', deny: 'now_denied' };

export async function previewPolicy(core: ThresholdCore, change: AccessChange, limit: number, now = Date.now()): Promise<PolicyPreview> {
  const current = core.access();
  const proposedLayer = applyChange(core.uiLayer(), change);
  const proposed = mergeLayers(fileLayerOfConfig(core.config), proposedLayer, core.config.managed ?? null);
  const problem = await core.layerProblem(proposedLayer);
  const grants = [...core.config.grants, ...core.store.grants.list({ active: true, now }).map(toPolicyGrant)];
  const context = (a: typeof current, sessionId: string): PolicyContext => ({ level: a.level, rules: a.rules, grants, paths: core.paths, now, sessionId });
  const brief = (e: Evaluation) => ({ decision: e.decision, decided_by: e.decidedBy, by: e.decider, explanation: e.explanation });

  const calls = core.store.calls.listRecent(limit).map((row) => {
    const args = parseArgs(row.args_redacted);
    const cwd = storedCwd(row.cwd, core.paths.home) ?? core.paths.workspace;
    const input = { tool: row.tool, args, cwd, observed: observeCall(row.tool, args, cwd, core.paths) };
    const before = evaluate(input, context(current, row.session_id));
    const after = evaluate(input, context(proposed, row.session_id));
    return {
      call_id: row.id,
      session_id: row.session_id,
      tool: row.tool,
      text: callText(row.tool, args),
      created_at: row.created_at,
      current: brief(before),
      proposed: brief(after),
      change: before.decision === after.decision ? null : CHANGE[after.decision],
    };
  });
  const count = (d: Decision) => calls.filter((c) => c.proposed.decision === d).length;
  return {
    replayed: calls.length,
    counts: { allow: count('allow'), ask: count('ask'), deny: count('deny'), changed: calls.filter((c) => c.change !== null).length },
    calls,
    problem: problem?.message ?? null,
  };
}

/** The stored working folder has the home folder written as ~ (redaction): read it back. */
function storedCwd(cwd: string | null, home: string): string | null {
  if (cwd === null) return null;
  return cwd === '~' || cwd.startsWith('~/') ? home + cwd.slice(1) : cwd;
}

function parseArgs(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return {};
  }
}

/** What a person recognises the call by: its command, path or URL. */
function callText(tool: string, args: unknown): string {
  return subjectOf(tool, args) ?? JSON.stringify(args).slice(0, 200);
}
