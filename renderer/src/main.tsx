// Picks the API (the Electron preload's window.threshold, else the web bridge), builds the one store,
// wires events, and renders.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { AppApi } from '../../common/operations';
import { App } from './app';
import { pairCodeFromHash } from './bridge/pairing';
import { connectWeb } from './bridge/web-bridge';
import { PairScreen } from './components/pair-screen';
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
    // The transport tells a daemon that is down from one that refuses this page (web-bridge.ts probeDaemon);
    // a token the daemon refused at /auth is a page that is not signed in from the start.
    web.transport.onStatus((status) => {
      const s = store.getState();
      if (status === 'open') {
        s.setConnection('open');
        void s.reloadAll();
      } else if (status === 'connecting') s.setConnection(web.auth === 'refused' ? 'unauthorized' : 'connecting');
      else s.setConnection(status);
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

// A phone opened from the pairing QR code: the code leaves the address bar first, then the phone is named and paired.
const pairCode = window.threshold ? null : pairCodeFromHash(window.location.hash);
if (pairCode) {
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  const rootEl = document.getElementById('root')!;
  const root = createRoot(rootEl);
  root.render(
    <StrictMode>
      <PairScreen
        code={pairCode}
        onPaired={() => {
          root.unmount();
          void start();
        }}
      />
    </StrictMode>,
  );
} else void start();
