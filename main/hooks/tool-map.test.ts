// Each agent's tools as Threshold's: the documented shapes map onto the tool that judges them the same
// way; anything else (an unknown tool, a known tool with the wrong shape) stays the agent's own tool and
// asks. A name is never trusted to make a call lighter than its arguments.
import { describe, expect, it } from 'vitest';
import type { ExternalAgent } from '../../common/external-agents';
import { mapToolCall, type MappedCall } from './tool-map';

const cases: { name: string; agent: ExternalAgent; tool: string; input: unknown; mcp?: { server: string; tool: string }; want: MappedCall }[] = [
  // Claude Code
  { name: 'Claude Code Bash is run_command (and can go to the jail)', agent: 'claude-code', tool: 'Bash', input: { command: 'npm test', description: 'tests', timeout: 60000 }, want: { tool: 'run_command', args: { command: 'npm test' }, rewritable: true } },
  { name: 'Claude Code Write is write_file', agent: 'claude-code', tool: 'Write', input: { file_path: '/p/a.ts', content: 'x' }, want: { tool: 'write_file', args: { path: '/p/a.ts', content: 'x' }, rewritable: false } },
  { name: 'Claude Code Edit is edit_file', agent: 'claude-code', tool: 'Edit', input: { file_path: '/p/a.ts', old_string: 'a', new_string: 'b', replace_all: true }, want: { tool: 'edit_file', args: { path: '/p/a.ts', old: 'a', new: 'b' }, rewritable: false } },
  { name: 'Claude Code Edit of nothing creates the file: write_file', agent: 'claude-code', tool: 'Edit', input: { file_path: '/p/new.ts', old_string: '', new_string: 'b' }, want: { tool: 'write_file', args: { path: '/p/new.ts', content: 'b' }, rewritable: false } },
  { name: 'Claude Code MultiEdit is one edit_file showing every edit', agent: 'claude-code', tool: 'MultiEdit', input: { file_path: '/p/a.ts', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd' }] }, want: { tool: 'edit_file', args: { path: '/p/a.ts', old: '--- edit 1 of 2 ---\na\n--- edit 2 of 2 ---\nc', new: '--- edit 1 of 2 ---\nb\n--- edit 2 of 2 ---\nd' }, rewritable: false } },
  { name: 'Claude Code NotebookEdit is an edit of the notebook file', agent: 'claude-code', tool: 'NotebookEdit', input: { notebook_path: '/p/n.ipynb', cell_id: 'c1', new_source: 'print(1)' }, want: { tool: 'edit_file', args: { path: '/p/n.ipynb', old: 'notebook cell c1 (replace)', new: 'print(1)' }, rewritable: false } },
  { name: 'Claude Code Read is read_file', agent: 'claude-code', tool: 'Read', input: { file_path: '/p/a.ts', offset: 1 }, want: { tool: 'read_file', args: { path: '/p/a.ts' }, rewritable: false } },
  { name: 'Claude Code Grep is search_files', agent: 'claude-code', tool: 'Grep', input: { pattern: 'TODO', path: '/p' }, want: { tool: 'search_files', args: { pattern: 'TODO', path: '/p' }, rewritable: false } },
  { name: 'Claude Code WebFetch is web_fetch', agent: 'claude-code', tool: 'WebFetch', input: { url: 'https://example.com/', prompt: 'summarise' }, want: { tool: 'web_fetch', args: { url: 'https://example.com/' }, rewritable: false } },
  { name: 'Claude Code MCP tools are mcp.<server>.<tool>', agent: 'claude-code', tool: 'mcp__github__create_issue', input: { title: 't' }, want: { tool: 'mcp.github.create_issue', args: { title: 't' }, rewritable: false } },
  { name: 'an MCP server name with underscores keeps them', agent: 'claude-code', tool: 'mcp__my_server__do_it', input: {}, want: { tool: 'mcp.my_server.do_it', args: {}, rewritable: false } },
  { name: 'a Claude Code tool Threshold does not know is its own, at least a write', agent: 'claude-code', tool: 'Workflow', input: { script: 'x' }, want: { tool: 'external.claude-code.Workflow', args: { script: 'x' }, rewritable: false } },
  { name: 'Bash without a command is not guessed at: the unknown tool asks', agent: 'claude-code', tool: 'Bash', input: { cmd: 'rm -rf /' }, want: { tool: 'external.claude-code.Bash', args: { cmd: 'rm -rf /' }, rewritable: false } },
  { name: 'Write with content that is not text is not guessed at', agent: 'claude-code', tool: 'Write', input: { file_path: '/p/a', content: { x: 1 } }, want: { tool: 'external.claude-code.Write', args: { file_path: '/p/a', content: { x: 1 } }, rewritable: false } },
  { name: 'a tool name cannot smuggle a dot into the policy name', agent: 'claude-code', tool: 'TodoWrite.x', input: {}, want: { tool: 'external.claude-code.TodoWrite_x', args: {}, rewritable: false } },
  { name: 'input that is not an object is kept, wrapped, for the card', agent: 'claude-code', tool: 'Mystery', input: 'rm -rf /', want: { tool: 'external.claude-code.Mystery', args: { input: 'rm -rf /' }, rewritable: false } },
  // Codex
  { name: 'Codex Bash is run_command', agent: 'codex', tool: 'Bash', input: { command: 'cargo test' }, want: { tool: 'run_command', args: { command: 'cargo test' }, rewritable: true } },
  { name: 'a Codex patch adding one file is write_file with its lines', agent: 'codex', tool: 'apply_patch', input: { command: '*** Begin Patch\n*** Add File: hello.txt\n+hi\n+there\n*** End Patch\n' }, want: { tool: 'write_file', args: { path: 'hello.txt', content: 'hi\nthere\n' }, rewritable: false } },
  { name: 'a Codex patch updating one file is edit_file, before and after', agent: 'codex', tool: 'apply_patch', input: { command: '*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch\n' }, want: { tool: 'edit_file', args: { path: 'a.py', old: '…\n    return 1', new: '…\n    return 2' }, rewritable: false } },
  { name: 'a Codex patch touching two files stays the agent\'s own tool', agent: 'codex', tool: 'apply_patch', input: { command: '*** Begin Patch\n*** Add File: a\n+1\n*** Add File: b\n+2\n*** End Patch\n' }, want: { tool: 'external.codex.apply_patch', args: { command: '*** Begin Patch\n*** Add File: a\n+1\n*** Add File: b\n+2\n*** End Patch\n' }, rewritable: false } },
  { name: 'a Codex patch that deletes a file stays the agent\'s own tool', agent: 'codex', tool: 'apply_patch', input: { command: '*** Begin Patch\n*** Delete File: a\n*** End Patch\n' }, want: { tool: 'external.codex.apply_patch', args: { command: '*** Begin Patch\n*** Delete File: a\n*** End Patch\n' }, rewritable: false } },
  { name: 'a Codex patch that moves a file stays the agent\'s own tool', agent: 'codex', tool: 'apply_patch', input: { command: '*** Begin Patch\n*** Update File: a\n*** Move to: /etc/passwd\n-x\n+y\n*** End Patch\n' }, want: { tool: 'external.codex.apply_patch', args: { command: '*** Begin Patch\n*** Update File: a\n*** Move to: /etc/passwd\n-x\n+y\n*** End Patch\n' }, rewritable: false } },
  { name: 'Codex MCP tools are mcp.<server>.<tool>', agent: 'codex', tool: 'mcp__tfiles__echo', input: { text: 'hi' }, want: { tool: 'mcp.tfiles.echo', args: { text: 'hi' }, rewritable: false } },
  { name: 'Codex view_image is a file read', agent: 'codex', tool: 'view_image', input: { path: '/p/a.png' }, want: { tool: 'read_file', args: { path: '/p/a.png' }, rewritable: false } },
  // Gemini CLI
  { name: 'Gemini run_shell_command is run_command in its folder', agent: 'gemini', tool: 'run_shell_command', input: { command: 'make', dir_path: 'sub', description: 'build' }, want: { tool: 'run_command', args: { command: 'make', cwd: 'sub' }, rewritable: true } },
  { name: 'Gemini replace is edit_file', agent: 'gemini', tool: 'replace', input: { file_path: '/p/a', old_string: 'x', new_string: 'y', instruction: 'fix' }, want: { tool: 'edit_file', args: { path: '/p/a', old: 'x', new: 'y' }, rewritable: false } },
  { name: 'Gemini web_fetch with one URL in its prompt is web_fetch', agent: 'gemini', tool: 'web_fetch', input: { prompt: 'Summarise https://example.com/page please' }, want: { tool: 'web_fetch', args: { url: 'https://example.com/page' }, rewritable: false } },
  { name: 'Gemini web_fetch with two URLs is not split into one: it asks', agent: 'gemini', tool: 'web_fetch', input: { prompt: 'Compare https://a.example/ and https://b.example/' }, want: { tool: 'external.gemini.web_fetch', args: { prompt: 'Compare https://a.example/ and https://b.example/' }, rewritable: false } },
  { name: 'Gemini MCP calls are named by their mcp_context', agent: 'gemini', tool: 'tfiles__echo', input: { text: 'x' }, mcp: { server: 'tfiles', tool: 'echo' }, want: { tool: 'mcp.tfiles.echo', args: { text: 'x' }, rewritable: false } },
  { name: 'Gemini write_todos is its own (bookkeeping) tool', agent: 'gemini', tool: 'write_todos', input: { todos: [] }, want: { tool: 'external.gemini.write_todos', args: { todos: [] }, rewritable: false } },
];

describe('mapping another agent\'s tool call onto Threshold\'s', () => {
  it.each(cases)('$name', ({ agent, tool, input, mcp, want }) => {
    expect(mapToolCall(agent, tool, input, mcp)).toEqual(want);
  });
});
