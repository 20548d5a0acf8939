// An approval is bound to the hash shown: the content hash changes with anything the call would do
// differently, never with how its arguments happen to be ordered, and a decision naming any other hash
// changes nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextPending, shellCall, testCore } from '../../test/support/core';
import { contentHash } from './content-hash';
import type { ThresholdCore } from '../runtime/core';

const RUNS = { numRuns: 1000 };

const call = fc.record({
  tool: fc.constantFrom('run_command', 'write_file', 'edit_file', 'web_fetch'),
  args: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean()), { minKeys: 1, maxKeys: 4 }),
  cwd: fc.constantFrom('/home/user/project', '/home/user/project/src', '/home/user'),
  envKeys: fc.uniqueArray(fc.constantFrom('PATH', 'HOME', 'LANG', 'CI', 'TOKEN'), { maxLength: 3 }),
});

describe('the content hash', () => {
  it('does not depend on the order of argument keys or environment names', () => {
    fc.assert(
      fc.property(call, (c) => {
        const reordered = { ...c, args: Object.fromEntries(Object.entries(c.args).reverse()), envKeys: [...c.envKeys].reverse() };
        expect(contentHash(reordered)).toBe(contentHash(c));
      }),
      RUNS,
    );
  });

  it('changes with the tool, any argument, the directory or the environment names', () => {
    const change = fc.constantFrom('tool', 'arg', 'new_arg', 'cwd', 'env');
    fc.assert(
      fc.property(call, change, fc.string({ maxLength: 20 }), (c, what, value) => {
        const key = Object.keys(c.args)[0]!;
        const changed =
          what === 'tool'
            ? { ...c, tool: c.tool === 'run_command' ? 'write_file' : 'run_command' }
            : what === 'arg'
              ? { ...c, args: { ...c.args, [key]: JSON.stringify(c.args[key]) + value + '!' } }
              : what === 'new_arg'
                ? { ...c, args: { ...c.args, [`${key}_extra`]: value } }
                : what === 'cwd'
                  ? { ...c, cwd: `${c.cwd}/sub` }
                  : { ...c, envKeys: [...c.envKeys, `X_${c.envKeys.length}`] };
        expect(contentHash(changed)).not.toBe(contentHash(c));
      }),
      RUNS,
    );
  });
});

describe('a decision names the hash it was shown', () => {
  let core: ThresholdCore;
  beforeAll(async () => {
    core = await testCore();
  });
  afterAll(() => core.dispose());

  it('any other hash is refused and leaves the approval pending; the shown one decides it', async () => {
    const review = core.calls.review(shellCall('touch bound.txt'));
    const p = await nextPending(core);
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[0-9a-f]{64}$/), async (hash) => {
        fc.pre(hash !== p.hash);
        const r = await core.gate.decideApproval({ approvalId: p.id, hash, outcome: 'approve_once', surface: 'desktop' });
        expect({ refused: !r.ok && r.error.code, status: core.store.approvals.get(p.id)?.status }).toEqual({ refused: 'hash_mismatch', status: 'pending' });
      }),
      RUNS,
    );
    expect(await core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' })).toMatchObject({ ok: true });
    expect((await review).run).toBe(true);
  });
});
