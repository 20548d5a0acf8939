// Gemini CLI's policy files (TOML, `[[rule]]` tables: toolName, mcpName, commandPrefix, commandRegex,
// argsPattern, decision allow | deny | ask_user, priority, modes, …) as Threshold rules and grants.
// Threshold has no priorities: its own order (deny rules, floors, grants, ask rules, allow rules, level)
// is never looser than Gemini CLI's for what is imported here. An allow that holds only in some modes or
// for some callers is refused; a deny or ask under a condition is imported without it (stricter).
import { parse as parseToml } from 'smol-toml';
import type { PathContext } from '../../policy/paths';
import { BOOKKEEPING_TOOLS } from '../../policy/external-tools';
import { commandGrant, FILE_WRITE_TOOLS, grantsFor, mcpToolName, rulesFor, shellWords } from './shared';
import { nothing, refused, type ImportKind, type ImportPlan, type ImportResult } from './types';

const KIND: Record<string, ImportKind> = { allow: 'allow', deny: 'deny', ask_user: 'ask' };

/** Gemini CLI's built-in tools as Threshold's (null: one of its own, judged as external.gemini.<name>). */
const BUILT_IN: Record<string, string[] | 'read'> = {
  run_shell_command: ['run_command'],
  write_file: ['write_file'],
  replace: ['edit_file'],
  read_file: 'read',
  read_many_files: 'read',
  list_directory: 'read',
  glob: 'read',
  grep_search: 'read',
  search_file_content: 'read',
  web_fetch: ['web_fetch'],
};
const READ_TOOLS = ['read_file', 'list_dir', 'search_files'];

function toolsOf(name: string, mcp: string | null): { tools: string[]; read: boolean } | { problem: string } {
  if (name === '*' || name.includes('*')) return { problem: `"${name}" is a pattern of tools; Threshold rules and grants name one tool each` };
  if (mcp) return { tools: [`mcp.${mcp}.${name}`], read: false };
  const fqn = mcpToolName(name, false);
  if (fqn) return { tools: [fqn], read: false };
  const b = Object.hasOwn(BUILT_IN, name) ? BUILT_IN[name]! : null;
  if (b === 'read') return { tools: READ_TOOLS, read: true };
  if (b) return { tools: b, read: false };
  return { tools: [`external.gemini.${name}`], read: false };
}

function oneRule(r: Record<string, unknown>, project: string, ctx: PathContext): { kind: ImportKind; result: ImportResult } {
  const kind = typeof r['decision'] === 'string' ? KIND[r['decision']] : undefined;
  if (!kind) return { kind: 'deny', result: refused(`decision ${JSON.stringify(r['decision'])} is not allow, deny or ask_user`) };
  const names = typeof r['toolName'] === 'string' ? [r['toolName']] : Array.isArray(r['toolName']) && r['toolName'].every((t) => typeof t === 'string') ? (r['toolName'] as string[]) : null;
  const mcp = typeof r['mcpName'] === 'string' ? r['mcpName'] : null;
  if (!names?.length) return { kind, result: refused(mcp ? `it names the whole MCP server "${mcp}"; Threshold grants and rules name one tool each` : 'it names no toolName') };
  const conditions = ['modes', 'interactive', 'subagent', 'toolAnnotations'].filter((k) => r[k] !== undefined);
  const narrowed = ['argsPattern', 'commandRegex'].filter((k) => r[k] !== undefined);
  const prefixes = typeof r['commandPrefix'] === 'string' ? [r['commandPrefix']] : Array.isArray(r['commandPrefix']) ? (r['commandPrefix'] as unknown[]) : null;

  if (kind !== 'allow') {
    if (narrowed.length || prefixes) return { kind, result: refused(`Threshold has no rule that ${kind === 'deny' ? 'denies' : 'asks for'} a call by ${[...narrowed, ...(prefixes ? ['commandPrefix'] : [])].join(' or ')} (its rules name a whole tool or a kind of effect)`) };
    const tools: string[] = [];
    for (const n of names) {
      const t = toolsOf(n, mcp);
      if ('problem' in t) return { kind, result: refused(t.problem) };
      if (t.tools.some((x) => x.startsWith('mcp.'))) return { kind, result: refused("rules name the MCP tools of servers in threshold.toml; Gemini CLI's own MCP servers are judged as tools Threshold does not know (at least a write, asked at supervised)") };
      tools.push(...t.tools);
    }
    return { kind, result: rulesFor(tools, kind, conditions.length ? `Gemini CLI applies it only under ${conditions.join(', ')}; Threshold applies it always (stricter)` : undefined) };
  }

  if (conditions.length) return { kind, result: refused(`it allows only under ${conditions.join(', ')}, which Threshold cannot express; allowing it always would widen it`) };
  if (narrowed.length) return { kind, result: refused(`Threshold cannot express ${narrowed.join(' or ')} (a regular expression over the arguments) without widening it`) };
  const grants: ImportResult[] = [];
  for (const n of names) {
    const t = toolsOf(n, mcp);
    if ('problem' in t) return { kind, result: refused(t.problem) };
    if (t.tools[0] === 'run_command') {
      if (!prefixes) return { kind, result: refused('it would allow every shell command, including the ones Threshold asks about on purpose; grant the commands you run instead') };
      for (const p of prefixes) {
        const words = typeof p === 'string' ? shellWords(p) : null;
        if (!words?.length) return { kind, result: refused(`commandPrefix ${JSON.stringify(p)} is not one plain command`) };
        // Gemini CLI matches a prefix up to a word boundary: these words, then any further arguments.
        grants.push(commandGrant(words, 'prefix', ctx));
      }
      continue;
    }
    if (prefixes) return { kind, result: refused('commandPrefix applies to run_shell_command only') };
    if (t.read) {
      grants.push(nothing('reads run unasked at every level (credential locations still ask)'));
      continue;
    }
    if (t.tools.every((x) => FILE_WRITE_TOOLS.includes(x))) {
      // Gemini CLI's file tools stay inside its workspace folders: the project.
      grants.push(grantsFor(t.tools, { kind: 'path', glob: `${project}/**` }, ctx));
      continue;
    }
    if (Object.hasOwn(BOOKKEEPING_TOOLS, t.tools[0]!)) {
      grants.push(nothing(`${n} changes nothing outside Gemini CLI's own conversation, and runs unasked`));
      continue;
    }
    grants.push(grantsFor(t.tools, { kind: 'tool' }, ctx));
  }
  const refusal = grants.find((g) => g.become === 'refused');
  if (refusal) return { kind, result: refusal };
  const all = grants.flatMap((g) => (g.become === 'grants' ? g.grants : []));
  if (!all.length) return { kind, result: grants[0] ?? nothing('nothing to add') };
  const notes = grants.flatMap((g) => (g.become === 'nothing' ? [g.why] : g.become === 'grants' && g.note ? [g.note] : []));
  return { kind, result: { become: 'grants', grants: all, ...(notes.length ? { note: notes.join('; ') } : {}) } };
}

export function importGemini(text: string, file: string, project: string, ctx: PathContext): ImportPlan {
  const plan: ImportPlan = { agent: 'Gemini CLI', file, project, rules: [], notes: [] };
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (err) {
    plan.notes.push(`${file} is not valid TOML (${(err as Error).message.split('\n')[0]}); nothing was read.`);
    return plan;
  }
  const rules = doc['rule'];
  if (rules !== undefined && !Array.isArray(rules)) plan.notes.push('"rule" is not a list of [[rule]] tables; it was not read.');
  (Array.isArray(rules) ? rules : []).forEach((r, n) => {
    const rule = r && typeof r === 'object' ? (r as Record<string, unknown>) : {};
    const shown = ['toolName', 'mcpName', 'commandPrefix', 'commandRegex', 'argsPattern', 'decision'].filter((k) => rule[k] !== undefined).map((k) => `${k} = ${JSON.stringify(rule[k])}`).join(', ');
    const { kind, result } = oneRule(rule, project, ctx);
    plan.rules.push({ source: `[[rule]] #${n + 1}: ${shown}`, kind, result });
  });
  for (const key of Object.keys(doc)) if (key !== 'rule') plan.notes.push(`[${key}] is not imported: only [[rule]] tables are (safety checkers and other tables have no Threshold equivalent).`);
  return plan;
}
