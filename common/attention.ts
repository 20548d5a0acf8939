// What Threshold says when a card waits and nobody is looking: the window title, the badge count and
// the OS notification's words. One place for both the Electron main process and the page (web mode).
// A notification names the tool, the class and the session only: never the command, a path or any
// argument (it shows on a lock screen, beyond the card's redaction and reveal rules), and it offers no
// approve button (the call cannot be reviewed there).
import type { PendingApproval } from './approvals';
import type { Class } from './domain';
import { visibleText } from './visible-text';

export const APP_TITLE = 'Threshold';

const CLASS_NAMES: Record<Class, string> = { read: 'Read', write: 'Write', network: 'Network', install: 'Install', destructive: 'Destructive' };

/** The window's (and the browser tab's) title: the count first, so it shows in a narrow tab. */
export function attentionTitle(waiting: number): string {
  if (waiting <= 0) return APP_TITLE;
  return `(${waiting}) ${APP_TITLE}: ${waiting === 1 ? '1 approval waits' : `${waiting} approvals wait`}`;
}

/** The badge's number: the cards waiting, capped at what a badge can show. */
export function badgeCount(waiting: number): number {
  return Math.max(0, Math.min(waiting, 99));
}

export interface AttentionNotice {
  title: string;
  body: string;
  /** Collapses repeated notices about one approval (the Web Notifications tag). */
  tag: string;
}

/** The notification for a card: tool, class and session, nothing from the call's arguments. */
export function approvalNotice(p: Pick<PendingApproval, 'id' | 'tool' | 'class' | 'session_id'>, waiting: number): AttentionNotice {
  const more = waiting > 1 ? ` (${waiting} waiting)` : '';
  return { title: `${APP_TITLE}: approval needed${more}`, body: `${line(p.tool)} · class ${CLASS_NAMES[p.class]} · session ${line(p.session_id)}`, tag: `approval-${p.id}` };
}

/** The polite live region's line for a new card (the same limits as a notification). */
export function arrivalAnnouncement(p: Pick<PendingApproval, 'tool' | 'class' | 'session_id'>, waiting: number): string {
  return `Approval needed: ${line(p.tool)}, class ${CLASS_NAMES[p.class]}, session ${line(p.session_id)}. ${waiting === 1 ? '1 approval waits' : `${waiting} approvals wait`}, in that session's chat.`;
}

/** A tool's name and a session's id come from the model or a script: one line, hidden characters as escapes. */
function line(s: string): string {
  return visibleText(s, { oneLine: true });
}
