// A provider key goes only to the endpoint it was configured for (DESIGN.md, 17: "send a credential only
// to the endpoint it was configured for"). An endpoint is a kind and a base URL in canonical form; each
// key source (the OS keychain, an environment variable) is bound to one:
// - the keychain's key to the provider in force when it was stored (a key stored before bindings
//   existed: to the config file's provider);
// - the config file's `api_key_env` to the file's provider; a kind's conventional variable
//   (ANTHROPIC_API_KEY, OPENAI_API_KEY) that the file does not name, to that kind's official endpoint;
// - or to where a person moved it in the desktop window: a `KeyConfirmation` given to the desktop
//   surface's handlers only, which asks the shell over its own connection (main/control/key-use-questions.ts)
//   and the shell a native dialog; absent for every other surface, so a page alone can never move a key.
// Whatever the binding, a key never goes over plain http:// to a host other than this machine, nor to a
// URL that carries a user name or password.
import type { ProviderConfig } from '../config/load';
import { PROVIDER_DEFAULTS } from '../config/load';

export type ProviderKind = ProviderConfig['kind'];

export interface Endpoint {
  kind: ProviderKind;
  base_url: string;
}

/** Where a key comes from: the keychain, or an environment variable by name. */
export type KeySourceId = 'keychain' | `env:${string}`;

/** What the person at the desktop window is asked before a key goes somewhere new (common/key-use.ts). */
export type { KeyConfirmation, KeyUseRequest } from '../../common/key-use';
export { keyUseQuestion } from '../../common/key-use';

/** The settings key the moved bindings are kept under (the defaults are derived, never stored). */
export const KEY_BINDINGS_SETTING = 'provider_key_bindings';

/** A base URL in the one form compared: scheme, host and port as the URL parser spells them, the path without trailing slashes. */
export function canonicalEndpoint(e: Endpoint): string | null {
  let u: URL;
  try {
    u = new URL(e.base_url);
  } catch {
    return null;
  }
  return `${e.kind} ${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
}

export function sameEndpoint(a: Endpoint, b: Endpoint): boolean {
  const ca = canonicalEndpoint(a);
  return ca !== null && ca === canonicalEndpoint(b);
}

/** Loopback as the URL parser leaves it: 127.0.0.0/8 (decimal, hex and short forms become dotted), ::1, ::ffff:127.x, localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  if (h === '[::1]') return true;
  // IPv4-mapped loopback, as the parser prints it: [::ffff:7f00:1] … [::ffff:7fff:ffff].
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(h);
}

/** Why no key may go to this address whatever it is bound to, or null. */
export function keyNeverGoesTo(baseUrl: string): string | null {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return `${baseUrl} is not a URL.`;
  }
  if (u.username || u.password) return 'The base URL carries a user name or password; the API key is never sent to such an address.';
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) return `The base URL is plain http:// to ${u.hostname}, which is not this machine: the API key would cross the network unencrypted, so it is not sent. Use https://.`;
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `The base URL must be http:// or https://, not ${u.protocol}.`;
  return null;
}

export function sourceWords(source: KeySourceId): string {
  return source === 'keychain' ? 'the OS keychain' : `the environment variable ${source.slice(4)}`;
}

/** Where each source's key may go: the bindings moved by a person, over the defaults. */
export class KeyBindings {
  constructor(
    /** The config file's provider (never a page's). */
    private readonly file: ProviderConfig,
    private readonly stored: () => Partial<Record<KeySourceId, Endpoint>>,
  ) {}

  bindingOf(source: KeySourceId): Endpoint | null {
    const moved = this.stored()[source];
    if (moved && isEndpoint(moved)) return moved;
    const fileEndpoint = { kind: this.file.kind, base_url: this.file.baseUrl };
    if (source === 'keychain') return fileEndpoint;
    const name = source.slice(4);
    if (this.file.apiKeyEnv === name) return fileEndpoint;
    const kind = (Object.keys(PROVIDER_DEFAULTS) as ProviderKind[]).find((k) => PROVIDER_DEFAULTS[k].apiKeyEnv === name);
    return kind ? { kind, base_url: PROVIDER_DEFAULTS[kind].baseUrl } : null;
  }

  /** Whether the source's key may go to `to`, and if not, a sentence saying where it is kept. */
  allows(source: KeySourceId, to: Endpoint): { ok: true } | { ok: false; bound: Endpoint | null; why: string } {
    const never = keyNeverGoesTo(to.base_url);
    if (never) return { ok: false, bound: this.bindingOf(source), why: never };
    const bound = this.bindingOf(source);
    if (bound && sameEndpoint(bound, to)) return { ok: true };
    const where = bound ? `${bound.kind} at ${bound.base_url}` : 'no endpoint';
    return { ok: false, bound, why: `The API key from ${sourceWords(source)} is kept for ${where}, so it was not sent to ${to.kind} at ${to.base_url}. To use it there, confirm in the desktop window, enter the key again there, or set [provider] in the config file.` };
  }
}

function isEndpoint(v: unknown): v is Endpoint {
  const o = v as Record<string, unknown> | null;
  return !!o && typeof o === 'object' && typeof o['kind'] === 'string' && o['kind'] in PROVIDER_DEFAULTS && typeof o['base_url'] === 'string';
}
