import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquirePidLock, isAlive, pidLockHolder } from './pid-lock.js';

/** A pid that was a process a moment ago and is none now. */
const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;
/** A live process that is not this one. */
const otherPid = process.ppid;

describe('isAlive', () => {
  it.each([
    { who: 'this process', pid: process.pid, alive: true },
    { who: 'its parent', pid: otherPid, alive: true },
    { who: 'a process that exited', pid: deadPid, alive: false },
  ])('$who is alive: $alive', ({ pid, alive }) => {
    expect(isAlive(pid)).toBe(alive);
  });
});

describe('a pid lock file', () => {
  const cases: { lock: string; content: string | null; ageMs?: number; reclaimOwn?: boolean; taken: boolean; heldBy?: number | null }[] = [
    { lock: 'no file', content: null, taken: true },
    { lock: 'a dead owner', content: String(deadPid), taken: true },
    { lock: 'a live owner', content: String(otherPid), taken: false, heldBy: otherPid },
    { lock: 'this process, reclaimed', content: String(process.pid), reclaimOwn: true, taken: true },
    { lock: 'this process, not reclaimed', content: String(process.pid), taken: false, heldBy: process.pid },
    { lock: 'an empty file being written now', content: '', taken: false, heldBy: null },
    { lock: 'an empty file a crash left long ago', content: '', ageMs: 60_000, taken: true },
    { lock: 'a file that is not a pid', content: 'garbage', ageMs: 60_000, taken: true },
  ];
  it.each(cases)('held by $lock: taken=$taken', ({ content, ageMs, reclaimOwn, taken, heldBy }) => {
    const file = join(mkdtempSync(join(tmpdir(), 'pid-lock-')), 'x.lock');
    if (content !== null) writeFileSync(file, content);
    if (ageMs) utimesSync(file, new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
    const lock = acquirePidLock(file, { reclaimOwn });
    if (!taken) {
      expect(lock).toEqual({ heldBy });
      expect(readFileSync(file, 'utf8')).toBe(content);
      return;
    }
    expect({ taken: 'release' in lock, content: readFileSync(file, 'utf8'), holder: pidLockHolder(file) }).toEqual({ taken: true, content: String(process.pid), holder: process.pid });
    (lock as { release: () => void }).release();
    expect(existsSync(file)).toBe(false);
  });

  it('is released only while it still names this process (a later owner keeps it)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pid-lock-')), 'x.lock');
    const lock = acquirePidLock(file) as { release: () => void };
    writeFileSync(file, String(otherPid));
    lock.release();
    expect({ kept: readFileSync(file, 'utf8'), holder: pidLockHolder(file), reclaimedOwn: pidLockHolder(file, { reclaimOwn: true }) }).toEqual({ kept: String(otherPid), holder: otherPid, reclaimedOwn: otherPid });
  });
});
