// The AppApi over the web transport, built by the same createApi as the Electron preload.
import type { AppApi } from '../../../common/operations';
import { createApi } from '../../../preload/api';
import type { Transport } from './socket-transport';

export function createWebApi(t: Transport): AppApi {
  return createApi((op, params) => t.invoke(op, params), t.subscribe);
}
