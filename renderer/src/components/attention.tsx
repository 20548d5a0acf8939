// Being told when a card waits: the title (both runtimes; Electron shows the page's title on the window)
// and, in web mode, the favicon's count and a Web Notification once the person allows it. The desktop
// app's badge and OS notifications come from its main process (main/app/attention.ts); its window denies
// the page's own notification permission. A notification names the tool, class and session only.
import { useContext, useEffect, useRef, useState } from 'react';
import { approvalNotice, attentionTitle, badgeCount } from '../../../common/attention';
import { StoreContext, useApp } from '../store/store';

type Permission = 'default' | 'granted' | 'denied' | 'unsupported';

function permissionNow(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Whether nobody is looking at this page: another tab, a minimised window, or another app in front. */
function unattended(): boolean {
  return document.visibilityState === 'hidden' || !document.hasFocus();
}

/** The favicon: Threshold's square, with the count on a red disc while cards wait. */
export function faviconHref(waiting: number): string {
  const n = badgeCount(waiting);
  const badge = n ? `<circle cx="22" cy="10" r="10" fill="#c62828"/><text x="22" y="14.5" font-family="sans-serif" font-size="${n > 9 ? 11 : 13}" font-weight="bold" fill="#fff" text-anchor="middle">${n}</text>` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="6" width="24" height="24" rx="5" fill="#1f3a5f"/><text x="14" y="25" font-family="sans-serif" font-size="17" font-weight="bold" fill="#fff" text-anchor="middle">T</text>${badge}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function setFavicon(href: string): void {
  let link = document.querySelector<HTMLLinkElement>('link#favicon');
  if (!link) {
    link = document.createElement('link');
    link.id = 'favicon';
    link.rel = 'icon';
    link.type = 'image/svg+xml';
    document.head.appendChild(link);
  }
  link.href = href;
}

export function Attention() {
  const waiting = useApp((s) => s.pending.length);
  const runtime = useApp((s) => s.info?.runtime);
  const arrival = useApp((s) => s.lastArrival);
  const store = useContext(StoreContext);
  // Each arrival notifies at most once, whatever else re-runs the effect.
  const notified = useRef(0);

  useEffect(() => {
    document.title = attentionTitle(waiting);
    if (runtime === 'web') setFavicon(faviconHref(waiting));
  }, [waiting, runtime]);

  useEffect(() => {
    if (!arrival || arrival.n <= notified.current || runtime !== 'web' || permissionNow() !== 'granted' || !unattended()) return;
    notified.current = arrival.n;
    // The list as it is when the card arrived (not a dependency: later changes notify nothing).
    const s = store!.getState();
    const card = s.pending.find((p) => p.id === arrival.id);
    if (!card) return;
    const notice = approvalNotice(card, s.pending.length);
    const n = new Notification(notice.title, { body: notice.body, tag: notice.tag });
    n.onclick = () => {
      window.focus();
      s.showApproval(card.id);
      n.close();
    };
  }, [arrival, runtime, store]);
  return null;
}

/** Web mode: the switch that asks the browser for notifications (it must come from a click). */
export function NotificationsSwitch() {
  const runtime = useApp((s) => s.info?.runtime);
  const [permission, setPermission] = useState<Permission>(permissionNow);
  if (runtime !== 'web' || permission === 'granted' || permission === 'unsupported') return null;
  if (permission === 'denied') return <span className="notify-state">Notifications are blocked for this page (browser settings)</span>;
  return (
    <button type="button" className="notify-switch" onClick={() => void Notification.requestPermission().then((p) => setPermission(p))}>
      Notify me when a card waits
    </button>
  );
}
