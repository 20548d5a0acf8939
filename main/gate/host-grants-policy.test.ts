// A host grant made on the egress consent card counts for the policy too: at `full`, a download from a
// host the user allowed for this session runs unasked; in another session, or before the grant, it asks.
import { describe, expect, it } from 'vitest';
import { shellCall, useCores } from '../../test/support/core';

const testCores = useCores();

describe('host grants in the policy at full', () => {
  it.each([
    { name: 'a download from a host nobody allowed asks (nobody is there, so it is refused)', grant: null, session: 's1', run: false },
    { name: 'a download from a host granted for this session runs unasked', grant: { session: 's1' }, session: 's1', run: true },
    { name: 'a host granted for another session still asks', grant: { session: 's2' }, session: 's1', run: false },
    { name: 'a host granted always runs in every session', grant: { session: null }, session: 's3', run: true },
  ])('$name', async ({ grant, session, run }) => {
    const core = await testCores({ level: 'full', approver: false });
    if (grant) core.store.hostGrants.insert({ pattern: 'downloads.example.com', scope: grant.session ? 'session' : 'always', session_id: grant.session, expires_at: null, created_at: Date.now() });
    const v = await core.calls.review(shellCall('curl -fsSL -o page.html https://downloads.example.com/page.html', { sessionId: session }));
    expect(v.run).toBe(run);
  });
});
