// The desktop shell's channel to the core (docs/desktop.md): an ordinary control-socket connection that
// the shell turns into the window's own with `desktop.attach` and the UI token. After that, the
// connection speaks the operations table's UI transport as the `desktop` surface (decisions are recorded
// as decided by desktop, the card's Reveal works) and every answer is the operation's Result value,
// never a JSON-RPC error. The shell checks each payload with the table before it sends it; the core
// checks it again on arrival.
import { z } from 'zod';

export const ATTACH_METHOD = 'desktop.attach';

export const attachParamsSchema = z.strictObject({
  /** The data directory's UI token (the web token): what a browser page signs in with. */
  token: z.string().min(1).max(256),
});

export const attachResultSchema = z.object({
  /** The core's process id (the shell stops it on Quit when it is the shell's). */
  pid: z.number().int().positive(),
  version: z.string(),
  data_dir: z.string(),
  /** desktop: a desktop shell started it (Quit stops it); other: `threshold serve` run by someone (Quit leaves it). */
  launched_by: z.enum(['desktop', 'other']),
});
export type AttachResult = z.output<typeof attachResultSchema>;

/** The environment variable a desktop shell sets on the core it starts. */
export const LAUNCHED_BY_ENV = 'THRESHOLD_LAUNCHED_BY';
