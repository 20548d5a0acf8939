// Output capture with a fixed memory bound: the first half of the cap is kept as it arrives, the last
// half in a ring; whatever falls between is counted and shown as "… N bytes omitted …".
import type { StreamResult } from './types';

export class HeadTailBuffer {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  /** Allocated when output first goes past the head: most commands never fill the head, and zeroing half a MiB per stream was about 0.2 ms of every call. */
  private tail: Buffer | null = null;
  private tailStart = 0;
  private tailBytes = 0;
  total = 0;

  constructor(cap: number) {
    this.headCap = Math.ceil(cap / 2);
    this.tailCap = Math.floor(cap / 2);
  }

  private ring(): Buffer {
    return (this.tail ??= Buffer.alloc(this.tailCap));
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headCap) {
      const take = Math.min(this.headCap - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailCap === 0) return;
    if (rest.length >= this.tailCap) {
      rest.copy(this.ring(), 0, rest.length - this.tailCap);
      this.tailStart = 0;
      this.tailBytes = this.tailCap;
      return;
    }
    // Ring write.
    let offset = (this.tailStart + this.tailBytes) % this.tailCap;
    for (let i = 0; i < rest.length; ) {
      const n = Math.min(rest.length - i, this.tailCap - offset);
      rest.copy(this.ring(), offset, i, i + n);
      i += n;
      offset = (offset + n) % this.tailCap;
    }
    const grown = this.tailBytes + rest.length;
    if (grown > this.tailCap) this.tailStart = (this.tailStart + grown - this.tailCap) % this.tailCap;
    this.tailBytes = Math.min(grown, this.tailCap);
  }

  private tailBuffer(): Buffer {
    if (!this.tail) return Buffer.alloc(0);
    if (this.tailBytes < this.tailCap) return Buffer.from(this.tail.subarray(this.tailStart, this.tailStart + this.tailBytes));
    return Buffer.concat([this.tail.subarray(this.tailStart), this.tail.subarray(0, this.tailStart)]);
  }

  result(): StreamResult {
    const head = Buffer.concat(this.head);
    const tail = this.tailBuffer();
    const omitted = this.total - head.length - tail.length;
    const binary = looksBinary(head);
    if (binary) return { text: `(binary output, ${this.total} bytes)`, bytes: this.total, truncated: omitted > 0, binary: true };
    const text = omitted > 0 ? `${decodeEdge(head, 'end')}\n… ${omitted} bytes omitted …\n${decodeEdge(tail, 'start')}` : decodeEdge(Buffer.concat([head, tail]), 'end');
    return { text, bytes: this.total, truncated: omitted > 0, binary: false };
  }
}

/** NUL bytes, or mostly undecodable bytes, mean the output is not text. */
function looksBinary(b: Buffer): boolean {
  const sample = b.subarray(0, 8192);
  if (sample.includes(0)) return true;
  const text = sample.toString('utf8');
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  return sample.length > 0 && bad / sample.length > 0.1;
}

/** Decodes UTF-8, dropping a multi-byte character cut at the given edge. */
function decodeEdge(b: Buffer, edge: 'start' | 'end'): string {
  let buf = b;
  if (edge === 'start') {
    let i = 0;
    while (i < buf.length && i < 4 && (buf[i]! & 0xc0) === 0x80) i++;
    buf = buf.subarray(i);
  }
  return buf.toString('utf8');
}
