// The other agents whose hooks Threshold answers (`threshold hook <agent>`), by id and by name. Their
// calls carry the origin {kind: 'external', name, workspace} (common/origin.ts); their own tools are
// `external.<agent>.<tool>` (main/policy/external-tools.ts).
export const EXTERNAL_AGENTS = ['claude-code', 'codex', 'gemini'] as const;
export type ExternalAgent = (typeof EXTERNAL_AGENTS)[number];

export const EXTERNAL_AGENT_NAMES: Readonly<Record<ExternalAgent, string>> = { 'claude-code': 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI' };

export function isExternalAgent(s: string): s is ExternalAgent {
  return (EXTERNAL_AGENTS as readonly string[]).includes(s);
}
