// Electron glue: the only code that imports 'electron'. It hosts the core for the app's data directory
// (userData), registers the IPC handlers, and counts each open window as an approver surface.
import { app, BrowserWindow, ipcMain, Notification, safeStorage } from 'electron';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVENT_CHANNEL } from '../../common/contract';
import { realDir } from '../config/dirs';
import { loadConfigFor, pathContextFor } from '../config/runtime';
import { createAgent } from '../agent';
import type { Agent } from '../agent/agent';
import { DEMO_PROMPT, demoWorkspaceFor } from '../agent/demo-model';
import { createModel } from '../agent/providers';
import type { Notifier } from '../agent/questions';
import { startControlServer, type ControlServer } from '../control/server';
import { ThresholdCore } from '../gate/core';
import type { Result } from '../../common/contract';
import { registerHandlers } from './ipc';
import { ProviderKeychain } from './keychain';

const rendererDir = join(import.meta.dirname, '../renderer');
const devUrl = process.env['ELECTRON_RENDERER_URL'];

function trustedFrame(url: string): boolean {
  if (devUrl && url.startsWith(devUrl)) return true;
  return url.startsWith(pathToFileURL(rendererDir).href);
}

/** `npm start -- --demo`: the scripted model ("Demo: scripted model") instead of the configured provider. */
const demo = process.argv.includes('--demo');

interface Opened {
  core: ThresholdCore | null;
  agent: Agent | null;
  control: ControlServer | null;
  setApiKey?: (key: string) => Result<{ stored: true }>;
  error?: string;
}

const desktopNotifier: Notifier = {
  notify: ({ title, body, urgency }) => {
    if (Notification.isSupported()) new Notification({ title, body, urgency: urgency === 'urgent' ? 'critical' : 'normal' }).show();
  },
};

async function openCore(): Promise<Opened> {
  const dataDir = app.getPath('userData');
  try {
    const env = process.env;
    const config = await loadConfigFor(undefined, env, pathContextFor(app.getPath('home'), env, dataDir));
    const workspaceDir = demo ? demoWorkspaceFor(dataDir) : (config.workspace ?? env['THRESHOLD_WORKSPACE'] ?? join(app.getPath('documents'), 'Threshold'));
    mkdirSync(workspaceDir, { recursive: true });
    const core = await ThresholdCore.open({ dataDir, config, paths: pathContextFor(realDir(workspaceDir), env, dataDir) });
    const keychain = new ProviderKeychain(dataDir, safeStorage);
    const agent = createAgent(core, { demo, env, keychain: () => keychain.read(), notifier: desktopNotifier });
    const setApiKey = (key: string) => {
      const stored = keychain.write(key);
      if (stored.ok && !demo) {
        core.redactor.addKnownSecret(key);
        const handle = createModel(config.provider, key);
        agent.useModel(handle.model, handle.label);
      }
      return stored;
    };
    let control: ControlServer | null = null;
    if (config.controlEnabled) {
      control = await startControlServer(core, dataDir, agent);
      core.approvers.add('control');
    }
    core.events.onAny((name, payload) => {
      for (const w of BrowserWindow.getAllWindows()) w.webContents.send(EVENT_CHANNEL, { name, payload });
    });
    console.log(`threshold: model: ${agent.modelLabel}`);
    return { core, agent, control, setApiKey };
  } catch (err) {
    return { core: null, agent: null, control: null, error: (err as Error).message };
  }
}

function createWindow(core: ThresholdCore | null): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    title: 'Threshold',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.mjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  // An open window is someone who can answer; closing it removes that surface.
  const removeSurface = core?.approvers.add('desktop');
  window.on('closed', () => removeSurface?.());
  if (devUrl) void window.loadURL(devUrl);
  else void window.loadFile(join(rendererDir, 'index.html'));
  return window;
}

void app.whenReady().then(async () => {
  const { core, agent, control, setApiKey, error } = await openCore();
  registerHandlers(ipcMain, { version: app.getVersion(), core, agent, setApiKey, coreError: error, trustedFrame });
  createWindow(core);
  // The demo's tour starts once per data directory, after the window (an approver) is open.
  if (demo && agent && core && core.store.sessions.list(1).length === 0) agent.send(null, DEMO_PROMPT).done.catch(() => undefined);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow(core);
  });
  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting) return;
    // Approvals that wait stay pending for the next start; running commands are killed first.
    quitting = true;
    event.preventDefault();
    void (async () => {
      await control?.close();
      await agent?.dispose();
      core?.dispose();
      app.quit();
    })();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
