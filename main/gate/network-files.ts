// The one place the classifier's configuration reads happen (git remotes, .npmrc, pip.conf,
// ~/.ssh/config): small regular files only, never following a FIFO or device, errors as "unreadable".
// The classifier calls it lazily, only for commands that reach the network.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { constants } from 'node:fs';
import type { ReadText } from '../policy/classifier/network/types';

/** Configuration files larger than this are treated as unreadable (the host is then unknown). */
export const MAX_NETWORK_FILE_BYTES = 256 * 1024;

export const readNetworkFile: ReadText = (path) => {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_NETWORK_FILE_BYTES) return null;
    const buf = Buffer.alloc(st.size);
    let read = 0;
    while (read < st.size) {
      const n = readSync(fd, buf, read, st.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buf.subarray(0, read).toString('utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
};
