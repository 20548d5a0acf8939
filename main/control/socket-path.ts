// Where a data directory's control socket lives. Its own module so that `threshold ctl` finds the socket
// without loading the server (and through it the whole core).
import { join } from 'node:path';

export function socketPath(dataDir: string): string {
  return join(dataDir, 'control.sock');
}
