// Process-tree handling from outside the jail: every process of a run descends from the bwrap process
// we spawned (the PID namespace's init reaps orphans inside), so walking /proc from it finds them all.
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: parse after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return null;
  }
}

/** Every live descendant of `root` (not including it). */
export function descendants(root: number): number[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const ppid = parentOf(pid);
    if (ppid === null) continue;
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    for (const c of children.get(p) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

export function signal(pids: readonly number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Processes whose real uid is `uid` (RLIMIT_NPROC counts them all). */
export function countProcessesOf(uid: number): number {
  let n = 0;
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const status = readFileSync(`/proc/${name}/status`, 'utf8');
        const m = /^Uid:\s+(\d+)/m.exec(status);
        if (m && Number(m[1]) === uid) n++;
      } catch {
        // vanished
      }
    }
  } catch {
    return 0;
  }
  return n;
}

/** The command name of a process ('' when it is gone). */
export function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}
