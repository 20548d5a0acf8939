// The one IPC contract between the renderer and the main process: channel names, payload schemas,
// and the AppApi type that both the Electron preload and the web-mode bridge implement.
import { z } from 'zod';

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  runtime: z.enum(['electron', 'web']),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** Errors cross every boundary as values with a stable code and a sentence a user can act on. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

export const channels = {
  getInfo: 'app.get-info',
} as const;

export interface AppApi {
  getInfo(): Promise<Result<AppInfo>>;
}
