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
export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}
