// A remote button's decision token: single use, bound to one approval, its content hash, one outcome,
// the bridge and chat it was sent to, and an expiry. The bound fields are stored; the token carries an
// id and a MAC over all of them under a key kept outside the database (keys/remote.key, as the audit
// key is), so someone who can write the database still cannot turn a Deny button into an Approve, move
// a button to another card or chat, or extend its life: the MAC no longer verifies.
//
// Wire form, 37 bytes (Telegram allows 64 in callback_data): `1.<id: 12 base64url>.<mac: 22 base64url>`.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HumanOutcome } from '../../common/approvals';
import { ensurePrivateDir, tightenIfExists } from '../config/dirs';
import type { RemoteTokenRow } from '../store/remote-repo';
import type { Store } from '../store/store';

export const TOKEN_PATTERN = /^1\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{22})$/;
/** Telegram's limit on callback_data, in bytes. */
export const CALLBACK_DATA_MAX = 64;

export interface TokenBinding {
  approvalId: string;
  hash: string;
  outcome: HumanOutcome;
  /** telegram, matrix. */
  bridge: string;
  /** The chat or room it was sent to. */
  audience: string;
  expiresAt: number;
}

export type TokenRefusal = 'malformed' | 'unknown' | 'forged' | 'foreign' | 'expired' | 'used';

export type TokenCheck = { ok: true; row: RemoteTokenRow } | { ok: false; reason: TokenRefusal };

/** The remote key: 32 random bytes in keys/remote.key (mode 0600), made at first use. */
export function loadRemoteKey(dataDir: string): Buffer {
  const keys = join(dataDir, 'keys');
  ensurePrivateDir(keys, 'key directory');
  const file = join(keys, 'remote.key');
  if (existsSync(file)) {
    tightenIfExists(file);
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new Error(`The remote approvals key ${file} is damaged (expected 64 hex characters); remove it and Threshold makes a new one (buttons already sent stop working).`);
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  return key;
}

export class DecisionTokens {
  constructor(
    private readonly store: Pick<Store, 'remote'>,
    private readonly key: Buffer,
  ) {}

  private mac(id: string, b: { approval_id: string; content_hash: string; outcome: string; bridge: string; audience: string; expires_at: number }): string {
    return createHmac('sha256', this.key)
      .update(`threshold remote decision\n1\n${id}\n${b.approval_id}\n${b.content_hash}\n${b.outcome}\n${b.bridge}\n${b.audience}\n${b.expires_at}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  /** Mints and stores a token; returns its wire form. */
  mint(b: TokenBinding, at: number): string {
    const id = randomBytes(9).toString('base64url');
    const fields = { approval_id: b.approvalId, content_hash: b.hash, outcome: b.outcome, bridge: b.bridge, audience: b.audience, expires_at: b.expiresAt };
    const mac = this.mac(id, fields);
    this.store.remote.insertToken({ id, ...fields, mac, created_at: at });
    return `1.${id}.${mac}`;
  }

  /** Checks a token pressed on `bridge` in `audience` at `now` (not yet marked used: see consume). */
  check(token: unknown, press: { bridge: string; audience: string }, now: number): TokenCheck {
    const m = typeof token === 'string' ? TOKEN_PATTERN.exec(token) : null;
    if (!m) return { ok: false, reason: 'malformed' };
    const row = this.store.remote.token(m[1]!);
    if (!row) return { ok: false, reason: 'unknown' };
    if (!sameMac(m[2]!, this.mac(row.id, row))) return { ok: false, reason: 'forged' };
    return this.checkRow(row, press, now);
  }

  /**
   * Checks the stored token for one outcome of a card (a Matrix reaction or reply names the card, not a
   * token): its stored MAC must verify, so a row written into the database without the key does not.
   */
  checkStored(approvalId: string, outcome: string, press: { bridge: string; audience: string }, now: number): TokenCheck {
    const row = this.store.remote.tokenFor(approvalId, press.bridge, outcome);
    if (!row) return { ok: false, reason: 'unknown' };
    if (!sameMac(row.mac, this.mac(row.id, row))) return { ok: false, reason: 'forged' };
    return this.checkRow(row, press, now);
  }

  private checkRow(row: RemoteTokenRow, press: { bridge: string; audience: string }, now: number): TokenCheck {
    if (row.bridge !== press.bridge || row.audience !== press.audience) return { ok: false, reason: 'foreign' };
    if (row.used_at !== null) return { ok: false, reason: 'used' };
    if (now >= row.expires_at) return { ok: false, reason: 'expired' };
    return { ok: true, row };
  }
}

function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
