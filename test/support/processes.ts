// The process table, read from /proc, for tests that look for what a run left behind.
import { readdirSync, readFileSync } from 'node:fs';

/** Processes whose command line holds `marker` (`exact`: is exactly it, arguments joined by spaces). */
export function processesWith(marker: string, o: { exact?: boolean } = {}): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
        return o.exact ? line === marker : line.includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}
