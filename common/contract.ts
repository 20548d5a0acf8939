// The IPC contract between the renderer and the main process. Everything here is derived from the
// operations table (common/operations.ts): each operation's canonical name is its IPC channel, and the
// AppApi type both the Electron preload and the web bridge implement comes from the table.
import type { z } from 'zod';
import type { agentInfoSchema, appInfoSchema, questionViewSchema, sessionViewSchema, settingsViewSchema, transcriptEntrySchema } from './operations';

export { VERBS, type AppApi, type AppVerb, type CoreEvent, type Result } from './operations';

/** Main → renderer: one channel carrying every core event as `{ name, payload }`. */
export const EVENT_CHANNEL = 'core.event';
/**
 * Sent by the desktop's main process on EVENT_CHANNEL (not a core event): the person clicked the OS
 * notification of approval `payload.id`, so the page shows that card.
 */
export const SHOW_APPROVAL_SIGNAL = 'ui.show_approval';
export type ShowApprovalSignal = { name: typeof SHOW_APPROVAL_SIGNAL; payload: { id: string } };
export function isShowApprovalSignal(e: unknown): e is ShowApprovalSignal {
  const s = e as { name?: unknown; payload?: { id?: unknown } } | null;
  return !!s && s.name === SHOW_APPROVAL_SIGNAL && typeof s.payload?.id === 'string';
}

export type AppInfo = z.output<typeof appInfoSchema>;
export type SettingsView = z.output<typeof settingsViewSchema>;
export type AgentInfo = z.output<typeof agentInfoSchema>;
export type SessionView = z.output<typeof sessionViewSchema>;
export type TranscriptEntry = z.output<typeof transcriptEntrySchema>;
export type QuestionView = z.output<typeof questionViewSchema>;
