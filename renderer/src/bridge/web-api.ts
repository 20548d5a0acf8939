// The AppApi over the web transport, built by the same createApi as the Electron preload.
import { createApi } from '../../../common/api';
import type { AppApi } from '../../../common/operations';
import type { Transport } from './socket-transport';

export function createWebApi(t: Transport): AppApi {
  return createApi(t.invoke, t.subscribe);
}
