// A stand-in for the slices of Electron the desktop shell uses (main/app/shell.ts ShellElectron): an app
// that emits its lifecycle events, windows that record what is sent to them, a tray that records its
// tooltip and menu, notifications that record what they showed, a safeStorage that "encrypts" by
// reversing and prefixing, and an ipcMain whose handlers a test invokes as a frame would. Electron itself
// cannot run on this machine; everything the shell decides is checked against these.
import type { IpcEventLike } from '../../main/app/ipc';
import type { ShellElectron, ShellMenuItem, ShellNotification, ShellTray, ShellWindow } from '../../main/app/shell';

type Listener = (...args: never[]) => void;

class Emitter {
  private readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) (l as (...a: unknown[]) => void)(...args);
  }
}

export class FakeApp extends Emitter {
  badge = 0;
  /** Set once a quit was not prevented by any before-quit listener. */
  quitted = false;
  quit(): void {
    if (this.quitted) return;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.quitted = true;
  }
  setBadgeCount(n: number): boolean {
    this.badge = n;
    return true;
  }
}

export class FakeWindow extends Emitter implements ShellWindow {
  readonly sent: { channel: string; payload: unknown }[] = [];
  destroyed = false;
  visible = true;
  focused = true;
  minimized = false;
  flashing = false;
  /** Where sent messages also go (a page standing in for the renderer). */
  sink: ((channel: string, payload: unknown) => void) | null = null;
  private readonly contents = new Emitter();
  readonly webContents = {
    send: (channel: string, payload: unknown) => {
      this.sent.push({ channel, payload });
      this.sink?.(channel, payload);
    },
    on: (event: 'did-finish-load', listener: () => void) => this.contents.on(event, listener),
  };
  constructor(private readonly onClosed: (w: FakeWindow) => void) {
    super();
  }
  /** The page finished loading (Electron's did-finish-load). */
  loaded(): void {
    this.contents.emit('did-finish-load');
  }
  /** The person closes it. */
  close(): void {
    this.destroyed = true;
    this.emit('closed');
    this.onClosed(this);
  }
  isDestroyed = () => this.destroyed;
  isVisible = () => this.visible;
  isFocused = () => this.focused;
  isMinimized = () => this.minimized;
  restore = () => void (this.minimized = false);
  show = () => void (this.visible = true);
  focus = () => void (this.focused = true);
  flashFrame = (on: boolean) => void (this.flashing = on);
}

export class FakeTray extends Emitter implements ShellTray {
  tooltip = '';
  title = '';
  menu: ShellMenuItem[] = [];
  destroyed = false;
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setTitle(text: string): void {
    this.title = text;
  }
  setContextMenu(menu: unknown): void {
    this.menu = menu as ShellMenuItem[];
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** Clicks the menu item whose label starts with `label`. */
  click(label: string): void {
    const item = this.menu.find((i) => i.label?.startsWith(label));
    if (!item?.click) throw new Error(`no menu item "${label}" in: ${this.menu.map((i) => i.label ?? '—').join(' | ')}`);
    item.click();
  }
  labels(): string[] {
    return this.menu.map((i) => (i.type === 'separator' ? '—' : (i.label ?? '')));
  }
}

class FakeNotification extends Emitter implements ShellNotification {
  constructor(
    readonly options: { title: string; body: string },
    private readonly shown: FakeNotification[],
  ) {
    super();
  }
  show(): void {
    this.shown.push(this);
  }
  click(): void {
    this.emit('click');
  }
}

export class FakeIpc {
  readonly handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void {
    this.handlers.set(channel, listener);
  }
  /** What the renderer's ipcRenderer.invoke(channel, payload) gets, from a frame at `url`. */
  async invoke(channel: string, payload: unknown, url = 'app://threshold/index.html'): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler({ senderFrame: { url } }, payload);
  }
}

export interface FakeElectron extends ShellElectron {
  app: FakeApp;
  ipc: FakeIpc;
  all: FakeWindow[];
  trays: FakeTray[];
  notifications: FakeNotification[];
  tray(): FakeTray;
  /** The window opened last. */
  window(): FakeWindow;
}

export function fakeElectron(opts: { tray?: boolean; encryption?: boolean } = {}): FakeElectron {
  const app = new FakeApp();
  const all: FakeWindow[] = [];
  const trays: FakeTray[] = [];
  const notifications: FakeNotification[] = [];
  const electron: FakeElectron = {
    app,
    ipc: new FakeIpc(),
    all,
    trays,
    notifications,
    createWindow: () => {
      // Like BrowserWindow: closing the last one emits window-all-closed.
      const w = new FakeWindow(() => {
        if (all.every((x) => x.destroyed)) app.emit('window-all-closed');
      });
      all.push(w);
      return w;
    },
    windows: () => all.filter((w) => !w.destroyed),
    createTray: () => {
      if (opts.tray === false) return null;
      const t = new FakeTray();
      trays.push(t);
      return t;
    },
    buildMenu: (items) => items,
    createNotification: (o) => new FakeNotification(o, notifications),
    safeStorage: {
      isEncryptionAvailable: () => opts.encryption !== false,
      encryptString: (plain) => Buffer.from(`enc:${[...plain].reverse().join('')}`),
      decryptString: (encrypted) => {
        const text = encrypted.toString();
        if (!text.startsWith('enc:')) throw new Error('not ours');
        return [...text.slice(4)].reverse().join('');
      },
    },
    tray: () => trays[trays.length - 1]!,
    window: () => all[all.length - 1]!,
  };
  return electron;
}
