// The IPC contract between the renderer and the main process. Everything here is derived from the
// operations table (common/operations.ts): each operation's canonical name is its IPC channel, and the
// AppApi type both the Electron preload and the web bridge implement comes from the table.
import type { z } from 'zod';
import type { appInfoSchema, questionViewSchema, sessionViewSchema, settingsViewSchema, transcriptEntrySchema } from './operations';

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
export type SessionView = z.output<typeof sessionViewSchema>;
export type TranscriptEntry = z.output<typeof transcriptEntrySchema>;
export type QuestionView = z.output<typeof questionViewSchema>;

/**
 * Sent by the desktop's main process on EVENT_CHANNEL (not a core event): where the core stands. open:
 * calls reach it (the page reloads what it shows); starting/restarting: calls wait for it; stopped: it
 * could not start, and `message` is the one sentence that names the fix. `message` may also carry a
 * problem of a running core (the jail cannot start).
 */
export const CORE_STATUS_SIGNAL = 'ui.core_status';
export const CORE_STATES = ['starting', 'open', 'restarting', 'stopped'] as const;
export type CoreState = (typeof CORE_STATES)[number];
export type CoreStatusSignal = { name: typeof CORE_STATUS_SIGNAL; payload: { state: CoreState; message: string | null } };
export function isCoreStatusSignal(e: unknown): e is CoreStatusSignal {
  const s = e as { name?: unknown; payload?: { state?: unknown; message?: unknown } } | null;
  return !!s && s.name === CORE_STATUS_SIGNAL && (CORE_STATES as readonly unknown[]).includes(s.payload?.state) && (typeof s.payload?.message === 'string' || s.payload?.message === null);
}
