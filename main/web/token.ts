// The web token: 256 random bits, kept in the data directory (mode 0600) so a restarted daemon accepts
// the cookie a page already holds. A token file anyone else could read, or one that is not a token, is
// replaced by a new one.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function webTokenPath(dataDir: string): string {
  return join(dataDir, 'web-token');
}

export function loadWebToken(dataDir: string): string {
  const file = webTokenPath(dataDir);
  if (existsSync(file)) {
    const st = statSync(file);
    const text = readFileSync(file, 'utf8').trim();
    if (st.isFile() && (st.mode & 0o077) === 0 && st.uid === process.getuid?.() && TOKEN.test(text)) return text;
    rmSync(file, { force: true });
  }
  const token = randomBytes(32).toString('base64url');
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, token + '\n');
  } finally {
    closeSync(fd);
  }
  return token;
}
