// The desktop shell: everything the Electron main process does, with Electron's objects injected
// (ShellElectron) so it runs under test with fakes. It owns no part of the core: the CoreSupervisor
// starts, supervises and stops the process that hosts the agent loop and the executor; this file relays
// the window's IPC to it through the operations table, passes its events to the windows, and adds what a
// desktop has: the window, a tray icon with the waiting count and Quit, the badge, OS notifications and
// the OS keychain. Closing the last window leaves the core running while something waits or runs;
// Quit stops everything and says what it interrupted.
import { badgeCount } from '../../common/attention';
import { CORE_STATUS_SIGNAL, EVENT_CHANNEL, SHOW_APPROVAL_SIGNAL, type CoreStatusSignal, type ShowApprovalSignal } from '../../common/contract';
import { OPERATION_NAMES, type CoreEvent, type OperationName, type ParamsOf, type Result } from '../../common/operations';
import type { OperationHandlers } from '../../common/invoke';
import { watchAttention, type AttentionShell } from './attention';
import type { KeyUseRequest } from '../../common/key-use';
import type { CoreLink, KeyUseQuestion } from './core-link';
import type { CoreStatus, CoreSupervisor } from './core-supervisor';
import { registerHandlers, type IpcLike } from './ipc';
import { BridgeTokenKeychain, ProviderKeychain, type SafeStorageLike } from './keychain';
import { keptRunningNotice, quitSummary, trayView, type TrayView } from './tray';
import { WorkMirror, workAlive } from './work';

// ── the slices of Electron the shell uses ───────────────────────────────────────────────────────────

export interface ShellApp {
  on(event: 'window-all-closed' | 'activate' | 'second-instance', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
  setBadgeCount(count: number): unknown;
}

export interface ShellWindow {
  webContents: { send(channel: string, payload: unknown): void; on(event: 'did-finish-load', listener: () => void): unknown };
  on(event: 'closed' | 'focus', listener: () => void): unknown;
  isDestroyed(): boolean;
  isVisible(): boolean;
  isFocused(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
  flashFrame(on: boolean): void;
}

export interface ShellTray {
  setToolTip(text: string): void;
  /** macOS only: text beside the icon. */
  setTitle?(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface ShellMenuItem {
  label?: string;
  type?: 'separator';
  enabled?: boolean;
  click?: () => void;
}

export interface ShellNotification {
  show(): void;
  on(event: 'click' | 'close', listener: () => void): unknown;
}

export interface ShellElectron {
  app: ShellApp;
  /** Opens the hardened window (window.ts) on the renderer. */
  createWindow(): ShellWindow;
  windows(): ShellWindow[];
  /** The tray icon; null where the platform has none. */
  createTray(): ShellTray | null;
  buildMenu(items: ShellMenuItem[]): unknown;
  /** An OS notification; null where notifications are not supported. */
  createNotification(o: { title: string; body: string }): ShellNotification | null;
  safeStorage: SafeStorageLike;
  ipc: IpcLike;
  /**
   * Asks the person, in a native dialog on `parent` (the words: keyUseQuestion), whether the API key may
   * go to another address; true only for "Send the key", the dialog's non-default button. The dialog
   * closes, answering no, when `signal` aborts (the core stopped waiting).
   */
  confirmKeyUse(request: KeyUseRequest, parent: ShellWindow, signal: AbortSignal): Promise<boolean>;
}

export interface ShellOptions {
  electron: ShellElectron;
  supervisor: CoreSupervisor;
  dataDir: string;
  platform: NodeJS.Platform;
  /** Whether a frame URL is the app's own renderer (IPC refuses every other sender). */
  trustedFrame: (url: string) => boolean;
  /** A line for the terminal ("threshold: " is added). */
  say: (line: string) => void;
  /**
   * How often what runs is read again besides the events (a command a script started over the control
   * socket announces no state changes): 5 s.
   */
  workPollMs?: number;
}

export interface Shell {
  readonly mirror: WorkMirror;
  /** What the tray shows now. */
  tray(): TrayView;
  openWindow(): ShellWindow;
  /** Resolves with the Quit summary once everything is stopped (the app then quits). */
  readonly quitting: Promise<string>;
}

export function startShell(o: ShellOptions): Shell {
  const { electron, supervisor } = o;
  const { app } = electron;
  const keychain = new ProviderKeychain(o.dataDir, electron.safeStorage);
  // Chat bridges' tokens (docs/remote.md) are kept and handed over the same way as the provider key.
  const bridgeKeychain = new BridgeTokenKeychain(o.dataDir, electron.safeStorage);
  // The mirror reads the core that answers now and never waits for one (it is refreshed when one answers).
  const mirror = new WorkMirror((op, params) => (supervisor.link ? supervisor.link.invoke(op, params) : Promise.resolve({ ok: false, error: { code: 'core_unavailable', message: 'No core answers right now.' } })));
  const eventListeners = new Set<(e: CoreEvent) => void>();
  const shown = new Set<ShellNotification>();
  let phase: 'running' | 'quitting' | 'done' = 'running';
  let background = false;
  let resolveQuit!: (summary: string) => void;
  const quitting = new Promise<string>((resolve) => (resolveQuit = resolve));

  const windows = () => electron.windows().filter((w) => !w.isDestroyed());
  const notify = (n: { title: string; body: string }, onClick?: () => void) => {
    const notification = electron.createNotification({ title: n.title, body: n.body });
    if (!notification) return;
    // A notification that is garbage-collected loses its click handler: keep each until it closes.
    shown.add(notification);
    if (onClick) notification.on('click', onClick);
    notification.on('close', () => shown.delete(notification));
    notification.show();
  };
  const statusSignal = (s: CoreStatus): CoreStatusSignal => ({ name: CORE_STATUS_SIGNAL, payload: { state: s.state, message: s.message } });
  const broadcast = (payload: unknown) => {
    for (const w of windows()) w.webContents.send(EVENT_CHANNEL, payload);
  };

  // ── windows ─────────────────────────────────────────────────────────────────────────────────────
  const openWindow = (): ShellWindow => {
    const w = electron.createWindow();
    // A page that (re)loads learns where the core stands, and the one sentence when it is not running.
    w.webContents.on('did-finish-load', () => w.webContents.send(EVENT_CHANNEL, statusSignal(supervisor.status)));
    // The taskbar stops flashing once someone looks (attention.ts flashes it for a card nobody saw).
    w.on('focus', () => w.flashFrame(false));
    background = false;
    return w;
  };
  const showWindow = (): ShellWindow => {
    const w = windows()[0] ?? openWindow();
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
    return w;
  };

  // ── the tray ────────────────────────────────────────────────────────────────────────────────────
  const tray = electron.createTray();
  const view = () => trayView(supervisor.status, mirror.work, supervisor.core?.owned ?? true);
  const renderTray = () => {
    if (!tray || phase === 'done') return;
    const v = view();
    tray.setToolTip(v.tooltip);
    tray.setTitle?.(v.title);
    tray.setContextMenu(
      electron.buildMenu(
        v.items.map((item) =>
          item === 'separator'
            ? { type: 'separator' }
            : { label: item.label, enabled: item.enabled, click: item.action === 'open' ? () => void showWindow() : item.action === 'retry' ? () => void supervisor.retry() : item.action === 'quit' ? () => app.quit() : undefined },
        ),
      ),
    );
  };
  tray?.on('click', () => void showWindow());

  // ── the core: status, events, the keychain ──────────────────────────────────────────────────────
  supervisor.onStatus((s) => {
    broadcast(statusSignal(s));
    if (s.state !== 'open') mirror.clear();
    renderTray();
  });
  supervisor.onLink(async (link: CoreLink) => {
    link.onKeyUseQuestion((question) => void askAboutKey(question));
    link.onEvent((e) => {
      mirror.apply(e);
      for (const listener of [...eventListeners]) listener(e);
      broadcast(e);
      // notify_user: the agent's own notification, as the OS shows it.
      if (e.name === 'notification.sent') notify({ title: 'Threshold', body: e.payload.message });
    });
    // The key in the OS keychain reaches the core over this channel, never on a command line.
    const key = keychain.read();
    if (key) {
      const handed = await link.invoke('settings.set_api_key', { key });
      if (!handed.ok) o.say(`the key in the OS keychain was not handed to the core: ${handed.error.message}`);
    }
    for (const bridge of ['telegram', 'matrix'] as const) {
      const token = bridgeKeychain.read(bridge);
      if (!token) continue;
      const handed = await link.invoke('remote.set_token', { bridge, token });
      if (!handed.ok) o.say(`the ${bridge} token in the OS keychain was not handed to the core: ${handed.error.message}`);
    }
    await mirror.refresh();
    const settings = await link.invoke('settings.get');
    const jail = settings.ok ? (settings.value as { jail: { problem: unknown; warning: string | null } }).jail : null;
    // One sentence with the fix (the core words it: "Commands cannot run: <cause>. Fix: <fix>.").
    return jail?.problem && jail.warning ? jail.warning : null;
  });
  const poll = setInterval(() => {
    if (supervisor.link && phase === 'running') void mirror.refresh();
  }, o.workPollMs ?? 5_000);
  poll.unref();
  mirror.onChange((w) => {
    app.setBadgeCount(badgeCount(w.pending.length));
    renderTray();
    // The window was closed while work was alive: once it is over, the app goes too (not on macOS).
    if (background && phase === 'running' && !workAlive(w) && windows().length === 0 && o.platform !== 'darwin') app.quit();
  });

  const attentionShell: AttentionShell = {
    setBadgeCount: (n) => void app.setBadgeCount(n),
    attended: () => windows().some((w) => w.isVisible() && w.isFocused()),
    notify: (notice, onClick) => notify(notice, onClick),
    flashFrame: (on) => {
      for (const w of windows()) w.flashFrame(on);
    },
    showApproval: (id) => {
      const w = showWindow();
      const signal: ShowApprovalSignal = { name: SHOW_APPROVAL_SIGNAL, payload: { id } };
      w.webContents.send(EVENT_CHANNEL, signal);
    },
  };
  const stopAttention = watchAttention({
    shell: attentionShell,
    pending: () => mirror.work.pending,
    subscribe: (listener) => {
      eventListeners.add(listener);
      return () => void eventListeners.delete(listener);
    },
  });

  // ── the API key question: the core asks, the person answers in a native dialog ───────────────────
  // One dialog at a time, on the window (brought forward), in the order asked. A question the core no
  // longer waits for is not shown; while quitting, or if the dialog fails, the answer is no.
  let keyQuestions = Promise.resolve();
  const askAboutKey = (question: KeyUseQuestion): Promise<void> =>
    (keyQuestions = keyQuestions.then(async () => {
      if (question.signal.aborted || phase !== 'running') return void (await question.answer(false));
      const send = await electron.confirmKeyUse(question.request, showWindow(), question.signal).catch(() => false);
      await question.answer(send === true && !question.signal.aborted);
    }));

  // ── IPC: the window's operations, relayed through the operations table ─────────────────────────
  registerHandlers(electron.ipc, { handlers: relayHandlers(supervisor, keychain, bridgeKeychain), trustedFrame: o.trustedFrame });

  // ── closing and quitting ────────────────────────────────────────────────────────────────────────
  app.on('window-all-closed', () => {
    if (phase !== 'running') return;
    const notice = supervisor.status.state === 'open' ? keptRunningNotice(mirror.work) : null;
    if (notice) {
      // The core stays for what waits or runs; the tray says so.
      background = true;
      notify(notice, () => void showWindow());
      renderTray();
      return;
    }
    if (o.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (windows().length === 0) openWindow();
  });
  app.on('second-instance', () => void showWindow());
  app.on('before-quit', (event) => {
    if (phase === 'done') return;
    event.preventDefault();
    if (phase === 'quitting') return;
    phase = 'quitting';
    void quitEverything().then((summary) => {
      phase = 'done';
      resolveQuit(summary);
      app.quit();
    });
  });

  const quitEverything = async (): Promise<string> => {
    // What is alive now, as fresh as the core can say within a moment.
    if (supervisor.status.state === 'open') await Promise.race([mirror.refresh(), new Promise((r) => setTimeout(r, 2000).unref())]);
    const work = mirror.work;
    const report = await supervisor.stop();
    const summary = quitSummary(work, report, o.dataDir);
    o.say(summary);
    if (report.stopped && workAlive(work)) notify({ title: 'Threshold quit', body: summary });
    clearInterval(poll);
    stopAttention();
    tray?.destroy();
    return summary;
  };

  renderTray();
  openWindow();
  void supervisor.start();
  return { mirror, tray: view, openWindow, quitting };
}

/** The window's operations: each one forwarded to the core; the API key goes to the OS keychain first. */
export function relayHandlers(supervisor: Pick<CoreSupervisor, 'invoke'>, keychain: Pick<ProviderKeychain, 'write'>, bridgeKeychain?: Pick<BridgeTokenKeychain, 'write'>): OperationHandlers {
  const handlers = Object.fromEntries(OPERATION_NAMES.map((name) => [name, (params: unknown) => supervisor.invoke(name, params)])) as Record<OperationName, (params: unknown) => Promise<Result<unknown>>>;
  handlers['settings.set_api_key'] = async (params) => {
    const stored = keychain.write((params as ParamsOf<'settings.set_api_key'>).key);
    if (!stored.ok) return stored;
    return supervisor.invoke('settings.set_api_key', params);
  };
  // A bridge token typed in the window: into the OS keychain first, then to the core (which keeps it in memory).
  if (bridgeKeychain)
    handlers['remote.set_token'] = async (params) => {
      const p = params as ParamsOf<'remote.set_token'>;
      const stored = bridgeKeychain.write(p.bridge, p.token);
      if (!stored.ok) return stored;
      return supervisor.invoke('remote.set_token', params);
    };
  return handlers as OperationHandlers;
}
