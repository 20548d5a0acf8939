// Claude Code's `permissions` (settings.json: allow, ask, deny lists of `Tool` or `Tool(specifier)`) as
// Threshold rules and grants. A Bash specifier is a command (exact, or a prefix when it ends in `:*` or a
// lone `*`); file specifiers are gitignore-style paths (`//abs`, `~/home`, `/project-relative`, `./rel`);
// WebFetch takes `domain:host`; MCP tools are `mcp__server__tool`.
import { BOOKKEEPING_TOOLS } from '../../policy/external-tools';
import type { PathContext } from '../../policy/paths';
import { anchorGlob, commandGrant, FILE_READ_TOOLS, FILE_WRITE_TOOLS, grantsFor, mcpToolName, rulesFor, shellWords } from './shared';
import { nothing, refused, type ImportKind, type ImportPlan, type ImportResult } from './types';

const FILE_EDIT_NAMES = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const SETTINGS_NOT_RULES: Record<string, string> = {
  defaultMode: "Claude Code's starting mode; Threshold's level is set in Threshold (Settings, or [autonomy] level)",
  additionalDirectories: "folders Claude Code may work in besides the project; Threshold judges each call against the agent's project",
  disableBypassPermissionsMode: "a Claude Code switch; Threshold has no bypass mode to disable",
};

/** The Threshold tools a Claude Code tool name stands for, when it names a whole tool. */
function wholeTool(name: string): string[] | null {
  if (name === 'Bash') return ['run_command'];
  if (FILE_EDIT_NAMES.has(name)) return FILE_WRITE_TOOLS;
  if (name === 'Read' || name === 'Glob' || name === 'Grep' || name === 'LS') return FILE_READ_TOOLS;
  if (name === 'WebFetch') return ['web_fetch'];
  if (name.startsWith('mcp__')) return null;
  return [`external.claude-code.${name}`];
}

function allow(name: string, spec: string | null, ctx: PathContext, project: string): ImportResult {
  if (name === 'Bash') {
    if (spec === null || spec === '' || spec === '*') return refused('it would allow every command, including the ones Threshold asks about on purpose; grant the commands you run instead');
    let text = spec;
    let match: 'exact' | 'prefix' = 'exact';
    if (text.endsWith(':*')) {
      text = text.slice(0, -2);
      match = 'prefix';
    } else if (/\s\*$/.test(text)) {
      text = text.slice(0, -1).trimEnd();
      match = 'prefix';
    }
    const words = shellWords(text);
    if (!words) return refused('it names more than one plain command (operators, substitutions or quotes Threshold does not read as one command)');
    return commandGrant(words, match, ctx);
  }
  if (name === 'Read' || name === 'Glob' || name === 'Grep' || name === 'LS') return nothing('reads run unasked at every level (credential locations still ask)');
  if (FILE_EDIT_NAMES.has(name)) {
    // Claude Code edits only inside its working folders: a bare Edit means the project.
    const glob = spec === null || spec === '' ? `${project}/**` : anchorGlob(spec, project, ctx.home);
    if (!glob) return refused(`"${spec}" names no folder to confine the edits to`);
    return grantsFor(FILE_WRITE_TOOLS, { kind: 'path', glob }, ctx);
  }
  if (name === 'WebFetch') {
    if (spec === null || spec === '') return grantsFor(['web_fetch'], { kind: 'tool' }, ctx);
    const m = /^domain:([A-Za-z0-9.-]+)$/.exec(spec);
    if (!m) return refused(`"${spec}" is not a domain:host specifier Threshold reads`);
    return grantsFor(['web_fetch'], { kind: 'url', prefix: `https://${m[1]!.toLowerCase()}/` }, ctx);
  }
  if (name.startsWith('mcp__')) {
    const tool = mcpToolName(name, true);
    if (!tool || spec !== null) return refused('it names a whole MCP server (or a pattern of tools); Threshold grants name one tool each');
    return grantsFor([tool], { kind: 'tool' }, ctx);
  }
  if (Object.hasOwn(BOOKKEEPING_TOOLS, `external.claude-code.${name}`)) return nothing(`${name} changes nothing outside Claude Code's own conversation, and runs unasked`);
  if (spec !== null) return refused(`Threshold cannot narrow ${name} to "${spec}"; it would become every ${name} call`);
  return grantsFor([`external.claude-code.${name}`], { kind: 'tool' }, ctx);
}

function askOrDeny(kind: 'ask' | 'deny', name: string, spec: string | null): ImportResult {
  if (spec !== null && spec !== '' && spec !== '*') {
    if (name === 'Bash') return refused(`Threshold has no rule that ${kind === 'deny' ? 'denies' : 'asks for'} one command by its words (its rules name a whole tool or a kind of effect; at supervised every command that is not read-only asks anyway)`);
    return refused(`Threshold has no rule that ${kind === 'deny' ? 'denies' : 'asks for'} ${name} on "${spec}" alone (its rules name a whole tool or a kind of effect; credential locations such as .env always ask, and the jail hides them from commands)`);
  }
  const tools = wholeTool(name);
  if (!tools) return refused(`rules name the MCP tools of servers in threshold.toml; Claude Code's own MCP servers are judged as tools Threshold does not know (at least a write, asked at supervised)`);
  return rulesFor(tools, kind);
}

/** The rule's tool and specifier: `Bash`, `Bash(npm test)`; null when it is neither. */
function parseRule(rule: string): { name: string; spec: string | null } | null {
  const m = /^([A-Za-z][A-Za-z0-9_-]*)(?:\(([\s\S]*)\))?$/.exec(rule.trim());
  return m ? { name: m[1]!, spec: m[2] ?? null } : null;
}

export function importClaudeCode(text: string, file: string, project: string, ctx: PathContext): ImportPlan {
  const plan: ImportPlan = { agent: 'Claude Code', file, project, rules: [], notes: [] };
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch (err) {
    plan.notes.push(`${file} is not valid JSON (${(err as Error).message}); nothing was read.`);
    return plan;
  }
  const permissions = settings && typeof settings === 'object' ? (settings as Record<string, unknown>)['permissions'] : undefined;
  if (!permissions || typeof permissions !== 'object' || Array.isArray(permissions)) {
    plan.notes.push(`${file} has no "permissions" object; nothing to import.`);
    return plan;
  }
  const p = permissions as Record<string, unknown>;
  for (const kind of ['allow', 'ask', 'deny'] as ImportKind[]) {
    const list = p[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      plan.notes.push(`permissions.${kind} is not a list; it was not read.`);
      continue;
    }
    for (const entry of list) {
      const source = typeof entry === 'string' ? entry : JSON.stringify(entry);
      const parsed = typeof entry === 'string' ? parseRule(entry) : null;
      const result = !parsed ? refused('it is not a Tool or Tool(specifier) rule') : kind === 'allow' ? allow(parsed.name, parsed.spec, ctx, project) : askOrDeny(kind, parsed.name, parsed.spec);
      plan.rules.push({ source, kind, result });
    }
  }
  for (const [key, why] of Object.entries(SETTINGS_NOT_RULES)) if (p[key] !== undefined) plan.notes.push(`permissions.${key} is not imported: ${why}.`);
  return plan;
}
