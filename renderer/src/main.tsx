// Picks the API (the Electron preload's window.threshold, else the web bridge), builds the one store,
// wires events, and renders.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { AppApi } from '../../common/operations';
import { App } from './app';
import { connectWeb } from './bridge/web-bridge';
import { wireEvents } from './bridge/wire';
import { installKeyClock } from './key-clock';
import { createAppStore, StoreContext } from './store/store';
import './styles.css';

declare global {
  interface Window {
    threshold?: AppApi;
  }
}

async function start(): Promise<void> {
  const rootEl = document.getElementById('root');
  if (!rootEl) throw new Error('Threshold: the page has no #root element.');
  installKeyClock(window);
  const electron = window.threshold;
  const web = electron ? null : await connectWeb(window);
  const api = electron ?? web!.api;
  const store = createAppStore(api);
  wireEvents(api, store);
  if (web) {
    // A page that never got in, and had no token to exchange (or had it refused), says how to get in.
    let everOpened = false;
    web.transport.onStatus((status) => {
      const s = store.getState();
      if (status === 'open') {
        everOpened = true;
        s.setConnection('open');
        void s.reloadAll();
      } else if (status === 'reconnecting') s.setConnection(!everOpened && web.auth !== 'exchanged' ? 'unauthorized' : 'reconnecting');
      else s.setConnection(web.auth === 'refused' ? 'unauthorized' : 'connecting');
    });
  } else {
    store.getState().setConnection('open');
    void store.getState().reloadAll();
  }
  createRoot(rootEl).render(
    <StrictMode>
      <StoreContext.Provider value={store}>
        <App />
      </StoreContext.Provider>
    </StrictMode>,
  );
}

void start();
