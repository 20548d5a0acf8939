// The web UI's port, kept per data directory: a daemon started without --web-port listens where the
// last one did, so an open page finds it again after a restart (its cookie and token are the same too).
// The file holds the port and nothing else; one that holds anything else is ignored and rewritten.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Below this the port would need privileges (or belong to a well-known service): never remembered. */
const LOWEST = 1024;

export function webPortPath(dataDir: string): string {
  return join(dataDir, 'web-port');
}

/** The port this data directory's web UI used last, or null (none yet, or the file is not a port). */
export function rememberedWebPort(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(webPortPath(dataDir), 'utf8').trim();
  } catch {
    return null;
  }
  if (!/^\d{4,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= LOWEST && port <= 65535 ? port : null;
}

/** Remembers the port in use (written whole, then renamed: never half a port). */
export function rememberWebPort(dataDir: string, port: number): void {
  const file = webPortPath(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${port}\n`, { mode: 0o600 });
  renameSync(temp, file);
}
