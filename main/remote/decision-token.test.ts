import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Store } from '../store/store';
import { DecisionTokens, TOKEN_PATTERN, type TokenBinding } from './decision-token';

const BINDING: TokenBinding = { approvalId: 'ap_1', hash: 'a'.repeat(64), outcome: 'deny', bridge: 'telegram', audience: '42', expiresAt: 10_000 };
const WHERE = { bridge: 'telegram', audience: '42' };

function setup() {
  const store = Store.inMemory();
  const key = randomBytes(32);
  const tokens = new DecisionTokens(store, key);
  const token = tokens.mint(BINDING, 1000);
  const id = TOKEN_PATTERN.exec(token)![1]!;
  return { store, key, tokens, token, id };
}

describe('a decision token', () => {
  it('fits in Telegram callback_data and verifies where and while it was minted for', () => {
    const { tokens, token } = setup();
    expect({ bytes: Buffer.byteLength(token) <= 64, check: tokens.check(token, WHERE, 5000).ok }).toEqual({ bytes: true, check: true });
  });

  // Each line changes one bound thing; the token must stop deciding.
  it.each([
    { name: 'its MAC altered', act: (s: ReturnType<typeof setup>) => ({ token: s.token.slice(0, -2) + (s.token.endsWith('AA') ? 'BB' : 'AA') }), reason: 'forged' },
    { name: 'its stored outcome rewritten in the database', act: (s: ReturnType<typeof setup>) => (s.store.db.prepare("UPDATE remote_tokens SET outcome = 'approve_once' WHERE id = ?").run(s.id), {}), reason: 'forged' },
    { name: 'its stored approval swapped in the database', act: (s: ReturnType<typeof setup>) => (s.store.db.prepare("UPDATE remote_tokens SET approval_id = 'ap_2' WHERE id = ?").run(s.id), {}), reason: 'forged' },
    { name: 'its stored hash swapped in the database', act: (s: ReturnType<typeof setup>) => (s.store.db.prepare("UPDATE remote_tokens SET content_hash = ? WHERE id = ?").run('b'.repeat(64), s.id), {}), reason: 'forged' },
    { name: 'its stored expiry extended in the database', act: (s: ReturnType<typeof setup>) => (s.store.db.prepare('UPDATE remote_tokens SET expires_at = 99999999 WHERE id = ?').run(s.id), { now: 20_000 }), reason: 'forged' },
    { name: 'its stored chat moved to the presser’s in the database', act: (s: ReturnType<typeof setup>) => (s.store.db.prepare("UPDATE remote_tokens SET audience = '7' WHERE id = ?").run(s.id), { where: { bridge: 'telegram', audience: '7' } }), reason: 'forged' },
    { name: 'pressed in another chat', act: () => ({ where: { bridge: 'telegram', audience: '7' } }), reason: 'foreign' },
    { name: 'pressed on another bridge', act: () => ({ where: { bridge: 'matrix', audience: '42' } }), reason: 'foreign' },
    { name: 'pressed at its expiry', act: () => ({ now: 10_000 }), reason: 'expired' },
    { name: 'already used', act: (s: ReturnType<typeof setup>) => (s.store.remote.useToken(s.id, 2000, 'someone' as never), {}), reason: 'used' },
    { name: 'minted under another key (another Threshold, or the key replaced)', act: (s: ReturnType<typeof setup>) => ({ tokens: new DecisionTokens(s.store, randomBytes(32)) }), reason: 'forged' },
    { name: 'an id that was never minted', act: () => ({ token: '1.AAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA' }), reason: 'unknown' },
    { name: 'not a token (an outcome name)', act: () => ({ token: 'approve_once' }), reason: 'malformed' },
    { name: 'a token with something after it', act: (s: ReturnType<typeof setup>) => ({ token: `${s.token}x` }), reason: 'malformed' },
    { name: 'not a string', act: () => ({ token: { id: 1 } }), reason: 'malformed' },
  ])('$name: refused as $reason', ({ act, reason }) => {
    const s = setup();
    const o = act(s) as { token?: unknown; where?: typeof WHERE; now?: number; tokens?: DecisionTokens };
    const r = (o.tokens ?? s.tokens).check(o.token ?? s.token, o.where ?? WHERE, o.now ?? 5000);
    expect(r.ok ? 'accepted' : r.reason).toBe(reason);
  });

  it('a stored token checked by card and outcome (Matrix) verifies, and a row written without the key does not', () => {
    const s = setup();
    expect(s.tokens.checkStored('ap_1', 'deny', { bridge: 'telegram', audience: '42' }, 5000).ok).toBe(true);
    s.store.db.prepare("INSERT INTO remote_tokens (id, approval_id, content_hash, outcome, bridge, audience, expires_at, mac, created_at) VALUES ('forgedforged', 'ap_1', ?, 'approve_once', 'telegram', '42', 10000, 'AAAAAAAAAAAAAAAAAAAAAA', 2000)").run('a'.repeat(64));
    const r = s.tokens.checkStored('ap_1', 'approve_once', { bridge: 'telegram', audience: '42' }, 5000);
    expect(r.ok ? 'accepted' : r.reason).toBe('forged');
  });

  it('is forgotten a week after it ended (pruned), and then refused as unknown, never accepted', () => {
    const s = setup();
    expect(s.store.remote.prune(9_000)).toBe(0);
    expect(s.store.remote.prune(10_001)).toBe(1);
    const r = s.tokens.check(s.token, WHERE, 5000);
    expect(r.ok ? 'accepted' : r.reason).toBe('unknown');
  });
});
