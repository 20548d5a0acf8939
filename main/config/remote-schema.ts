// [remote] in threshold.toml (docs/remote.md): the chat bridges, the paired phone's LAN address, what a
// remote card may carry and up to which class it may be approved away from the desk. The keys of
// [remote.telegram] and [remote.matrix] are a contract other tools rely on.
import { z } from 'zod';
import { bridgeEndpointProblem } from './remote-endpoint';

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');
const endpoint = (example: string) =>
  z.string().superRefine((v, ctx) => {
    const problem = bridgeEndpointProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.replace('https://api.telegram.org', example) });
  });

/** Classes a remote approver may approve at most; destructive is a floor, which no remote button ever approves. */
export const REMOTE_MAX_CLASSES = ['read', 'write', 'network', 'install'] as const;
export const REMOTE_CONTENTS = ['summary', 'none'] as const;

export const telegramSchema = z
  .object({
    api_base: endpoint('https://api.telegram.org').default('https://api.telegram.org'),
    bot_token_env: envName.default('THRESHOLD_TELEGRAM_TOKEN'),
    /** The only chat whose button presses count. */
    chat_id: z.number().int().refine((n) => n !== 0 && Number.isSafeInteger(n), 'must be a Telegram chat id (a whole number, not 0)'),
  })
  .strict();

export const matrixSchema = z
  .object({
    homeserver: endpoint('https://matrix.example.org'),
    access_token_env: envName.default('THRESHOLD_MATRIX_TOKEN'),
    room_id: z.string().max(255).regex(/^![^:\s]+:[^\s]+$/, 'must be a room id such as !room:example.org'),
    /** The only sender whose answers count. */
    user_id: z.string().max(255).regex(/^@[^:\s]+:[^\s]+$/, 'must be a user id such as @me:example.org'),
  })
  .strict();

export const phoneSchema = z
  .object({
    /** The LAN address the phone page is served on (an IP address of this computer); unset: off. */
    address: z.string().min(1).max(64),
    port: z.number().int().min(1).max(65535).default(8443),
  })
  .strict();

export const remoteSchema = z
  .object({
    max_class: z
      .string()
      .refine((v) => v !== 'destructive', 'destructive calls are a floor: a remote card never has an approve button for them, so "destructive" would do nothing')
      .pipe(z.enum(REMOTE_MAX_CLASSES))
      .default('network'),
    content: z.enum(REMOTE_CONTENTS).default('summary'),
    /** How long one long poll waits at the chat service before it answers with nothing new. */
    poll_seconds: z.number().int().min(1).max(50).default(25),
    telegram: telegramSchema.optional(),
    matrix: matrixSchema.optional(),
    phone: phoneSchema.optional(),
  })
  .strict()
  .default({ max_class: 'network', content: 'summary', poll_seconds: 25 });

export type RemoteConfigInput = z.output<typeof remoteSchema>;
