// Another agent's tool call as Threshold's: the same tool where there is one (a shell command is
// run_command, a file write write_file, a fetch web_fetch, an MCP tool mcp.<server>.<tool>), otherwise
// external.<agent>.<tool> (main/policy/external-tools.ts: bookkeeping reads, anything else at least a
// write). Pure; the arguments the card shows are the ones that decide. A call whose arguments do not have
// the agent's documented shape is not guessed at: it becomes the agent's unknown tool, which asks.
import type { ExternalAgent } from '../../common/external-agents';

export interface MappedCall {
  tool: string;
  args: Record<string, unknown>;
  /** The agent can be told to run this call as Threshold's jailed command instead (a shell command it runs through its shell tool). */
  rewritable: boolean;
}

type Input = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function unknown(agent: ExternalAgent, name: string, input: Input): MappedCall {
  // Names that are not plain identifiers cannot pose as anything: the tool part keeps only what the policy reads.
  const safe = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'unnamed';
  return { tool: `external.${agent}.${safe}`, args: input, rewritable: false };
}

/** `mcp__<server>__<tool>` (Claude Code and Codex), as `mcp.<server>.<tool>`; null for any other name. */
export function mcpName(name: string): string | null {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  if (!m || !m[1] || !m[2]) return null;
  return `mcp.${m[1]}.${m[2]}`;
}

function shell(command: unknown, cwd?: unknown): MappedCall | null {
  const c = str(command);
  if (c === null) return null;
  const dir = str(cwd);
  return { tool: 'run_command', args: dir ? { command: c, cwd: dir } : { command: c }, rewritable: true };
}

function write(path: unknown, content: unknown): MappedCall | null {
  const p = str(path);
  const c = text(content);
  return p !== null && c !== null ? { tool: 'write_file', args: { path: p, content: c }, rewritable: false } : null;
}

/** An edit: replacing nothing is writing a new file (Claude Code and Gemini CLI create files this way). */
function edit(path: unknown, oldText: unknown, newText: unknown): MappedCall | null {
  const p = str(path);
  const o = text(oldText);
  const n = text(newText);
  if (p === null || o === null || n === null) return null;
  return o === '' ? { tool: 'write_file', args: { path: p, content: n }, rewritable: false } : { tool: 'edit_file', args: { path: p, old: o, new: n }, rewritable: false };
}

function read(tool: 'read_file' | 'list_dir', path: unknown): MappedCall | null {
  const p = str(path);
  return p !== null ? { tool, args: { path: p }, rewritable: false } : null;
}

function search(pattern: unknown, path: unknown): MappedCall | null {
  const p = str(pattern);
  if (p === null) return null;
  const dir = str(path);
  return { tool: 'search_files', args: dir ? { pattern: p, path: dir } : { pattern: p }, rewritable: false };
}

function fetch(url: unknown): MappedCall | null {
  const u = str(url);
  return u !== null ? { tool: 'web_fetch', args: { url: u }, rewritable: false } : null;
}

/** Claude Code's tools (2.1): PreToolUse's tool_name and tool_input. */
function claudeCode(name: string, input: Input): MappedCall | null {
  switch (name) {
    case 'Bash':
      return shell(input['command']);
    case 'Write':
      return write(input['file_path'], input['content']);
    case 'Edit':
      return edit(input['file_path'], input['old_string'], input['new_string']);
    case 'MultiEdit': {
      const edits = Array.isArray(input['edits']) ? (input['edits'] as Input[]) : null;
      if (!edits?.length || edits.some((e) => typeof e?.['old_string'] !== 'string' || typeof e['new_string'] !== 'string')) return null;
      if (edits.length === 1) return edit(input['file_path'], edits[0]!['old_string'], edits[0]!['new_string']);
      const sep = (i: number) => `--- edit ${i + 1} of ${edits.length} ---\n`;
      return edit(input['file_path'], edits.map((e, i) => sep(i) + String(e['old_string'])).join('\n'), edits.map((e, i) => sep(i) + String(e['new_string'])).join('\n'));
    }
    case 'NotebookEdit': {
      const cell = str(input['cell_id']) ?? 'a new cell';
      return edit(input['notebook_path'], `notebook cell ${cell} (${str(input['edit_mode']) ?? 'replace'})`, input['new_source']);
    }
    case 'Read':
      return read('read_file', input['file_path']);
    case 'LS':
      return read('list_dir', input['path']);
    case 'Glob':
    case 'Grep':
      return search(input['pattern'], input['path']);
    case 'WebFetch':
      return fetch(input['url']);
  }
  return null;
}

/** Codex's tools (0.171): shell and exec_command reach hooks as Bash {command}; apply_patch carries the patch. */
function codex(name: string, input: Input): MappedCall | null {
  switch (name) {
    case 'Bash':
      return shell(input['command']);
    case 'apply_patch':
      return patch(text(input['command']) ?? text(input['patch']) ?? text(input['input']));
    case 'view_image':
      return read('read_file', input['path']);
  }
  return null;
}

/**
 * A Codex patch that touches one file, as the write or edit it is; more than one file, a move or a
 * delete has no single Threshold call, and stays the agent's own tool (it asks).
 */
function patch(body: string | null): MappedCall | null {
  if (body === null) return null;
  const ops = [...body.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)];
  if (ops.length !== 1 || /^\*\*\* Move to: /m.test(body)) return null;
  const [, kind, path] = ops[0]!;
  if (kind === 'Delete') return null;
  const lines = body.split('\n');
  if (kind === 'Add') {
    const start = lines.findIndex((l) => l.startsWith('*** Add File: '));
    const added = lines.slice(start + 1).filter((l) => l.startsWith('+')).map((l) => l.slice(1));
    return write(path!.trim(), added.join('\n') + (added.length ? '\n' : ''));
  }
  // An update: its hunks as the text before (kept and removed lines) and after (kept and added lines).
  const start = lines.findIndex((l) => l.startsWith('*** Update File: '));
  const before: string[] = [];
  const after: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (l.startsWith('*** ')) break;
    if (l.startsWith('@@')) {
      before.push('…');
      after.push('…');
    } else if (l.startsWith('-')) before.push(l.slice(1));
    else if (l.startsWith('+')) after.push(l.slice(1));
    else if (l.startsWith(' ')) {
      before.push(l.slice(1));
      after.push(l.slice(1));
    }
  }
  return edit(path!.trim(), before.join('\n') || '(the start of the file)', after.join('\n'));
}

/** Gemini CLI's tools (0.61): BeforeTool's tool_name and tool_input; MCP tools come with mcp_context. */
function gemini(name: string, input: Input): MappedCall | null {
  switch (name) {
    case 'run_shell_command':
      return shell(input['command'], input['dir_path']);
    case 'write_file':
      return write(input['file_path'], input['content']);
    case 'replace':
      return edit(input['file_path'], input['old_string'], input['new_string']);
    case 'read_file':
      return read('read_file', input['file_path'] ?? input['absolute_path']);
    case 'list_directory':
      return read('list_dir', input['dir_path'] ?? input['path']);
    case 'glob':
    case 'grep_search':
    case 'search_file_content':
      return search(input['pattern'], input['dir_path'] ?? input['path']);
    case 'web_fetch': {
      // Its URLs are inside the prompt; exactly one is judged as a fetch, anything else asks.
      const urls = (text(input['prompt']) ?? '').match(/https?:\/\/[^\s<>"'`)\]]+/g) ?? [];
      return urls.length === 1 ? fetch(urls[0]) : null;
    }
  }
  return null;
}

const BY_AGENT: Record<ExternalAgent, (name: string, input: Input) => MappedCall | null> = { 'claude-code': claudeCode, codex, gemini };

/**
 * Maps one tool call of an agent. `mcp` is what the agent says of an MCP call (Gemini CLI's mcp_context);
 * the name decides for the others.
 */
export function mapToolCall(agent: ExternalAgent, name: string, input: unknown, mcp?: { server: string; tool: string } | null): MappedCall {
  const args: Input = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Input) : { input };
  if (mcp && mcp.server && mcp.tool) return { tool: `mcp.${mcp.server}.${mcp.tool}`, args, rewritable: false };
  const asMcp = mcpName(name);
  if (asMcp) return { tool: asMcp, args, rewritable: false };
  return BY_AGENT[agent](name, args) ?? unknown(agent, name, args);
}
