// Bridges set on Settings → Devices, kept in the settings table over the config file (the file is never
// rewritten), as the Model page keeps a provider. The page sets where cards go (Telegram's chat, Matrix's
// homeserver, room and person); a bridge's endpoint takes its token, so a new endpoint is taken only from
// the desktop window (docs/remote.md: a credential goes only to the endpoint it was configured for).
import { z } from 'zod';
import { endpointBase } from '../config/remote-endpoint';
import type { RemoteConfig } from '../config/remote-settings';
import { matrixSchema, telegramSchema } from '../config/remote-schema';

export const REMOTE_PAGE_SETTING = 'remote.page';

export const remotePageSchema = z.strictObject({
  /** null: off (even if the file sets it); absent: as the file says. */
  telegram: z.strictObject({ chat_id: telegramSchema.shape.chat_id }).nullable().optional(),
  matrix: z.strictObject({ homeserver: matrixSchema.shape.homeserver, room_id: matrixSchema.shape.room_id, user_id: matrixSchema.shape.user_id }).nullable().optional(),
});
export type RemotePage = z.output<typeof remotePageSchema>;

/** The file's [remote] with the page's bridges over it. */
export function withPage(file: RemoteConfig, page: RemotePage | undefined): RemoteConfig {
  if (!page) return file;
  const out: RemoteConfig = { ...file };
  if (page.telegram === null) out.telegram = null;
  else if (page.telegram) out.telegram = { apiBase: file.telegram?.apiBase ?? 'https://api.telegram.org', botTokenEnv: file.telegram?.botTokenEnv ?? 'THRESHOLD_TELEGRAM_TOKEN', chatId: page.telegram.chat_id };
  if (page.matrix === null) out.matrix = null;
  else if (page.matrix) out.matrix = { homeserver: endpointBase(page.matrix.homeserver), accessTokenEnv: file.matrix?.accessTokenEnv ?? 'THRESHOLD_MATRIX_TOKEN', roomId: page.matrix.room_id, userId: page.matrix.user_id };
  return out;
}

/** Why a surface may not make this change, or null: a new Matrix endpoint only from the desktop window. */
export function endpointChangeProblem(current: RemoteConfig, next: RemotePage, surface: string): string | null {
  if (surface === 'desktop' || !next.matrix) return null;
  const now = current.matrix?.homeserver ?? null;
  if (now !== null && endpointBase(next.matrix.homeserver) === now) return null;
  return 'A bridge token goes only to the endpoint it was configured for: set a new homeserver from the desktop window, or in threshold.toml.';
}
