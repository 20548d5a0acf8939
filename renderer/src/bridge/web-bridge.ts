// The browser's AppApi: exchange the fragment's token for the cookie, then one WebSocket at /ws.
import type { AppApi } from '../../../common/contract';
import { createSocketTransport, type ProbeResult, type Transport } from './socket-transport';
import { createWebApi } from './web-api';
import { exchangeToken, type AuthOutcome } from './web-auth';

export interface WebConnection {
  api: AppApi;
  transport: Transport;
  auth: AuthOutcome;
}

export async function connectWeb(w: Window): Promise<WebConnection> {
  const auth = await exchangeToken(w.location, { fetch: w.fetch.bind(w), replaceState: (url) => w.history.replaceState(null, '', url) });
  const scheme = w.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const transport = createSocketTransport({ url: `${scheme}//${w.location.host}/ws`, probe: () => probeDaemon(w) });
  // The address opened again in this tab differs only after '#': the browser does not reload the page,
  // so the new token is exchanged here and the socket tries again at once.
  w.addEventListener('hashchange', () => {
    void exchangeToken(w.location, { fetch: w.fetch.bind(w), replaceState: (url) => w.history.replaceState(null, '', url) }).then((outcome) => {
      if (outcome === 'exchanged') transport.retryNow();
    });
  });
  return { api: createWebApi(transport), transport, auth };
}

/**
 * Why the socket failed, asked the plain way: GET /ws answers 426 to a signed-in page and 401 to one
 * whose cookie is missing or not this daemon's; no answer at all means no daemon at this address.
 */
export async function probeDaemon(w: Pick<Window, 'fetch'>): Promise<ProbeResult> {
  try {
    const r = await w.fetch('/ws', { credentials: 'same-origin', cache: 'no-store' });
    return r.status === 401 ? 'signed_out' : 'signed_in';
  } catch {
    return 'unreachable';
  }
}
