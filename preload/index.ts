// Exposes one verb per contract method; never ipcRenderer itself.
import { contextBridge, ipcRenderer } from 'electron';
import { createApi } from './api';

contextBridge.exposeInMainWorld('threshold', createApi((channel, ...args) => ipcRenderer.invoke(channel, ...args)));
