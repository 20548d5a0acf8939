// A phone's first visit: the QR code's address carries a one-time pairing code in its fragment (never
// sent to a server log or a Referer). It leaves the address bar at once; the person names the phone and
// the code is traded at /pair for this device's cookie (HttpOnly, Secure).

export function pairCodeFromHash(hash: string): string | null {
  const m = /^#?(?:.*&)?pair=([A-Za-z0-9_-]{1,64})(?:&|$)/.exec(hash);
  return m ? m[1]! : null;
}

export async function pairDevice(code: string, name: string, deps: { fetch: typeof fetch }): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const r = await deps.fetch('/pair', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code, name }), credentials: 'same-origin' });
    if (r.status === 204) return { ok: true };
    return { ok: false, message: (await r.text()).trim() || `Pairing was refused (${r.status}).` };
  } catch {
    return { ok: false, message: 'Threshold could not be reached. Is this phone on the same network as your computer?' };
  }
}
