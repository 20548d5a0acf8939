// Attention in the desktop app: the dock/launcher badge counts the cards waiting, and a card that
// arrives while no window is visible and focused raises an OS notification (tool, class and session
// only: common/attention.ts) and flashes the taskbar entry; clicking the notification brings the window
// forward on that card. Electron's objects are injected (AttentionShell) so this is tested with fakes.
import type { PendingApproval } from '../../common/approvals';
import { approvalNotice, badgeCount, type AttentionNotice } from '../../common/attention';
import type { CoreEvent } from '../../common/operations';

export interface AttentionShell {
  /** The dock (macOS) or launcher (Linux) badge; 0 clears it. */
  setBadgeCount(n: number): void;
  /** Whether someone is looking: a window is visible and focused. */
  attended(): boolean;
  /** Shows an OS notification; onClick runs when the person clicks it. No actions, no reply field. */
  notify(notice: AttentionNotice, onClick: () => void): void;
  /** Asks the taskbar to flash (on) or stop (off). */
  flashFrame(on: boolean): void;
  /** Brings a window forward and shows that card in it. */
  showApproval(id: string): void;
}

export interface AttentionDeps {
  shell: AttentionShell;
  pending: () => PendingApproval[];
  subscribe: (listener: (event: CoreEvent) => void) => () => void;
}

/** Starts watching; returns the function that stops it (and clears the badge). */
export function watchAttention(d: AttentionDeps): () => void {
  const update = () => {
    const waiting = d.pending().length;
    d.shell.setBadgeCount(badgeCount(waiting));
    if (waiting === 0) d.shell.flashFrame(false);
    return waiting;
  };
  update();
  const off = d.subscribe((e) => {
    if (e.name === 'approval.decided') return void update();
    if (e.name !== 'approval.requested') return;
    const waiting = update();
    if (d.shell.attended()) return;
    const card = e.payload;
    d.shell.flashFrame(true);
    d.shell.notify(approvalNotice(card, waiting), () => d.shell.showApproval(card.id));
  });
  return () => {
    off();
    d.shell.setBadgeCount(0);
  };
}
