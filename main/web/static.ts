// The renderer's built files, served read-only: a path resolves inside the bundle directory (after
// decoding and after following symlinks) or is not found; a directory is never listed.
import { realpathSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export type StaticFile = { file: string; type: string; size: number };

/** The file a URL path names inside `root`, or null (not found, outside, a directory, malformed). */
export function resolveStatic(root: string, urlPath: string): StaticFile | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (!path.startsWith('/') || path.includes('\0') || path.includes('\\')) return null;
  if (path.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  if (path === '/') path = '/index.html';
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(resolve(realRoot, '.' + path));
  } catch {
    return null;
  }
  if (!real.startsWith(realRoot + sep)) return null;
  const st = statSync(real);
  if (!st.isFile()) return null;
  return { file: real, type: TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream', size: st.size };
}
