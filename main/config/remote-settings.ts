// The [remote] settings as the rest of Threshold reads them (camelCase, defaults applied, checked).
import { canonicalAddress } from '../../common/addresses';
import type { Class } from '../../common/domain';
import { addressRange } from '../../common/addresses';
import { endpointBase } from './remote-endpoint';
import type { RemoteConfigInput } from './remote-schema';

export type RemoteContent = 'summary' | 'none';

export interface TelegramConfig {
  apiBase: string;
  botTokenEnv: string;
  chatId: number;
}

export interface MatrixConfig {
  homeserver: string;
  accessTokenEnv: string;
  roomId: string;
  userId: string;
}

export interface PhoneConfig {
  /** The LAN address, canonical (the Host and Origin checks compare against exactly this). */
  address: string;
  family: 4 | 6;
  port: number;
}

export interface RemoteConfig {
  /** Cards above this class say "decide at your desk" and carry no approve button. */
  maxClass: Class;
  content: RemoteContent;
  pollSeconds: number;
  telegram: TelegramConfig | null;
  matrix: MatrixConfig | null;
  /** The phone page on the LAN; null: off (loopback only). */
  phone: PhoneConfig | null;
}

export const REMOTE_OFF: RemoteConfig = { maxClass: 'network', content: 'summary', pollSeconds: 25, telegram: null, matrix: null, phone: null };

/** Why an address cannot be the phone page's, or null. */
export function phoneAddressProblem(address: string): string | null {
  const c = canonicalAddress(address);
  if (!c) return 'must be an IP address of this computer on your network (such as 192.168.1.20), not a name';
  const r = addressRange(c.address);
  if (r?.range === 'unspecified') return 'must be one address, not every interface (0.0.0.0 or ::)';
  if (r?.range === 'loopback') return 'is a loopback address: the page on 127.0.0.1 already serves this computer; give the address your phone can reach';
  if (r?.range === 'multicast') return 'is a multicast address';
  return null;
}

export function remoteFromInput(r: RemoteConfigInput, fail: (key: string, problem: string) => Error): RemoteConfig {
  let phone: PhoneConfig | null = null;
  if (r.phone) {
    const problem = phoneAddressProblem(r.phone.address);
    if (problem) throw fail('remote.phone.address', problem);
    const c = canonicalAddress(r.phone.address)!;
    phone = { address: c.address, family: c.family, port: r.phone.port };
  }
  return {
    maxClass: r.max_class,
    content: r.content,
    pollSeconds: r.poll_seconds,
    telegram: r.telegram ? { apiBase: endpointBase(r.telegram.api_base), botTokenEnv: r.telegram.bot_token_env, chatId: r.telegram.chat_id } : null,
    matrix: r.matrix ? { homeserver: endpointBase(r.matrix.homeserver), accessTokenEnv: r.matrix.access_token_env, roomId: r.matrix.room_id, userId: r.matrix.user_id } : null,
    phone,
  };
}
