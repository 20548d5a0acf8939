// The words of the tray icon and its menu, and what Quit says it interrupted: pure functions of the
// core's state and its work, so each sentence is tested without Electron.
import type { CoreStatus } from './core-supervisor';
import type { StopReport } from './core-supervisor';
import { waitingCount, workAlive, type Work } from './work';

export type TrayAction = 'open' | 'retry' | 'quit';
export interface TrayItem {
  label: string;
  enabled: boolean;
  action: TrayAction | null;
}
export interface TrayView {
  tooltip: string;
  /** Text beside the icon where the platform shows some (the macOS menu bar): the waiting count. */
  title: string;
  items: (TrayItem | 'separator')[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 waiting, 1 turn running", or null when nothing waits or runs. */
export function workLine(w: Work): string | null {
  const parts: string[] = [];
  const waiting = waitingCount(w);
  if (waiting) parts.push(`${waiting} waiting`);
  if (w.turns) parts.push(`${plural(w.turns, 'turn')} running`);
  else if (w.commands.length) parts.push(`${plural(w.commands.length, 'command')} running`);
  return parts.length ? parts.join(', ') : null;
}

/** What Quit would stop, for its menu label: "1 turn, 1 command". */
function interrupts(w: Work): string[] {
  const parts: string[] = [];
  if (w.turns) parts.push(plural(w.turns, 'turn'));
  if (w.commands.length) parts.push(plural(w.commands.length, 'running command'));
  if (w.questions) parts.push(plural(w.questions, 'open question'));
  return parts;
}

export function trayView(status: CoreStatus, w: Work, owned: boolean): TrayView {
  const line = workLine(w);
  const tooltip =
    status.state === 'stopped' ? 'Threshold — the core is not running'
    : status.state === 'restarting' ? 'Threshold — restarting the core…'
    : status.state === 'starting' ? 'Threshold — starting…'
    : line ? `Threshold — ${line}` : 'Threshold';
  const stops = owned ? interrupts(w) : [];
  const items: (TrayItem | 'separator')[] = [
    { label: 'Open Threshold', enabled: true, action: 'open' },
    { label: status.state === 'stopped' ? (status.message ?? 'The core is not running.') : (line ? capitalise(line) : 'Nothing waiting or running'), enabled: false, action: null },
  ];
  if (status.state === 'stopped') items.push({ label: 'Start the core again', enabled: true, action: 'retry' });
  items.push('separator', { label: stops.length ? `Quit Threshold (stops ${stops.join(', ')})` : 'Quit Threshold', enabled: true, action: 'quit' });
  const waiting = waitingCount(w);
  return { tooltip, title: status.state === 'open' && waiting ? String(waiting) : '', items };
}

/** The notification when the last window closes and the core stays for the work still alive. */
export function keptRunningNotice(w: Work): { title: string; body: string } | null {
  if (!workAlive(w)) return null;
  return { title: `Threshold keeps running: ${workLine(w)}`, body: 'Open it from the tray icon to answer; Quit there stops everything.' };
}

/** What Quit says on the terminal (and in a notification when it stopped something). */
export function quitSummary(w: Work, report: StopReport, dataDir: string): string {
  if (!report.stopped) {
    return report.pid === null ? 'Threshold quit.' : `Threshold quit; the core serving ${dataDir} (pid ${report.pid}) was started outside the desktop app and keeps running.`;
  }
  const stopped = interrupts(w);
  const kept = w.pending.length;
  const parts = [stopped.length ? `Threshold quit: it stopped ${joinAnd(stopped)}` : 'Threshold quit: nothing was running'];
  if (kept) parts.push(`${kept === 1 ? '1 approval stays' : `${kept} approvals stay`} waiting for the next start`);
  return `${parts.join('; ')}.${report.forced ? ' The core did not stop in time and was killed.' : ''}`;
}

function joinAnd(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
