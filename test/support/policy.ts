// Shared fixtures for policy tests: a fixed machine layout so no test depends on the host.
import type { Grant, Level } from '../../common/domain';
import type { PolicyContext, PolicyRules } from '../../main/policy/evaluate';
import type { PathContext } from '../../main/policy/paths';

export const TEST_PATHS: PathContext = {
  home: '/home/user',
  workspace: '/home/user/project',
  appDirs: ['/home/user/.config/threshold', '/home/user/.local/share/threshold'],
};

export function policyContext(overrides: Omit<Partial<PolicyContext>, 'rules'> & { level?: Level; rules?: Partial<PolicyRules> } = {}): PolicyContext {
  return {
    level: overrides.level ?? 'supervised',
    rules: { effects: {}, tools: {}, ...overrides.rules },
    grants: overrides.grants ?? [],
    paths: overrides.paths ?? TEST_PATHS,
    now: overrides.now ?? 1_000_000,
    sessionId: overrides.sessionId ?? 's1',
    mcpTools: overrides.mcpTools,
    hostAllowed: overrides.hostAllowed,
    runsOutsideJail: overrides.runsOutsideJail,
  };
}

let counter = 0;
export function grant(tool: string, pattern: Grant['pattern'], extra: Partial<Grant> = {}): Grant {
  counter++;
  return { id: extra.id ?? `g${counter}`, tool, pattern, scope: 'always', provenance: { source: 'user' }, createdAt: 0, ...extra };
}
