// The browser's AppApi: exchange the fragment's token for the cookie, then one WebSocket at /ws.
import type { AppApi } from '../../../common/contract';
import { createSocketTransport, type Transport } from './socket-transport';
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
  const transport = createSocketTransport({ url: `${scheme}//${w.location.host}/ws` });
  return { api: createWebApi(transport), transport, auth };
}
