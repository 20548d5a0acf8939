// Exposes one verb per UI operation; never ipcRenderer itself.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNEL } from '../common/contract';
import type { CoreEvent } from '../common/operations';
import { createApi } from './api';

contextBridge.exposeInMainWorld(
  'threshold',
  createApi(
    (operation, params) => ipcRenderer.invoke(operation, params),
    (listener) => {
      const wrapped = (_event: IpcRendererEvent, event: CoreEvent) => listener(event);
      ipcRenderer.on(EVENT_CHANNEL, wrapped);
      return () => ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
    },
  ),
);
