// The agent's built-in tools as the policy sees them: name, tier, argument schema, and what a call
// with given arguments can do (its facts). Pure: the few facts that need the filesystem (a resolved
// real path, an executable bit) are observed by the caller and passed in.
import { z } from 'zod';
import { SHELL_REACHABLE_EFFECTS, type Class, type Effect, type Flag, type ToolTier } from '../../common/domain';
import { MAX_NESTING, nestingDepth, tooDeepMessage } from '../../common/nesting';
import { classifyCommand, type ReadText, type Segment } from './classifier';
import { externalToolFacts } from './external-tools';
import {
  containsCredentialLocation,
  isCredentialPath,
  isInside,
  isOutsideJailCodePath,
  isProtectedWriteTarget,
  resolvePath,
  secretReadReason,
  type PathContext,
} from './paths';

export const toolArgSchemas = {
  run_command: z.object({ command: z.string().min(1, 'command must not be empty'), cwd: z.string().min(1).optional() }).strict(),
  read_file: z.object({ path: z.string().min(1) }).strict(),
  list_dir: z.object({ path: z.string().min(1) }).strict(),
  search_files: z.object({ pattern: z.string().min(1), path: z.string().min(1).optional() }).strict(),
  write_file: z.object({ path: z.string().min(1), content: z.string() }).strict(),
  edit_file: z.object({ path: z.string().min(1), old: z.string().min(1, 'old must not be empty'), new: z.string() }).strict(),
  open_path: z.object({ path: z.string().min(1) }).strict(),
  web_fetch: z.object({ url: z.string().min(1) }).strict(),
  ask_user: z.object({ question: z.string().min(1) }).strict(),
  notify_user: z.object({ message: z.string().min(1), urgency: z.enum(['info', 'attention', 'urgent']).optional() }).strict(),
} as const;

export type BuiltinToolName = keyof typeof toolArgSchemas;
export const BUILTIN_TOOL_NAMES = Object.keys(toolArgSchemas) as BuiltinToolName[];

/** A tool of an MCP server: `mcp.<server>.<tool>`. */
export type McpToolName = `mcp.${string}.${string}`;
/** A tool of another agent with no Threshold equivalent (main/policy/external-tools.ts): `external.<agent>.<tool>`. */
export type ExternalToolName = `external.${string}.${string}`;
/**
 * A name a caller sent that names none of those (a model's invented tool, a typo in `ctl`): kept as sent,
 * so the call is recorded and refused by that name. Only parseToolName makes one.
 */
export type UnknownToolName = string & { readonly noSuchTool: unique symbol };
/** Every tool a call can name. */
export type ToolName = BuiltinToolName | McpToolName | ExternalToolName | UnknownToolName;

export function isBuiltinTool(name: string): name is BuiltinToolName {
  // Own keys only: a tool named "__proto__" or "constructor" is unknown, not the object's prototype.
  return Object.hasOwn(toolArgSchemas, name);
}

export function isMcpTool(name: string): name is McpToolName {
  return /^mcp\.[^.]+\../.test(name);
}

/** What a person (and a grant) recognises a call by: its command, URL or path; null when it has none. */
export function subjectOf(tool: string, args: unknown): string | null {
  const a = (args ?? {}) as Record<string, unknown>;
  const v = tool === 'run_command' ? a['command'] : tool === 'web_fetch' ? a['url'] : a['path'];
  return typeof v === 'string' ? v : null;
}

/** A name from outside (the model, `ctl`, a hook) as the tool it names, or as an unknown one. */
export function parseToolName(name: string): ToolName {
  if (isBuiltinTool(name) || isMcpTool(name) || /^external\.[^.]+\../.test(name)) return name as ToolName;
  return name as UnknownToolName;
}

/** What a call can do, derived from its tool and arguments. */
export interface CallFacts {
  tool: string;
  tier: ToolTier;
  class: Class;
  effects: Effect[];
  reasons: string[];
  flags: Flag[];
  hardline: boolean;
  /** Shell segments (run_command only). */
  segments: Segment[];
  /** The command line exactly as the model sent it (run_command only): what a reason quotes, and what a grant for exactly this command compares. */
  command?: string;
  /** Absolute paths the call reads or writes, when known. */
  paths: { path: string; access: 'read' | 'write' }[];
  /** The URL (web_fetch only). */
  url?: string;
  /** A write whose target is statically outside the workspace. */
  outsideWorkspace: boolean;
  /** A file edit (write_file, edit_file) that stays inside the workspace. */
  workspaceFileEdit: boolean;
  /** The tool forces a prompt at every level but read-only (seed 001's safety override). */
  override?: string;
  /** The tool refuses this call outright (e.g. open_path on an executable). */
  refusal?: string;
  /** search_files over a folder that holds credential locations: the tool must skip them. */
  excludesCredentials?: boolean;
}

/** Facts observed from the filesystem by the caller before evaluation (evaluate itself does no I/O). */
export interface ObservedFacts {
  /** open_path: the real path after following symlinks. */
  realPath?: string;
  /** open_path: the file has an executable bit. */
  executable?: boolean;
  /** open_path: the file's type and the application that will open it, where the system can tell. */
  opener?: { mime: string | null; application: string | null };
}

export interface McpToolDeclaration {
  /** Tier declared by the server configuration; MCP tools are at least write. */
  tier?: ToolTier;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean; idempotentHint?: boolean };
}

function base(tool: string, tier: ToolTier, cls: Class, effects: Effect[], reasons: string[]): CallFacts {
  return { tool, tier, class: cls, effects, reasons, flags: [], hardline: false, segments: [], paths: [], outsideWorkspace: false, workspaceFileEdit: false };
}

function tildify(abs: string, ctx: PathContext): string {
  if (abs === ctx.home) return '~';
  return abs.startsWith(ctx.home + '/') ? '~' + abs.slice(ctx.home.length) : abs;
}

function readFacts(tool: string, raw: string, cwd: string, ctx: PathContext, what: string, realPath?: string): CallFacts {
  const lexical = resolvePath(raw, cwd, ctx)!;
  const abs = realPath ?? lexical;
  const f = base(tool, 'read', 'read', ['file_read'], [`${tool} ${what} ${tildify(abs, ctx)}`]);
  if (abs !== lexical) f.reasons.push(`${tildify(lexical, ctx)} is a link to ${tildify(abs, ctx)}`);
  f.paths.push({ path: abs, access: 'read' });
  const byName = tool !== 'list_dir';
  const secret = secretReadReason(abs, ctx, { byName }) ?? secretReadReason(lexical, ctx, { byName });
  if (secret !== null) {
    f.effects.push('secret_read');
    f.reasons.push(`${tildify(abs, ctx)} is ${secret}`);
  }
  return f;
}

function writeFacts(tool: string, raw: string, cwd: string, ctx: PathContext, realPath?: string): CallFacts {
  const lexical = resolvePath(raw, cwd, ctx)!;
  // A link is judged by where it points; a write through it lands there.
  const abs = realPath ?? lexical;
  const shown = tildify(abs, ctx);
  const f = base(tool, 'write', 'write', ['file_write'], [`${tool} writes ${shown}`]);
  if (abs !== lexical) f.reasons.push(`${tildify(lexical, ctx)} is a link to ${shown}`);
  f.paths.push({ path: abs, access: 'write' });
  if (ctx.appDirs.some((d) => isInside(abs, d))) {
    f.class = 'destructive';
    f.effects.push('capability_change', 'destructive');
    f.reasons.push(`${shown} is Threshold's own configuration or data: changing it changes what the agent may do`);
  } else if (isProtectedWriteTarget(abs, ctx)) {
    f.class = 'destructive';
    f.effects.push('destructive');
    f.reasons.push(`${shown} is a system, credential or start-up location`);
  } else if (isOutsideJailCodePath(abs, ctx)) {
    f.effects.push('capability_change');
    f.reasons.push(`${shown} holds code that later runs outside the jail (git hooks and config, direnv, editor tasks)`);
  }
  if (!isInside(abs, ctx.workspace)) {
    f.outsideWorkspace = true;
    f.reasons.push(`${shown} is outside the workspace`);
  } else f.workspaceFileEdit = true;
  return f;
}

const OPENABLE_REFUSED = /\.(sh|bash|zsh|fish|csh|ksh|command|tool|py|pyw|pl|rb|php|js|mjs|cjs|ts|jar|exe|bat|cmd|com|ps1|psm1|vbs|vbe|jse|wsf|wsh|hta|msi|msp|scr|cpl|reg|lnk|url|desktop|app|appimage|run|bin|deb|rpm|apk|dmg|pkg|mpkg|scpt|applescript|workflow|terminal|webloc|inetloc|fileloc|action|elf|out|so|dylib|dll|kext|plugin|service|timer|xpi|crx|vsix)$/i;

function openFacts(raw: string, cwd: string, ctx: PathContext, observed: ObservedFacts): CallFacts {
  const lexical = resolvePath(raw, cwd, ctx)!;
  const real = observed.realPath ?? lexical;
  const shown = tildify(real, ctx);
  const f = base('open_path', 'exec', 'write', ['desktop_open'], [`open_path opens ${shown} with the desktop's default application`]);
  if (real !== lexical) f.reasons.push(`${tildify(lexical, ctx)} resolves to ${shown}`);
  if (observed.opener?.application || observed.opener?.mime) {
    f.reasons.push(`it opens with ${observed.opener.application ?? 'the default application'}${observed.opener.mime ? ` (${observed.opener.mime})` : ''}`);
  }
  f.paths.push({ path: real, access: 'read' });
  if (OPENABLE_REFUSED.test(real) || /\.app\/?$/i.test(real)) f.refusal = `${shown} is a program, script or launcher; open_path only opens documents`;
  else if (observed.executable) f.refusal = `${shown} is executable; open_path only opens documents`;
  else if (isCredentialPath(real, ctx)) f.refusal = `${shown} is a credential location`;
  else if (!isInside(real, ctx.workspace) && !isInside(real, ctx.home)) {
    f.outsideWorkspace = true;
    f.refusal = `${shown} is outside the workspace and the home folder (a path grant can allow it)`;
  }
  return f;
}

function isPrivateHost(host: string): boolean {
  // localhost. (with the root's dot) is localhost.
  const h = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.+$/, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal') || h === '0.0.0.0' || h === '::' || h === '::1') return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  // IPv6 unique-local, link-local and IPv4-mapped. (WHATWG URL parsing already turns 2130706433 and 0x7f.1 into 127.0.0.1.)
  return /^(fc|fd|fe80)/.test(h) || h.startsWith('::ffff:');
}

function fetchFacts(rawUrl: string): CallFacts {
  const f = base('web_fetch', 'exec', 'network', ['network'], []);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    f.refusal = `"${rawUrl}" is not a valid URL`;
    return f;
  }
  f.url = url.href;
  f.reasons.push(`web_fetch downloads ${url.origin}${url.pathname}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') f.refusal = `web_fetch only fetches http and https URLs, not ${url.protocol}`;
  else if (url.username || url.password) f.override = 'the URL carries credentials';
  else if (isPrivateHost(url.hostname)) f.override = `${url.hostname} is a local or private network address (services on this machine or network)`;
  return f;
}

export interface FactsEnv {
  ctx: PathContext;
  /** Directory the call runs in; the workspace when not given. */
  cwd?: string;
  mcpTools?: Readonly<Record<string, McpToolDeclaration>>;
  observed?: ObservedFacts;
  /** How the classifier reads the files that name network hosts (main/gate/network-files.ts). */
  readText?: ReadText;
}

export type FactsResult = { ok: true; facts: CallFacts } | { ok: false; code: 'unknown_tool' | 'invalid_args'; message: string };

/** Validates a call's arguments and derives its facts. */
export function describeCall(tool: string, args: unknown, env: FactsEnv): FactsResult {
  const cwd = env.cwd ?? env.ctx.workspace;
  const ctx = env.ctx;
  // Measured before anything walks the arguments (the schema, an MCP server, the record).
  if (nestingDepth(args) > MAX_NESTING) return { ok: false, code: 'invalid_args', message: `Invalid arguments for ${tool}: ${tooDeepMessage('they')}.` };
  if (tool.startsWith('mcp.')) return mcpFacts(tool, args, env);
  if (tool.startsWith('external.')) {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) return { ok: false, code: 'invalid_args', message: `Invalid arguments for ${tool}: an object is required.` };
    const f = externalToolFacts(tool, base);
    return f ? { ok: true, facts: f } : { ok: false, code: 'unknown_tool', message: `"${tool}" is not a tool of an agent Threshold answers for (external.<claude-code|codex|gemini>.<tool>).` };
  }
  if (!isBuiltinTool(tool)) return { ok: false, code: 'unknown_tool', message: `There is no tool named "${tool}".` };
  const name = tool as BuiltinToolName;
  const parsed = toolArgSchemas[name].safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    return { ok: false, code: 'invalid_args', message: `Invalid arguments for ${tool}: ${issues}.` };
  }
  const a = parsed.data as Record<string, string>;
  switch (name) {
    case 'run_command': {
      const dir = a['cwd'] ? resolvePath(a['cwd'], cwd, ctx)! : cwd;
      const c = classifyCommand(a['command']!, { ctx, cwd: dir, readText: env.readText });
      const f = base(tool, 'exec', c.class, c.effects, c.reasons);
      f.flags = c.flags;
      f.hardline = c.hardline;
      f.segments = c.segments;
      f.command = a['command']!;
      for (const s of c.segments) for (const w of s.writes) f.paths.push({ path: w, access: 'write' });
      f.outsideWorkspace = c.segments.some((s) => s.writes.some((w) => !isInside(w, ctx.workspace)));
      if (!isInside(dir, ctx.workspace)) f.reasons.push(`runs in ${tildify(dir, ctx)}, outside the workspace`);
      return { ok: true, facts: f };
    }
    case 'read_file':
      return { ok: true, facts: readFacts(tool, a['path']!, cwd, ctx, 'reads', env.observed?.realPath) };
    case 'list_dir':
      return { ok: true, facts: readFacts(tool, a['path']!, cwd, ctx, 'lists', env.observed?.realPath) };
    case 'search_files': {
      const f = readFacts(tool, a['path'] ?? '.', cwd, ctx, 'searches', env.observed?.realPath);
      const abs = f.paths[0]!.path;
      if (!f.effects.includes('secret_read') && containsCredentialLocation(abs, ctx)) {
        f.excludesCredentials = true;
        f.reasons.push('the search skips the credential locations inside it');
      }
      return { ok: true, facts: f };
    }
    case 'write_file':
    case 'edit_file':
      return { ok: true, facts: writeFacts(tool, a['path']!, cwd, ctx, env.observed?.realPath) };
    case 'open_path':
      return { ok: true, facts: openFacts(a['path']!, cwd, ctx, env.observed ?? {}) };
    case 'web_fetch':
      return { ok: true, facts: fetchFacts(a['url']!) };
    case 'ask_user':
      return { ok: true, facts: base(tool, 'read', 'read', ['human_input'], ['ask_user asks you a question; only you can answer it']) };
    case 'notify_user':
      return { ok: true, facts: base(tool, 'read', 'read', [], ['notify_user shows you a notification; it asks for nothing']) };
  }
}

/** MCP tools: at least write; annotations may only tighten (destructiveHint makes the call destructive). */
function mcpFacts(tool: string, args: unknown, env: FactsEnv): FactsResult {
  const parts = tool.split('.');
  if (parts.length < 3 || parts.some((p) => p === '')) return { ok: false, code: 'unknown_tool', message: `"${tool}" is not a valid MCP tool name (mcp.<server>.<tool>).` };
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return { ok: false, code: 'invalid_args', message: `Invalid arguments for ${tool}: an object is required.` };
  const decl = env.mcpTools?.[tool];
  if (env.mcpTools && !decl) return { ok: false, code: 'unknown_tool', message: `There is no tool named "${tool}".` };
  const tier: ToolTier = decl?.tier === 'exec' ? 'exec' : 'write';
  const f = base(tool, tier, 'write', ['mcp_call'], [`${tool} is a tool of the MCP server "${parts[1]}", which can act outside the jail`]);
  if (tier === 'exec') f.effects.push(...SHELL_REACHABLE_EFFECTS);
  if (decl?.annotations?.destructiveHint) {
    f.class = 'destructive';
    f.effects.push('destructive');
    f.reasons.push('the server marks this tool as destructive');
  }
  if (decl?.annotations?.openWorldHint) {
    f.class = f.class === 'destructive' ? 'destructive' : 'network';
    f.effects.push('network');
    f.reasons.push('the server marks this tool as reaching the outside world');
  }
  return { ok: true, facts: f };
}
