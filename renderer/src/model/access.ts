// Words and small pure rules of Settings → Agent access: what each level lets run, where a value comes
// from, and the page's unsaved draft (a change is kept until Save or Discard).
import type { z } from 'zod';
import type { Level } from '../../../common/domain';
import type { accessChangeSchema, layerNameSchema, settingsViewSchema } from '../../../common/operations';

export type SettingsView = z.output<typeof settingsViewSchema>;
export type AccessView = SettingsView['access'];
export type AccessDraft = z.output<typeof accessChangeSchema>;
export type LayerName = z.output<typeof layerNameSchema>;

export const LEVEL_WORDS: Record<Level, { name: string; sentence: string }> = {
  'read-only': { name: 'Read-only', sentence: 'Only reads run; anything that would change something is refused, whatever a rule or grant says.' },
  supervised: { name: 'Supervised', sentence: 'Reads run; every write, command with an effect, network or install call asks you first (grants and allow rules still apply).' },
  'auto-edit': {
    name: 'Auto-edit',
    sentence: 'Writes inside the workspace run unasked, in the jail without network and after a checkpoint of the workspace, so each can be undone; everything else asks.',
  },
  full: { name: 'Full', sentence: 'Everything outside the floors runs unasked. Destructive commands, credential reads, capability changes and questions still ask you.' },
};

export const EFFECT_WORDS: Record<string, string> = {
  file_read: 'Reading files',
  file_write: 'Writing files',
  file_delete: 'Deleting files',
  command_exec: 'Running commands',
  network: 'Network access',
  install: 'Installing software',
  destructive: 'Destructive changes',
  secret_read: 'Reading credentials',
  desktop_open: 'Opening files and links on the desktop',
  mcp_call: 'Calling MCP tools',
  capability_change: 'Changing what the agent can do',
  human_input: 'Asking you questions',
};

/** Where a value comes from, in words (with the file's path where there is one). */
export function sourceText(source: LayerName, files: { config: string | null; managed: string | null }): string {
  switch (source) {
    case 'default':
      return 'built-in default';
    case 'file':
      return files.config ? `config file (${files.config})` : 'config file';
    case 'ui':
      return 'this page';
    case 'managed':
      return files.managed ? `managed policy (${files.managed})` : 'managed policy';
  }
}

/** A timeout in words; 0 waits indefinitely. */
export function timeoutText(seconds: number): string {
  if (seconds === 0) return 'waits indefinitely';
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** Adds one edit to the draft; rule maps merge key by key. */
export function mergeDraft(draft: AccessDraft, edit: AccessDraft): AccessDraft {
  const next: AccessDraft = { ...draft, ...edit };
  if (draft.effects || edit.effects) next.effects = { ...draft.effects, ...edit.effects };
  if (draft.tools || edit.tools) next.tools = { ...draft.tools, ...edit.tools };
  return next;
}

export function draftIsEmpty(d: AccessDraft): boolean {
  return Object.entries(d).every(([k, v]) => v === undefined || ((k === 'effects' || k === 'tools') && Object.keys(v as object).length === 0));
}

/** A rule's value as the page would have it with the draft applied: undefined = unchanged, null = cleared. */
export function draftedRule(draft: AccessDraft, kind: 'effects' | 'tools', name: string): string | null | undefined {
  const map = draft[kind] as Record<string, string | null> | undefined;
  return map && Object.hasOwn(map, name) ? map[name] : undefined;
}
