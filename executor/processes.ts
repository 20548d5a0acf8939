// Process-tree handling from outside the jail: every process of a run descends from the bwrap process
// we spawned (the PID namespace's init reaps orphans inside), so walking /proc from it finds them all.
// macOS has no /proc: there the process table comes from ps(1).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface ProcessRow {
  pid: number;
  ppid: number;
  uid: number;
}

/** ps -A -o pid=,ppid=,ruid= output (the real uid: what RLIMIT_NPROC counts), one process a line. */
export function parseProcessTable(text: string): ProcessRow[] {
  const out: ProcessRow[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s*$/.exec(line);
    if (m) out.push({ pid: Number(m[1]), ppid: Number(m[2]), uid: Number(m[3]) });
  }
  return out;
}

/** The process table from ps(1), where there is no /proc (macOS). */
function psTable(): ProcessRow[] {
  const r = spawnSync('/bin/ps', ['-A', '-o', 'pid=,ppid=,ruid='], { encoding: 'utf8', timeout: 5_000 });
  return r.status === 0 ? parseProcessTable(r.stdout) : [];
}

/** The descendants of root in a process table. */
export function descendantsIn(rows: readonly ProcessRow[], root: number): number[] {
  const children = new Map<number, number[]>();
  for (const r of rows) {
    const list = children.get(r.ppid);
    if (list) list.push(r.pid);
    else children.set(r.ppid, [r.pid]);
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

/** /proc/PID/stat's fields after the command name (state, ppid, pgrp, …); null when the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: parse after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function parentOf(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : null;
}

/** Every live descendant of `root` (not including it). */
export function descendants(root: number): number[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return descendantsIn(psTable(), root);
  }
  const rows: ProcessRow[] = [];
  for (const pid of pids) {
    const ppid = parentOf(pid);
    if (ppid !== null) rows.push({ pid, ppid, uid: -1 });
  }
  return descendantsIn(rows, root);
}

/** The process group of each pid (from /proc, or one ps(1) call where there is none); a pid that is gone is left out. */
export function processGroups(pids: readonly number[]): Map<number, number> {
  const groups = new Map<number, number>();
  if (!pids.length) return groups;
  if (existsSync('/proc/self/stat')) {
    for (const pid of pids) {
      const fields = statFields(pid);
      if (fields) groups.set(pid, Number(fields[2]));
    }
    return groups;
  }
  const r = spawnSync('/bin/ps', ['-A', '-o', 'pid=,pgid='], { encoding: 'utf8', timeout: 5_000 });
  const wanted = new Set(pids);
  for (const line of r.status === 0 ? r.stdout.split('\n') : []) {
    const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (m && wanted.has(Number(m[1]))) groups.set(Number(m[1]), Number(m[2]));
  }
  return groups;
}

/**
 * Whom a stop's SIGTERM goes to when a run is its own process group: the whole group in one signal
 * (-leader), then each descendant that left the group (setsid). Each process once, and the leader never
 * after its children: a shell that saw its child end first would return from `wait` and exit without
 * running its trap.
 */
export function groupStopTargets(leader: number, tree: readonly number[], groups: ReadonlyMap<number, number>): number[] {
  return [-leader, ...tree.filter((p) => groups.get(p) !== leader)];
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


/** Processes whose real uid is `uid` (RLIMIT_NPROC counts them all). */
export function countProcessesOf(uid: number): number {
  let n = 0;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return psTable().filter((r) => r.uid === uid).length;
  }
  try {
    for (const name of names) {
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
