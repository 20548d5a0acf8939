// The web mode's request checks, as pure functions: which Host and Origin are ours (DNS rebinding: a
// foreign name that resolves to 127.0.0.1 must not reach the daemon), the token and cookie, and the
// response headers every answer carries.
import { timingSafeEqual } from 'node:crypto';
import { COOKIE_NAME } from '../../common/web-protocol';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost'] as const;

/** The Host header must be a loopback name with our port, exactly. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  return LOOPBACK_NAMES.some((name) => host.toLowerCase() === `${name}:${port}`);
}

/** An Origin, when the client sends one, must be our own http origin. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return LOOPBACK_NAMES.some((name) => origin.toLowerCase() === `http://${name}:${port}`);
}

/** The LAN address as a Host header writes it: `192.168.1.20:8443`, `[fd00::5]:8443`. */
export function lanHost(address: string, family: 4 | 6, port: number): string {
  return family === 6 ? `[${address}]:${port}` : `${address}:${port}`;
}

/**
 * The phone page's listener (docs/remote.md): the Host must be exactly the paired LAN address and port,
 * and an Origin, when sent, exactly its https origin. No name, no other spelling of the address, and
 * never a loopback name: a page on the LAN listener is a paired device, nothing else.
 */
export function lanHostAllowed(host: string | undefined, lan: string): boolean {
  return typeof host === 'string' && host.toLowerCase() === lan.toLowerCase();
}

export function lanOriginAllowed(origin: string | undefined, lan: string): boolean {
  return origin === undefined || origin.toLowerCase() === `https://${lan}`.toLowerCase();
}

/** A paired device's cookie: only over https, never to another site, kept a year (the device stays paired until revoked). */
export function deviceCookieName(port: number): string {
  return `threshold_device_${port}`;
}

export function deviceCookie(port: number, token: string): string {
  return `${deviceCookieName(port)}=${token}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=31536000`;
}

/** Cookies are not kept apart by port, so each daemon's cookie carries its port in its name. */
export function cookieName(port: number): string {
  return `${COOKIE_NAME}_${port}`;
}

export function sameSecret(given: string | undefined | null, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function bearerToken(authorization: string | undefined): string | null {
  const m = /^Bearer ([A-Za-z0-9_-]{1,256})$/.exec(authorization ?? '');
  return m ? m[1]! : null;
}

/** The value of one cookie from a Cookie header (null when absent or given twice: no guessing). */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  const values = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
  return values.length === 1 ? values[0]! : null;
}

export function sessionCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** No inline script, nothing from elsewhere; the WebSocket back to this daemon only. */
export function contentSecurityPolicy(port: number, lan?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    lan ? `connect-src 'self' wss://${lan}` : `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(port: number, lan?: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(port, lan),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}
