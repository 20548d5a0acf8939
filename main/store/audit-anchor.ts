// The audit chain's head, kept outside the database (keys/audit.head, mode 0600): the sequence number and
// hash of the newest entry, and where the keyed part of the chain starts, under an HMAC with the audit
// key. Someone holding only the database can rewrite rows but not this file, so a removed tail or an
// older copy of the database (a rollback) no longer matches it.
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface AnchoredHead {
  seq: number;
  hash: string;
  keyed_from: number;
}

export type AnchorRead = { state: 'ok'; head: AnchoredHead } | { state: 'missing' } | { state: 'forged'; why: string };

export class HeadAnchor {
  constructor(
    readonly file: string,
    private readonly key: Buffer,
  ) {}

  private mac(h: AnchoredHead): string {
    return createHmac('sha256', this.key).update(`anchor\n${h.seq}\n${h.hash}\n${h.keyed_from}`).digest('hex');
  }

  read(): AnchorRead {
    if (!existsSync(this.file)) return { state: 'missing' };
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return { state: 'forged', why: 'it is not valid JSON' };
    }
    const p = parsed as Partial<AnchoredHead & { mac: string; version: number }>;
    if (p.version !== 1 || !Number.isSafeInteger(p.seq) || !Number.isSafeInteger(p.keyed_from) || typeof p.hash !== 'string' || typeof p.mac !== 'string') {
      return { state: 'forged', why: 'its fields are not those Threshold writes' };
    }
    const head = { seq: p.seq!, hash: p.hash, keyed_from: p.keyed_from! };
    if (p.mac !== this.mac(head)) return { state: 'forged', why: 'its HMAC does not verify with the audit key' };
    return { state: 'ok', head };
  }

  /** Replaces the file in one rename, so a crash leaves the old head or the new one, never half of one. */
  write(head: AnchoredHead): void {
    // Per process: the daemon and the checkpoints CLI may both move the anchor.
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: 1, ...head, mac: this.mac(head) }) + '\n', { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
