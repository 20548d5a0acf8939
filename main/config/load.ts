// Loads and validates the TOML config. Invalid values, unknown keys and controls that would do
// nothing are startup errors that name the key and the file.
import { parse as parseToml } from 'smol-toml';
import type { Grant, Level } from '../../common/domain';
import { normaliseGrantPattern } from '../../common/grant-pattern';
import { initClassifier } from '../policy/classifier';
import { judgeGrantWidth } from '../policy/grant-width';
import type { PolicyRules } from '../policy/evaluate';
import { DEFAULT_ALLOW_HOSTS } from '../../common/hosts';
import type { PathContext } from '../policy/paths';
import { parseExternalTool } from '../policy/external-tools';
import { BUILTIN_TOOL_NAMES } from '../policy/tools';
import { DEFAULT_LIMITS, type Limits } from '../../executor/types';
import { AUTO_APPROVAL_OFF, resolveAutoApproval, type AutoApprovalConfig } from './auto-approval';
import { ConfigFileProblem, readConfigText } from './read-file';
import type { ManagedPolicy } from './managed';
import { configSchema, type GrantEntry, type ParsedConfig } from './schema';
import { REMOTE_OFF, remoteFromInput, type RemoteConfig } from './remote-settings';
import { ConfigError } from './config-error';
import type { ProviderConfig } from './provider';


export interface ThresholdConfig {
  /** The file it came from, or null for the built-in defaults. */
  file: string | null;
  level: Level;
  rules: PolicyRules;
  grants: Grant[];
  workspace: string | null;
  approvalTtlSeconds: number;
  executor: ExecutorConfig;
  provider: ProviderConfig;
  agent: { maxSteps: number; questionTimeoutMs: number };
  mcpServers: Record<string, McpServerConfig>;
  /** The desktop app also serves the control API (ctl) on its data directory. */
  controlEnabled: boolean;
  /** [hooks]: other agents' hooks (`threshold hook <agent>`); jail: their allowed commands run in Threshold's jail. */
  hooks: { jail: boolean };
  /** Audit retention; unset keeps everything. */
  auditRetention: { maxEntries?: number; maxAgeDays?: number };
  /** [network]: the hosts a network-class jail and web_fetch reach without a host grant. */
  network: { allowHosts: string[] };
  /** The reviewer ([security.auto_approval], [reviewers.*]); off unless enabled. */
  autoApproval: AutoApprovalConfig;
  /** Approvers away from the desk ([remote], docs/remote.md): chat bridges and the phone page; off unless set. */
  remote: RemoteConfig;
  /** Start-up warnings (printed by serve and the app): settings that work but are unwise. */
  warnings: string[];
  /** The file's parsed TOML before defaults: which keys the file itself sets (main/config/layers.ts). */
  raw?: Readonly<Record<string, unknown>>;
  /** The administrator's managed policy, applied as a ceiling (main/config/managed.ts); null: none. */
  managed?: ManagedPolicy | null;
}


export { ConfigError } from './config-error';
export type { ProviderConfig } from './provider';

export interface McpServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
  envFrom: string[];
  cwd: string | null;
  tier: 'write' | 'exec';
}

export const PROVIDER_DEFAULTS: Record<ProviderConfig['kind'], { baseUrl: string; model: string; apiKeyEnv: string | null }> = {
  'openai-compatible': { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', apiKeyEnv: null },
  anthropic: { baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY' },
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o', apiKeyEnv: 'OPENAI_API_KEY' },
};

export interface ExecutorConfig {
  /** Run commands without the jail: an explicit choice, warned about wherever the level is shown. */
  unjailed: boolean;
  envAllow: string[];
  limits: Limits;
  checkpointMaxFileBytes: number;
}

export const DEFAULT_EXECUTOR: ExecutorConfig = { unjailed: false, envAllow: [], limits: { ...DEFAULT_LIMITS }, checkpointMaxFileBytes: 10 * 1024 * 1024 };

export const DEFAULT_CONFIG: ThresholdConfig = {
  file: null,
  level: 'supervised',
  rules: { effects: {}, tools: {} },
  grants: [],
  workspace: null,
  approvalTtlSeconds: 600,
  executor: DEFAULT_EXECUTOR,
  provider: { kind: 'openai-compatible', ...PROVIDER_DEFAULTS['openai-compatible'], timeoutMs: 300_000 },
  agent: { maxSteps: 25, questionTimeoutMs: 600_000 },
  mcpServers: {},
  controlEnabled: true,
  hooks: { jail: false },
  auditRetention: {},
  network: { allowHosts: [...DEFAULT_ALLOW_HOSTS] },
  autoApproval: AUTO_APPROVAL_OFF,
  remote: REMOTE_OFF,
  warnings: [],
};

/** Reads a config file. `required` false: a missing file means the defaults (a dangling link is an error). */
export async function loadConfigFile(file: string, opts: { required: boolean; paths?: PathContext }): Promise<ThresholdConfig> {
  let text: string | null;
  try {
    text = readConfigText(file, opts.required);
  } catch (err) {
    if (err instanceof ConfigFileProblem) throw new ConfigError(file, '', err.message);
    throw err;
  }
  if (text === null) return { ...DEFAULT_CONFIG, raw: {} };
  return parseConfig(text, file, opts.paths);
}

export async function parseConfig(text: string, file: string, paths?: PathContext): Promise<ThresholdConfig> {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (err) {
    const e = err as { line?: number; column?: number; message?: string };
    throw new ConfigError(file, '', `not valid TOML${e.line ? ` (line ${e.line}, column ${e.column})` : ''}: ${(e.message ?? String(err)).split('\n')[0]}`);
  }
  return configFromObject(raw, file, paths);
}

/** Validates parsed TOML (a file's, or a file's merged with the Settings page's layer) into a config. */
export async function configFromObject(raw: unknown, file: string, paths?: PathContext): Promise<ThresholdConfig> {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = formatKey(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const keys = (issue as { keys: string[] }).keys;
      throw new ConfigError(file, [key, keys[0]].filter(Boolean).join('.'), `unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`);
    }
    throw new ConfigError(file, key, issue.message);
  }
  const cfg = parsed.data;
  await checkControlsDoSomething(cfg, file, paths);
  const provider: ProviderConfig = {
    kind: cfg.provider.kind,
    baseUrl: cfg.provider.base_url ?? PROVIDER_DEFAULTS[cfg.provider.kind].baseUrl,
    model: cfg.provider.model ?? PROVIDER_DEFAULTS[cfg.provider.kind].model,
    apiKeyEnv: cfg.provider.api_key_env ?? PROVIDER_DEFAULTS[cfg.provider.kind].apiKeyEnv,
    timeoutMs: cfg.provider.timeout_seconds * 1000,
  };
  const { autoApproval, warnings } = resolveAutoApproval(cfg, provider, PROVIDER_DEFAULTS, (key, problem) => new ConfigError(file, key, problem));
  return {
    file,
    level: cfg.autonomy.level,
    rules: { effects: cfg.rules.effects, tools: cfg.rules.tools },
    grants: cfg.grants.map((g, i) => grantFromEntry(g, i)),
    workspace: cfg.workspace.path ? expandHome(cfg.workspace.path, paths) : null,
    approvalTtlSeconds: cfg.approvals.ttl_seconds,
    executor: {
      unjailed: cfg.executor.unjailed,
      envAllow: cfg.executor.env_allow,
      limits: {
        timeoutMs: cfg.executor.timeout_seconds * 1000,
        graceMs: Math.round(cfg.executor.grace_seconds * 1000),
        outputCapBytes: cfg.executor.output_cap_bytes,
        maxProcesses: cfg.executor.max_processes,
        maxFileBytes: cfg.executor.max_file_mb * 1024 * 1024,
        cpuSeconds: cfg.executor.cpu_seconds,
        maxMemoryBytes: cfg.executor.max_memory_mb !== undefined ? cfg.executor.max_memory_mb * 1024 * 1024 : DEFAULT_LIMITS.maxMemoryBytes,
      },
      checkpointMaxFileBytes: Math.round(cfg.executor.checkpoint_max_file_mb * 1024 * 1024),
    },
    provider,
    agent: { maxSteps: cfg.agent.max_steps, questionTimeoutMs: cfg.agent.question_timeout_seconds * 1000 },
    mcpServers: Object.fromEntries(
      Object.entries(cfg.mcp.servers).map(([name, m]) => [name, { command: m.command, args: m.args, env: m.env, envFrom: m.env_from, cwd: m.cwd ?? null, tier: m.tier }]),
    ),
    controlEnabled: cfg.control.enabled,
    hooks: { jail: cfg.hooks.jail },
    auditRetention: {
      ...(cfg.audit.retention_max_entries !== undefined ? { maxEntries: cfg.audit.retention_max_entries } : {}),
      ...(cfg.audit.retention_max_age_days !== undefined ? { maxAgeDays: cfg.audit.retention_max_age_days } : {}),
    },
    network: { allowHosts: [...cfg.network.allow_hosts] },
    autoApproval,
    remote: remoteFromInput(cfg.remote, (key, problem) => new ConfigError(file, key, problem)),
    warnings,
    raw: raw as Record<string, unknown>,
  };
}

/** grants[0].argv, rules.effects.network: the key as a user would write it. */
function formatKey(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), '');
}

function expandHome(p: string, paths?: PathContext): string {
  return p === '~' || p.startsWith('~/') ? (paths?.home ?? process.env['HOME'] ?? '') + p.slice(1) : p;
}

const FLOOR_EFFECTS = new Set(['secret_read', 'capability_change', 'human_input', 'destructive']);
const PATH_TOOLS = new Set(['read_file', 'list_dir', 'search_files', 'write_file', 'edit_file', 'open_path']);

function isKnownTool(name: string): boolean {
  return (BUILTIN_TOOL_NAMES as string[]).includes(name) || parseExternalTool(name) !== null;
}

async function checkControlsDoSomething(cfg: ParsedConfig, file: string, paths?: PathContext): Promise<void> {
  for (const [effect, rule] of Object.entries(cfg.rules.effects)) {
    if (rule === 'auto' && FLOOR_EFFECTS.has(effect)) {
      throw new ConfigError(file, `rules.effects.${effect}`, `"auto" would do nothing: ${effect} is a floor that always needs a human decision`);
    }
  }
  for (const [tool, rule] of Object.entries(cfg.rules.tools)) {
    if (tool.startsWith('mcp.')) {
      const server = tool.split('.')[1] ?? '';
      if (!(server in cfg.mcp.servers)) throw new ConfigError(file, `rules.tools.${tool}`, `no MCP server named "${server}" is configured`);
      if (tool.split('.').length !== 3) throw new ConfigError(file, `rules.tools.${tool}`, 'MCP tool rules are named mcp.<server>.<tool>');
      continue;
    }
    if (!isKnownTool(tool)) throw new ConfigError(file, `rules.tools.${tool}`, `there is no tool named "${tool}"`);
    if (tool === 'ask_user' && rule === 'allow') throw new ConfigError(file, `rules.tools.${tool}`, '"allow" would do nothing: questions always go to you');
    if (tool === 'notify_user' && rule === 'allow') throw new ConfigError(file, `rules.tools.${tool}`, '"allow" would do nothing: notifications never ask');
  }
  if (cfg.grants.length) await initClassifier();
  const home = paths?.home ?? process.env['HOME'] ?? '/';
  const ctx: PathContext = paths ?? { home, workspace: cfg.workspace.path ? expandHome(cfg.workspace.path) : process.cwd(), appDirs: [] };
  cfg.grants.forEach((g, i) => {
    const key = `grants[${i}]`;
    if (g.tool.startsWith('mcp.') && !((g.tool.split('.')[1] ?? '') in cfg.mcp.servers)) throw new ConfigError(file, `${key}.tool`, `no MCP server named "${g.tool.split('.')[1] ?? ''}" is configured`);
    if (!g.tool.startsWith('mcp.') && !isKnownTool(g.tool)) throw new ConfigError(file, `${key}.tool`, `there is no tool named "${g.tool}"`);
    const kinds = [g.argv && 'argv', g.path && 'path', g.url && 'url', g.any && 'any'].filter(Boolean);
    if (kinds.length !== 1) throw new ConfigError(file, key, 'a grant needs exactly one of argv, path, url or any = true');
    if (g.redirects && !g.argv) throw new ConfigError(file, `${key}.redirects`, 'redirects only apply to an argv grant');
    if (g.argv && g.tool !== 'run_command') throw new ConfigError(file, `${key}.argv`, 'argv grants are for run_command');
    if (g.path && !PATH_TOOLS.has(g.tool)) throw new ConfigError(file, `${key}.path`, `path grants are for ${[...PATH_TOOLS].join(', ')}`);
    if (g.url && g.tool !== 'web_fetch') throw new ConfigError(file, `${key}.url`, 'url grants are for web_fetch');
    if (g.any && (g.tool === 'ask_user' || g.tool === 'notify_user')) throw new ConfigError(file, key, `a grant would do nothing for ${g.tool}`);
    if (g.match && !g.argv) throw new ConfigError(file, `${key}.match`, 'match only applies to an argv grant');
    if (g.tool.startsWith('mcp.')) return;
    // The same judge as grant.create and the card's Always allow: a grant that covers more than it shows,
    // or that could never let anything run, is refused with the sentence that says why.
    const judged = judgeGrantWidth(g.tool, grantFromEntry(g, i).pattern, ctx);
    if (!judged.ok) throw new ConfigError(file, `${key}.${g.argv ? 'argv' : g.path ? 'path' : g.url ? 'url' : 'any'}`, judged.reason.replace(/\.$/, ''));
  });
}

function grantFromEntry(g: GrantEntry, index: number): Grant {
  const pattern: Grant['pattern'] = g.argv
    ? normaliseGrantPattern({ kind: 'argv', argv: g.argv, ...(g.match ? { match: g.match } : {}), ...(g.redirects ? { redirects: g.redirects } : {}) })
    : g.path
      ? { kind: 'path', glob: g.path }
      : g.url
        ? { kind: 'url', prefix: g.url }
        : { kind: 'tool' };
  return {
    id: `config-${index + 1}`,
    tool: g.tool,
    pattern,
    scope: 'always',
    provenance: { source: 'config' },
    createdAt: 0,
    note: g.note ?? null,
  };
}
