// Exposes one verb per contract method; never ipcRenderer itself.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createApi } from './api';

contextBridge.exposeInMainWorld(
  'threshold',
  createApi(
    (channel, payload) => ipcRenderer.invoke(channel, payload),
    (channel, listener) => {
      const wrapped = (_event: IpcRendererEvent, message: Parameters<typeof listener>[0]) => listener(message);
      ipcRenderer.on(channel, wrapped);
      return () => ipcRenderer.removeListener(channel, wrapped);
    },
  ),
);
