// Auto-edit's undo promise for the repository's history, end to end (gate, checkpoint, jail, restore):
// after the restore every ref, the HEAD, the stash, each reflog, the index and every reachable object
// are back and intact — or the call asked a person first (and is restored all the same when approved).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNHELD, undoBench, type Case, type UndoBench } from './undo-workspace';

// Each case spawns some thirty processes (git, bwrap); on a loaded 2-core runner that can take a while.
const CASE_MS = 60_000;
let bench: UndoBench;
beforeAll(async () => {
  bench = await undoBench();
}, 60_000);
afterAll(async () => {
  await bench?.close();
});

// alsoApproved: run once more with a person approving it, and restored (the checkpoint unit tests in
// executor/checkpoints.test.ts restore each history-dropping operation on its own).
const GIT_CASES: (Case & { alsoApproved?: boolean })[] = [
  { name: 'git reset --hard to an older commit', command: 'git reset -q --hard HEAD~2', unprompted: true, changed: true },
  { name: 'git checkout -f over local changes', command: 'echo local > a.txt && git checkout -q -f feature', unprompted: true, changed: true },
  { name: 'git commit --amend', command: 'git commit -q --amend -m rewritten', unprompted: true, changed: true },
  { name: 'git stash pop', command: 'git stash pop -q', unprompted: true, changed: true },
  { name: 'git tag -d of an annotated tag', command: 'git tag -d v1', unprompted: true, changed: true },
  { name: 'git update-ref -d of an unmerged branch', command: 'git update-ref -d refs/heads/feature', unprompted: true, changed: true },
  { name: 'git rm of tracked files', command: 'git rm -rq src', unprompted: true, changed: true },
  { name: 'git repack -a -d (the old pack stays: history unchanged)', command: 'git repack -q -a -d', unprompted: true, changed: false },
  { name: 'git clean -fd (untracked files)', command: 'git clean -qfd', unprompted: true, changed: true },
  { name: 'git branch -D', command: 'git branch -D feature', unprompted: false, changed: true, why: /force-deletes a branch/ },
  { name: 'git stash drop', command: 'git stash drop -q', unprompted: false, changed: true, why: /drops a stash entry/ },
  { name: 'git stash clear', command: 'git stash clear', unprompted: false, changed: true, why: /clears every stash entry/, alsoApproved: true },
  { name: 'git reflog expire', command: 'git reflog expire --expire=now --all', unprompted: false, changed: true, why: /expires reflog entries/ },
  { name: 'git prune after dropping a branch', command: 'git update-ref -d refs/heads/feature && git prune', unprompted: false, changed: true, why: /unreachable objects/ },
  { name: 'git gc --prune=now after dropping a branch and the reflogs', command: 'git update-ref -d refs/heads/feature && git reflog expire --expire=now --all && git gc -q --prune=now', unprompted: false, changed: true, why: /reflog entries|unreachable objects/, alsoApproved: true },
  { name: 'git clean -x (ignored files too)', command: 'git clean -qfdx', unprompted: false, changed: true, why: /ignored files/, regenerable: ['node_modules', 'build'] },
  { name: 'deleting .git', command: 'rm -rf .git', unprompted: false, changed: true, why: /repository folder \.git/, alsoApproved: true },
];

describe('auto-edit: after the restore every ref and object is back, or the call asked', () => {
  it.each(GIT_CASES)('$name', async (c) => {
    const r = await bench.runAndRestore(c, false);
    if (!r.restored) expect(r.after).toEqual(r.before);
    expect({ unprompted: r.unprompted, changed: r.changed, restored: r.restored, intact: r.intact, why: r.card && c.why && !c.why.test(r.card.reason) ? r.card.reason : true }).toEqual({ unprompted: c.unprompted, changed: c.unprompted ? c.changed : false, restored: true, intact: 'intact', why: true });
  }, CASE_MS);

  it.each(GIT_CASES.filter((c) => c.alsoApproved))('$name, approved by a person, is still restored (but for what the checkpoint does not hold)', async (c) => {
    const r = await bench.runAndRestore({ ...c, regenerable: UNHELD }, true);
    if (!r.restored) expect(r.after).toEqual(r.before);
    expect({ ran: r.ran, changed: r.changed, restored: r.restored, intact: r.intact }).toEqual({ ran: true, changed: c.changed, restored: true, intact: 'intact' });
  }, CASE_MS);
});
