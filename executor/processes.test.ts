// Whom a stop signals, and in which order. A shell in `wait` whose child ends before its own SIGTERM
// arrives returns and exits without running its trap (seen under load: "cancel sends SIGTERM first" lost
// its clean-up when the children were signalled before the group), so the order is tested here as data,
// and the process groups are read from real processes.
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { descendants, descendantsIn, groupStopTargets, processGroups } from './processes';

describe('a stop signals each process once, never a parent after its children', () => {
  const LEADER = 100;
  it.each([
    { name: 'a leader alone is signalled as its group', tree: [], groups: [], want: [-LEADER] },
    { name: 'children in the group are reached by the group signal, not again one by one', tree: [101, 102], groups: [[101, LEADER], [102, LEADER]], want: [-LEADER] },
    { name: 'a child that left the group (setsid) gets its own signal, after the group', tree: [101, 102], groups: [[101, LEADER], [102, 102]], want: [-LEADER, 102] },
    { name: 'a grandchild in the group of a child that left it is signalled after that child', tree: [101, 102, 103], groups: [[101, LEADER], [102, 102], [103, 102]], want: [-LEADER, 102, 103] },
    { name: 'a process whose group could not be read (it ended meanwhile) is still signalled', tree: [101], groups: [], want: [-LEADER, 101] },
  ])('$name', ({ tree, groups, want }) => {
    expect(groupStopTargets(LEADER, tree, new Map(groups as [number, number][]))).toEqual(want);
  });

  it.each([
    { name: 'a chain', rows: [[2, 1], [3, 2], [4, 3]] },
    { name: 'a wide tree listed children first', rows: [[5, 3], [4, 2], [3, 1], [2, 1]] },
    { name: 'siblings with their own children', rows: [[2, 1], [3, 1], [4, 2], [5, 3], [6, 4]] },
  ])('the tree below a root lists every parent before its children: $name', ({ rows }) => {
    const table = rows.map(([pid, ppid]) => ({ pid: pid!, ppid: ppid!, uid: 0 }));
    const listed = descendantsIn(table, 1);
    expect([...listed].sort((a, b) => a - b)).toEqual(rows.map(([pid]) => pid!).sort((a, b) => a - b));
    for (const { pid, ppid } of table) if (ppid !== 1) expect(listed.indexOf(ppid)).toBeLessThan(listed.indexOf(pid));
  });
});

describe('process groups are read from the running processes', () => {
  it('a detached shell leads its own group, its child shares it, and a setsid grandchild has its own', async () => {
    const leader = spawn('bash', ['-c', 'sleep 60 & setsid sleep 61 & wait'], { detached: true, stdio: 'ignore' });
    try {
      let tree: number[] = [];
      for (let i = 0; i < 200 && tree.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 10));
        tree = descendants(leader.pid!).filter((p) => spawnSync('ps', ['-o', 'args=', '-p', String(p)], { encoding: 'utf8' }).stdout.startsWith('sleep 6'));
      }
      const groups = processGroups([leader.pid!, ...tree, 999_999_999]);
      expect(groups.get(leader.pid!)).toBe(leader.pid);
      expect(tree.map((p) => groups.get(p) === leader.pid).sort()).toEqual([false, true]);
      expect(groups.has(999_999_999)).toBe(false);
    } finally {
      for (const p of [leader.pid!, ...descendants(leader.pid!)]) spawnSync('kill', ['-9', String(p)]);
      try {
        process.kill(-leader.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });
});
