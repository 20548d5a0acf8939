// Grant suggestions over a real gate and store: calls parked and decided as a person would, then mined.
import { describe, expect, it } from 'vitest';
import { nextPending, shellCall, useCores } from '../../test/support/core';
import type { ThresholdCore } from './core';
import { grantSuggestions, SUGGEST_AFTER } from './grant-suggestions';

const testCores = useCores();

type Decision = { command: string; outcome: 'approve_once' | 'approve_session' | 'skip' | 'deny'; surface?: 'desktop' | 'web' | 'control'; cwd?: string };

/** Each decision in its own session, so an approval for the session never answers the next one. */
async function decideAll(c: ThresholdCore, decisions: Decision[]): Promise<void> {
  let n = 0;
  for (const d of decisions) {
    n++;
    const review = c.calls.review(shellCall(d.command, { sessionId: `s${n}`, turnId: `t${n}`, ...(d.cwd ? { cwd: d.cwd } : {}) }));
    const p = await nextPending(c);
    const r = await c.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: d.outcome, surface: d.surface ?? 'desktop' });
    if (!r.ok) throw new Error(r.error.message);
    await review;
  }
}

const times = (n: number, d: Decision): Decision[] => Array.from({ length: n }, () => d);

describe('grant suggestions from the history', () => {
  it.each([
    { name: 'a write approved three times once at a time', decisions: times(3, { command: 'touch notes.txt', outcome: 'approve_once' }), expected: [{ text: 'touch notes.txt', count: 3, patterns: [{ kind: 'argv', argv: ['touch', 'notes.txt'], match: 'exact' }] }] },
    { name: 'approvals from the window, the browser and ctl together', decisions: [{ command: 'npm test', outcome: 'approve_once', surface: 'desktop' }, { command: 'npm test', outcome: 'approve_once', surface: 'web' }, { command: 'npm test', outcome: 'approve_session', surface: 'control' }] as Decision[], expected: [{ text: 'npm test', count: 3, patterns: [{ kind: 'argv', argv: ['npm', 'test'], match: 'exact' }] }] },
    { name: 'a compound command (one grant: exactly its line)', decisions: times(3, { command: 'mkdir -p build && touch build/a.txt', outcome: 'approve_once' }), expected: [{ text: 'mkdir -p build && touch build/a.txt', count: 3, patterns: [{ kind: 'command', command: 'mkdir -p build && touch build/a.txt' }] }] },
    { name: 'a call approved only twice', decisions: times(2, { command: 'touch notes.txt', outcome: 'approve_once' }), expected: [] },
    { name: 'a call skipped or denied, not approved', decisions: [...times(2, { command: 'touch notes.txt', outcome: 'skip' }), ...times(2, { command: 'touch notes.txt', outcome: 'deny' })] as Decision[], expected: [] },
    { name: 'a credential read approved again and again (a floor)', decisions: times(4, { command: 'cat /home/user/.ssh/id_ed25519', outcome: 'approve_once' }), expected: [] },
    { name: 'a force push approved again and again (destructive)', decisions: times(4, { command: 'git push --force origin main', outcome: 'approve_once' }), expected: [] },
    { name: 'a call run outside this workspace', decisions: times(3, { command: 'touch notes.txt', outcome: 'approve_once', cwd: '/home/user/elsewhere' }), expected: [] },
  ])('$name: $expected.length suggestion(s)', async ({ decisions, expected }) => {
    const c = await testCores();
    await decideAll(c, decisions);
    expect(grantSuggestions(c, { now: Date.now() }).map(({ text, count, patterns }) => ({ text, count, patterns }))).toEqual(expected);
  });

  it('lists the most approved first, each with its class, tool and hash', async () => {
    const c = await testCores();
    await decideAll(c, [...times(3, { command: 'touch a.txt', outcome: 'approve_once' }), ...times(4, { command: 'npm test', outcome: 'approve_once' })]);
    const s = grantSuggestions(c, { now: Date.now() });
    expect(s.map((x) => ({ tool: x.tool, text: x.text, class: x.class, count: x.count, hash: /^[0-9a-f]{64}$/.test(x.hash) }))).toEqual([
      { tool: 'run_command', text: 'npm test', class: 'write', count: 4, hash: true },
      { tool: 'run_command', text: 'touch a.txt', class: 'write', count: 3, hash: true },
    ]);
  });

  it('stops suggesting a call once a grant covers it (made through the normal path)', async () => {
    const c = await testCores();
    await decideAll(c, times(SUGGEST_AFTER, { command: 'touch notes.txt', outcome: 'approve_once' }));
    const [s] = grantSuggestions(c, { now: Date.now() });
    expect(c.createGrant({ tool: s!.tool, pattern: s!.patterns[0]!, duration: 'always' }, 'desktop').ok).toBe(true);
    expect(grantSuggestions(c, { now: Date.now() })).toEqual([]);
  });

  it('finds the suggestion for one call by its hash (what a card asks for)', async () => {
    const c = await testCores();
    await decideAll(c, [...times(3, { command: 'touch a.txt', outcome: 'approve_once' }), ...times(3, { command: 'touch b.txt', outcome: 'approve_once' })]);
    const all = grantSuggestions(c, { now: Date.now() });
    const b = all.find((x) => x.text === 'touch b.txt')!;
    expect(grantSuggestions(c, { now: Date.now(), hash: b.hash })).toEqual([b]);
  });
});
