// The question a person answers before a provider key goes to an endpoint it is not bound to
// (main/runtime/key-binding.ts): its data, which the core sends to the desktop shell over the desktop
// channel (common/desktop-channel.ts), and its words, which the shell shows in a native dialog. Here in
// common/ because both processes need it and the shell loads none of the core.
import { z } from 'zod';
import { providerKindSchema } from './operations';

export const endpointSchema = z.strictObject({
  kind: providerKindSchema,
  base_url: z.string().min(1).max(2100),
});

export const keyUseRequestSchema = z.strictObject({
  purpose: z.enum(['test', 'save']),
  /** "the OS keychain" or "the environment variable ANTHROPIC_API_KEY" (the core's own words). */
  source: z.string().min(1).max(200),
  /** Where the key is kept now. */
  from: endpointSchema,
  /** Where it would go. */
  to: endpointSchema,
});
export type KeyUseRequest = z.output<typeof keyUseRequestSchema>;
/** Resolves true only for "send it"; the desktop surface's (main/control/key-use-questions.ts asks the shell). */
export type KeyConfirmation = (request: KeyUseRequest) => Promise<boolean>;

/**
 * An address as it is dialled: the URL parser's form. Controls, spaces and direction-changing characters
 * in a path become %-escapes, line breaks are dropped (as the parser drops them) and a look-alike host
 * name takes its xn-- form, so a page cannot make the dialog read as another address or add a line to
 * it. Not a URL: shown quoted, everything outside printable ASCII as \u escapes.
 */
export function shownAddress(baseUrl: string): string {
  try {
    return new URL(baseUrl).href;
  } catch {
    return JSON.stringify(baseUrl).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
}

/** What a shell shows to ask (a native dialog in the desktop app): the first button sends the key; the second is the default. */
export function keyUseQuestion(r: KeyUseRequest): { title: string; message: string; detail: string; buttons: [string, string] } {
  const doing = r.purpose === 'test' ? 'Test the connection' : 'Save this provider';
  return {
    title: 'Send the API key to another address?',
    message: `${doing} with the API key from ${r.source}?`,
    detail: [
      `The key is kept for ${r.from.kind} at ${shownAddress(r.from.base_url)}.`,
      `It would be sent to ${r.to.kind} at ${shownAddress(r.to.base_url)}.`,
      r.purpose === 'save' ? 'From now on the key would go there instead.' : 'Only for this one test.',
      'Send it only if you set this address yourself: a page or a prompt can ask for it too.',
    ].join('\n'),
    buttons: ['Send the key', 'Do not send it'],
  };
}
