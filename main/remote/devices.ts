// Paired phones. Settings → Devices → Pair a phone makes a one-time pairing code (128 random bits, five
// minutes, one at a time, void after five wrong guesses); the phone trades it at /pair for its own device
// token (256 random bits, only its SHA-256 is stored), listed with name and last seen, revocable. Every
// request of a device is checked against the store, so a revoked device is refused at its next request.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DeviceView } from '../gate/events';
import type { RemoteCore } from './core-parts';
import { newId } from '../store/ids';
import type { PairedDeviceRow } from '../store/remote-repo';

export const PAIRING_TTL_MS = 5 * 60_000;
export const PAIRING_GUESSES = 5;
const NAME_MAX = 60;
/** Refused pairings audited one by one per minute; past that they are counted (anyone on the network can try). */
const REFUSALS_AUDITED_PER_MINUTE = 20;
/** How often `last seen` is written for one device (not at every message). */
const SEEN_EVERY_MS = 30_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class PairedDevices {
  private pending: { code: string; expiresAt: number; wrong: number } | null = null;
  private readonly lastSeenWrite = new Map<string, number>();
  private refusals = { minute: 0, count: 0, dropped: 0 };
  private readonly now: () => number;

  constructor(
    private readonly core: RemoteCore,
    now?: () => number,
  ) {
    this.now = now ?? Date.now;
  }

  /** A new one-time code; any earlier one stops working. */
  startPairing(by: string): { code: string; expiresAt: number } {
    const code = randomBytes(16).toString('base64url');
    this.pending = { code, expiresAt: this.now() + PAIRING_TTL_MS, wrong: 0 };
    this.audit('device.pairing_started', null, { by, expires_at: this.pending.expiresAt });
    return { code, expiresAt: this.pending.expiresAt };
  }

  /** Trades the code for a device token; every refusal is audited and says what to do. */
  pair(code: string, name: string): { ok: true; token: string; device: DeviceView } | { ok: false; status: number; message: string } {
    const p = this.pending;
    const refuse = (status: number, message: string, why: string) => {
      this.auditRefusal(why);
      return { ok: false as const, status, message };
    };
    if (!p) return refuse(403, 'Refused: no pairing was started. On your computer open Settings → Devices → Pair a phone and scan the new code.', 'none_started');
    if (this.now() >= p.expiresAt) {
      this.pending = null;
      return refuse(403, 'Refused: the pairing code expired. Start again from Settings → Devices.', 'expired');
    }
    if (!sameText(code, p.code)) {
      if (++p.wrong >= PAIRING_GUESSES) this.pending = null;
      return refuse(403, 'Refused: that is not the pairing code on your computer.', 'wrong_code');
    }
    this.pending = null;
    const cleaned = name.replace(/\s+/g, ' ').trim().slice(0, NAME_MAX) || 'Phone';
    const token = randomBytes(32).toString('base64url');
    const id = newId('dev');
    const at = this.now();
    const shown = this.core.redactor.redactTextSync(cleaned);
    this.core.store.transaction(() => {
      this.core.store.remote.insertDevice({ id, name: shown, token_hash: hashToken(token), created_at: at });
      this.core.store.audit.append({ at, kind: 'device.paired', subject: id, data: this.core.redactor.redactRecord({ name: cleaned }) });
    });
    this.core.redactor.addKnownSecret(token);
    const device = view(this.core.store.remote.device(id)!);
    this.core.events.emit('device.paired', device);
    return { ok: true, token, device };
  }

  /** The paired (not revoked) device a token belongs to; marks it seen. */
  authenticate(token: string): { id: string } | null {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const row = this.core.store.remote.deviceByTokenHash(hashToken(token));
    if (!row || row.revoked_at !== null) return null;
    this.seen(row.id);
    return { id: row.id };
  }

  paired(id: string): boolean {
    const row = this.core.store.remote.device(id);
    if (!row || row.revoked_at !== null) return false;
    this.seen(id);
    return true;
  }

  private seen(id: string): void {
    const at = this.now();
    if (at - (this.lastSeenWrite.get(id) ?? 0) < SEEN_EVERY_MS) return;
    this.lastSeenWrite.set(id, at);
    this.core.store.remote.seen(id, at);
  }

  list(includeRevoked = false): DeviceView[] {
    return this.core.store.remote.devices(includeRevoked).map(view);
  }

  name(id: string): string | null {
    return this.core.store.remote.device(id)?.name ?? null;
  }

  revoke(id: string, by: string): { ok: true; value: DeviceView } | { ok: false; error: { code: string; message: string } } {
    const at = this.now();
    let revoked = false;
    this.core.store.transaction(() => {
      revoked = this.core.store.remote.revokeDevice(id, at);
      if (revoked) this.core.store.audit.append({ at, kind: 'device.revoked', subject: id, data: this.core.redactor.redactRecord({ by }) });
    });
    const row = this.core.store.remote.device(id);
    if (!row) return { ok: false, error: { code: 'not_found', message: `There is no paired device ${id}.` } };
    if (!revoked) return { ok: false, error: { code: 'already_revoked', message: `Device ${id} was already revoked.` } };
    const device = view(row);
    this.core.events.emit('device.revoked', device);
    return { ok: true, value: device };
  }

  private auditRefusal(why: string): void {
    const minute = Math.floor(this.now() / 60_000);
    if (this.refusals.minute !== minute) {
      if (this.refusals.dropped) this.audit('device.pair_refused_flood', null, { refused_unaudited: this.refusals.dropped });
      this.refusals = { minute, count: 0, dropped: 0 };
    }
    if (++this.refusals.count > REFUSALS_AUDITED_PER_MINUTE) this.refusals.dropped++;
    else this.audit('device.pair_refused', null, { why });
  }

  private audit(kind: string, subject: string | null, data: Record<string, unknown>): void {
    try {
      this.core.store.transaction(() => this.core.store.audit.append({ at: this.now(), kind, subject, data: this.core.redactor.redactRecord(data) }));
    } catch {
      process.emitWarning(`Threshold could not write an audit entry (${kind}).`);
    }
  }
}

function view(r: PairedDeviceRow): DeviceView {
  return { id: r.id, name: r.name, created_at: r.created_at, last_seen_at: r.last_seen_at, revoked_at: r.revoked_at };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
