// The desktop shell's channel to the core (docs/desktop.md): an ordinary control-socket connection that
// the shell turns into the window's own with `desktop.attach` and the UI token. After that, the
// connection speaks the operations table's UI transport as the `desktop` surface (decisions are recorded
// as decided by desktop, the card's Reveal works) and every answer is the operation's Result value,
// never a JSON-RPC error. The shell checks each payload with the table before it sends it; the core
// checks it again on arrival.
import { z } from 'zod';
import { keyUseRequestSchema } from './key-use';

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

// ── the API key question (docs/desktop.md, "Moving a key to another address") ─────────────────────────
// A provider key goes to another endpoint only when the person at the desktop window says so. The core
// asks on the attached connection that relayed the window's model.test or model.set (a notification,
// since the shell is the one answering), and waits for that connection's answer. These two names are the
// desktop channel's, not operations of the table: an operation would get an IPC channel, a web-bridge
// verb and a `ctl` command, and the page (or any client) could then answer the question it raised.

/** Core → shell, a JSON-RPC notification on the attached connection: ask the person. */
export const CONFIRM_KEY_USE_NOTIFICATION = 'desktop.confirm_key_use';
/** Shell → core, on the same connection: the person's answer. Sent alone, not in a batch with other work. */
export const KEY_USE_ANSWER_METHOD = 'desktop.key_use_answer';
/** How long the core waits for an answer before it sends no key. */
export const KEY_USE_TIMEOUT_MS = 120_000;
/** Test hook (main/cli/serve.ts): a shorter wait, for tests of a question nobody answers. */
export const KEY_USE_TIMEOUT_ENV = 'THRESHOLD_KEY_USE_TIMEOUT_MS';

export const confirmKeyUseParamsSchema = z.strictObject({
  /** Unguessable, answered once, valid only on the connection that was asked. */
  id: z.string().min(1).max(100),
  request: keyUseRequestSchema,
  /** The core stops waiting after this long (the shell closes its dialog then). */
  timeout_ms: z.number().int().positive().max(KEY_USE_TIMEOUT_MS),
});
export type ConfirmKeyUseParams = z.output<typeof confirmKeyUseParamsSchema>;

export const keyUseAnswerParamsSchema = z.strictObject({
  id: z.string().min(1).max(100),
  /** True only when the person chose "Send the key". */
  send: z.boolean(),
});

export const keyUseAnswerResultSchema = z.object({ id: z.string(), send: z.boolean() });
