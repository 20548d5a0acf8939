// Web mode's bootstrap: the token arrives in the URL fragment (so it never reaches a server log or a
// Referer), is exchanged once at /auth for an HttpOnly cookie, and is then removed from the address bar.

export type AuthOutcome = 'exchanged' | 'no_token' | 'refused' | 'unreachable';

export function tokenFromHash(hash: string): string | null {
  const m = /^#?(?:.*&)?token=([^&]+)/.exec(hash);
  return m ? decodeURIComponent(m[1]!) : null;
}

export async function exchangeToken(loc: Pick<Location, 'hash' | 'pathname' | 'search'>, deps: { fetch: typeof fetch; replaceState: (url: string) => void }): Promise<AuthOutcome> {
  const token = tokenFromHash(loc.hash);
  if (!token) return 'no_token';
  // The fragment goes first, whatever happens next: a token must not linger in the address bar.
  deps.replaceState(loc.pathname + loc.search);
  try {
    const r = await deps.fetch('/auth', { method: 'POST', headers: { Authorization: `Bearer ${token}` }, credentials: 'same-origin' });
    return r.ok ? 'exchanged' : 'refused';
  } catch {
    return 'unreachable';
  }
}
