// Reading the config file without trusting what sits at its path: only a regular file, at most
// MAX_CONFIG_BYTES read with a bounded read (a FIFO would block start forever, /dev/zero would grow memory
// until the process aborts), in valid UTF-8. A symlink at the path that points nowhere is an error, not
// "no config": the user meant to have one.
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, statSync, type Stats } from 'node:fs';

export const MAX_CONFIG_BYTES = 1024 * 1024;

/** What is wrong with the file, as the end of "Config error in FILE: …". */
export class ConfigFileProblem extends Error {}

/** The file's text; null when it does not exist and may be absent. */
export function readConfigText(file: string, required: boolean): string | null {
  let st: Stats;
  try {
    st = statSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new ConfigFileProblem(`the file cannot be read (${code ?? String(err)})`);
    const link = danglingLink(file);
    if (link !== null) throw new ConfigFileProblem(`the file is a symbolic link to ${link}, which does not exist; fix or remove the link`);
    if (!required) return null;
    throw new ConfigFileProblem('the file does not exist');
  }
  checkRegular(st);
  let fd: number;
  try {
    // O_NONBLOCK: should a FIFO replace the file between the stat and the open, opening it does not hang.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new ConfigFileProblem(`the file cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  try {
    checkRegular(fstatSync(fd));
    return decodeUtf8(readBounded(fd));
  } finally {
    closeSync(fd);
  }
}

function danglingLink(file: string): string | null {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : null;
  } catch {
    return null;
  }
}

function checkRegular(st: Stats): void {
  if (st.isFile()) {
    if (st.size > MAX_CONFIG_BYTES) throw tooLarge();
    return;
  }
  const what = st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a named pipe (FIFO)' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isSocket() ? 'a socket' : 'not a file';
  throw new ConfigFileProblem(`this is ${what}, not a regular file`);
}

function tooLarge(): ConfigFileProblem {
  return new ConfigFileProblem(`the file is larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB; a config file is a few KB`);
}

/** Reads at most MAX_CONFIG_BYTES + 1 bytes, whatever the file claims its size is (it may grow). */
function readBounded(fd: number): Buffer {
  const buf = Buffer.alloc(MAX_CONFIG_BYTES + 1);
  let total = 0;
  for (;;) {
    const n = readSync(fd, buf, total, buf.length - total, null);
    if (n === 0) break;
    total += n;
    if (total > MAX_CONFIG_BYTES) throw tooLarge();
  }
  return buf.subarray(0, total);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    // The first replacement character of a lenient decode marks the first bad byte sequence.
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const at = lenient.indexOf('\uFFFD');
    const line = lenient.slice(0, Math.max(0, at)).split('\n').length;
    throw new ConfigFileProblem(`the file is not valid UTF-8 (line ${line}); save it as UTF-8`);
  }
}
