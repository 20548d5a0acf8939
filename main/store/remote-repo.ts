// Approvers away from the desk (main/remote): the decision tokens minted for a card's buttons (their
// bound fields and MAC; the key is outside the database), the chat messages that show a card (edited
// when it is decided), and the paired phones (only a hash of each device's token is kept).
import type { Redacted } from '../redact/redactor';
import type { Db } from './db';

export interface RemoteTokenRow {
  id: string;
  approval_id: string;
  content_hash: string;
  outcome: string;
  bridge: string;
  audience: string;
  expires_at: number;
  mac: string;
  created_at: number;
  used_at: number | null;
  used_by: string | null;
}

export interface RemoteMessageRow {
  approval_id: string;
  bridge: string;
  audience: string;
  message_id: string;
  sent_at: number;
  final_at: number | null;
}

export interface PairedDeviceRow {
  id: string;
  name: string;
  token_hash: string;
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
}

export class RemoteRepo {
  constructor(private readonly db: Db) {}

  insertToken(t: Omit<RemoteTokenRow, 'used_at' | 'used_by'>): void {
    this.db
      .prepare('INSERT INTO remote_tokens (id, approval_id, content_hash, outcome, bridge, audience, expires_at, mac, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(t.id, t.approval_id, t.content_hash, t.outcome, t.bridge, t.audience, t.expires_at, t.mac, t.created_at);
  }

  token(id: string): RemoteTokenRow | undefined {
    return this.db.prepare('SELECT * FROM remote_tokens WHERE id = ?').get(id) as RemoteTokenRow | undefined;
  }

  /** The token minted for one outcome of one card on one bridge (Matrix answers name the card, not a token). */
  tokenFor(approvalId: string, bridge: string, outcome: string): RemoteTokenRow | undefined {
    return this.db.prepare('SELECT * FROM remote_tokens WHERE approval_id = ? AND bridge = ? AND outcome = ? ORDER BY created_at DESC LIMIT 1').get(approvalId, bridge, outcome) as RemoteTokenRow | undefined;
  }

  /** Marks a token used; false when it already was (the first use wins, in one statement). */
  useToken(id: string, at: number, by: Redacted<string>): boolean {
    return this.db.prepare('UPDATE remote_tokens SET used_at = ?, used_by = ? WHERE id = ? AND used_at IS NULL').run(at, by, id).changes === 1;
  }

  /** Forgets tokens that ended before `before`, and messages whose card was final by then (they decide nothing any more). */
  prune(before: number): number {
    const t = this.db.prepare('DELETE FROM remote_tokens WHERE expires_at < ?').run(before).changes;
    const m = this.db.prepare('DELETE FROM remote_messages WHERE final_at IS NOT NULL AND final_at < ?').run(before).changes;
    return t + m;
  }

  insertMessage(m: Omit<RemoteMessageRow, 'final_at'>): void {
    this.db
      .prepare('INSERT INTO remote_messages (approval_id, bridge, audience, message_id, sent_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(approval_id, bridge) DO UPDATE SET audience = excluded.audience, message_id = excluded.message_id, sent_at = excluded.sent_at, final_at = NULL')
      .run(m.approval_id, m.bridge, m.audience, m.message_id, m.sent_at);
  }

  message(approvalId: string, bridge: string): RemoteMessageRow | undefined {
    return this.db.prepare('SELECT * FROM remote_messages WHERE approval_id = ? AND bridge = ?').get(approvalId, bridge) as RemoteMessageRow | undefined;
  }

  messageByRef(bridge: string, messageId: string): RemoteMessageRow | undefined {
    return this.db.prepare('SELECT * FROM remote_messages WHERE bridge = ? AND message_id = ?').get(bridge, messageId) as RemoteMessageRow | undefined;
  }

  /** Messages still showing buttons: their card was not yet edited to its final state. */
  openMessages(bridge: string): RemoteMessageRow[] {
    return this.db.prepare('SELECT * FROM remote_messages WHERE bridge = ? AND final_at IS NULL ORDER BY sent_at').all(bridge) as RemoteMessageRow[];
  }

  markFinal(approvalId: string, bridge: string, at: number): void {
    this.db.prepare('UPDATE remote_messages SET final_at = ? WHERE approval_id = ? AND bridge = ?').run(at, approvalId, bridge);
  }

  insertDevice(d: { id: string; name: Redacted<string>; token_hash: string; created_at: number }): void {
    this.db.prepare('INSERT INTO paired_devices (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)').run(d.id, d.name, d.token_hash, d.created_at);
  }

  deviceByTokenHash(hash: string): PairedDeviceRow | undefined {
    return this.db.prepare('SELECT * FROM paired_devices WHERE token_hash = ?').get(hash) as PairedDeviceRow | undefined;
  }

  device(id: string): PairedDeviceRow | undefined {
    return this.db.prepare('SELECT * FROM paired_devices WHERE id = ?').get(id) as PairedDeviceRow | undefined;
  }

  devices(includeRevoked = false): PairedDeviceRow[] {
    return this.db.prepare(`SELECT * FROM paired_devices ${includeRevoked ? '' : 'WHERE revoked_at IS NULL'} ORDER BY created_at DESC`).all() as PairedDeviceRow[];
  }

  seen(id: string, at: number): void {
    this.db.prepare('UPDATE paired_devices SET last_seen_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
  }

  revokeDevice(id: string, at: number): boolean {
    return this.db.prepare('UPDATE paired_devices SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id).changes === 1;
  }
}
