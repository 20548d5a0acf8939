// Electron glue: the only code that imports 'electron'. It hosts the core for the app's data directory
// (userData), registers the IPC handlers, and counts each open window as an approver surface.
import { app, BrowserWindow, ipcMain } from 'electron';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVENT_CHANNEL } from '../../common/contract';
import { realDir } from '../config/dirs';
import { loadConfigFor, pathContextFor } from '../config/runtime';
import { startControlServer, type ControlServer } from '../control/server';
import { ThresholdCore } from '../gate/core';
import { registerHandlers } from './ipc';

const rendererDir = join(import.meta.dirname, '../renderer');
const devUrl = process.env['ELECTRON_RENDERER_URL'];

function trustedFrame(url: string): boolean {
  if (devUrl && url.startsWith(devUrl)) return true;
  return url.startsWith(pathToFileURL(rendererDir).href);
}

async function openCore(): Promise<{ core: ThresholdCore | null; control: ControlServer | null; error?: string }> {
  const dataDir = app.getPath('userData');
  try {
    const env = process.env;
    const config = await loadConfigFor(undefined, env, pathContextFor(app.getPath('home'), env, dataDir));
    const workspaceDir = config.workspace ?? env['THRESHOLD_WORKSPACE'] ?? join(app.getPath('documents'), 'Threshold');
    mkdirSync(workspaceDir, { recursive: true });
    const core = await ThresholdCore.open({ dataDir, config, paths: pathContextFor(realDir(workspaceDir), env, dataDir) });
    let control: ControlServer | null = null;
    if (config.controlEnabled) {
      control = await startControlServer(core, dataDir);
      core.approvers.add('control');
    }
    core.events.onAny((name, payload) => {
      for (const w of BrowserWindow.getAllWindows()) w.webContents.send(EVENT_CHANNEL, { name, payload });
    });
    return { core, control };
  } catch (err) {
    return { core: null, control: null, error: (err as Error).message };
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
  const { core, control, error } = await openCore();
  registerHandlers(ipcMain, { version: app.getVersion(), runtime: 'electron', core, coreError: error, trustedFrame, surface: 'desktop' });
  createWindow(core);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow(core);
  });
  app.on('will-quit', () => {
    void control?.close();
    core?.dispose();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
