// A plain HTTP request, once the proxy has checked it, sent on to the host. Node frames everything: the
// client's request (the proxy's HTTP server, so each request on a kept-alive connection is checked on
// its own), the request towards the host (ClientRequest), and the host's response head (Node's HTTP
// client parser). Only a body whose length the head states is copied differently: from the host's
// socket straight into the client's response, exactly that many bytes, instead of through the client
// parser and two streams (half the proxy's CPU per megabyte). The client sees the same bytes and the
// same connection handling either way; every other response (chunked, up to the close, HEAD, 204,
// 304) stays on Node's path.
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { BodySplice } from './bridge';
import type { Upstream } from './relay';

/** The host connection as Node's HTTP client sees it: writes go to the host, reads come from feed(). */
class HostLink extends Duplex {
  /** Set while the helper reads the host's socket: the parser may no longer start or stop it. */
  held = false;

  constructor(private readonly host: Socket) {
    super();
  }

  override _read(): void {}

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.host.write(chunk, cb);
  }

  override _destroy(err: Error | null, cb: (e: Error | null) => void): void {
    this.host.destroy();
    cb(err);
  }

  // The client parser stops and starts reading when its response is full or drained: that is the host's socket.
  override pause(): this {
    if (!this.held) this.host.pause();
    return super.pause();
  }

  override resume(): this {
    if (!this.held) this.host.resume();
    return super.resume();
  }

  /** Hands bytes to the parser at once (it listens for 'data'), so nothing waits in a buffer out of order. */
  feed(block: Buffer): void {
    this.emit('data', block);
  }

  ended(): void {
    this.emit('end');
  }
}

/** A response whose body is exactly content-length bytes after its head. */
function statedLength(method: string | undefined, r: IncomingMessage): number | null {
  if (method === 'HEAD' || r.statusCode === 204 || r.statusCode === 304) return null;
  const cl = r.headers['content-length'];
  if (r.headers['transfer-encoding'] !== undefined || cl === undefined || !/^\d{1,15}$/.test(cl)) return null;
  return Number(cl);
}

/**
 * A body with at least this much still to come is spliced by the helper when there is one; a shorter
 * one is copied here. Handing two sockets over and back costs about a millisecond (IPC round trips, a
 * thread in the helper): at 1 MiB the copy here was still as fast, from 2 MiB the splice was faster
 * (docs/performance.md, "Egress throughput, fourth session").
 */
export const SPLICE_MIN_BYTES = 2 * 1024 * 1024;

export interface ForwardTarget {
  upstream: Upstream;
  path: string;
  headers: OutgoingHttpHeaders;
  /** The bridge's helper, to move long bodies without Node. */
  splice?: BodySplice;
  /** The host could not be reached or hung up before its answer. */
  onFailure(e: Error): void;
}

export function forwardPlain(req: IncomingMessage, res: ServerResponse, t: ForwardTarget): void {
  const host = t.upstream.socket;
  const link = new HostLink(host);
  let upRes: IncomingMessage | null = null;
  /** Bytes of the body still to copy straight, once the copying has taken over from the parser. */
  let left: number | null = null;
  let takeOverWhenParsed = false;
  let done = false;

  const finish = () => {
    done = true;
    res.end();
    link.destroy();
  };
  // One block of the body, straight to the client; false while the client's socket is full.
  const copy = (block: Buffer, release?: () => void): boolean => {
    const piece = block.length > left! ? block.subarray(0, left!) : block;
    left! -= piece.length;
    const ok = release ? res.write(piece, release) : res.write(piece);
    if (left === 0) {
      finish();
      return false;
    }
    if (ok) return true;
    res.once('drain', () => !link.held && host.resume());
    return false;
  };
  // The rest of the body goes through the helper. The host's socket stops here first (it reads with
  // onread, so pause stops the reading itself), and the helper starts once everything written to the
  // client so far (the head, what the parser had of the body) is in the kernel: the empty write's
  // callback comes after all earlier writes.
  const handOver = (splice: BodySplice, client: Socket) => {
    link.held = true;
    host.pause();
    res.write(Buffer.alloc(0), () => {
      if (done) return;
      const body = splice(client, host, left!);
      res.once('close', body.abort);
      void body.done.then((ok) => {
        if (done) return;
        if (ok) {
          left = 0;
          return finish();
        }
        // Cut short: the client must not take what it got for the whole body, nor reuse the connection.
        done = true;
        res.destroy();
        link.destroy();
      });
    });
  };
  // What the parser already took of the body goes first, then the copying carries on from the socket.
  const takeOver = () => {
    if (!takeOverWhenParsed || left !== null || done) return;
    takeOverWhenParsed = false;
    left = statedLength(req.method, upRes!)!;
    if (left === 0) return finish();
    let chunk: Buffer | null;
    while (left !== null && !done && (chunk = upRes!.read() as Buffer | null) !== null) copy(chunk);
    if (done) return;
    const splice = t.splice;
    if (splice && left! >= SPLICE_MIN_BYTES) {
      // Only while this response has the client's socket. A pipelined one waits in Node's queue for
      // those before it: the copy goes on into its buffer (which soon stops the host's socket), and
      // the helper takes the rest once the socket is this response's.
      const mayTake = (client: Socket | null): client is Socket => !done && !link.held && left! >= SPLICE_MIN_BYTES && client !== null && client === req.socket && !client.destroyed;
      if (mayTake(res.socket)) return handOver(splice, res.socket);
      if (!res.socket) res.once('socket', (client: Socket) => mayTake(client) && handOver(splice, client));
    }
    // The parser may have stopped the socket when its own buffer filled; the copying decides from here.
    if (!res.writableNeedDrain) host.resume();
  };

  t.upstream.readInto((block, release) => {
    if (done || link.held) return false;
    if (left !== null) return copy(block, release);
    // The parser keeps slices of what it is fed: those blocks are never given back for reuse.
    link.feed(block);
    takeOver();
    return true;
  });
  host.on('end', () => link.ended());
  host.on('close', () => link.destroy());
  res.on('close', () => link.destroy());

  const up = httpRequest({ method: req.method, path: t.path, headers: t.headers, setHost: false, createConnection: () => link }, (r) => {
    upRes = r;
    r.on('error', () => {});
    res.writeHead(r.statusCode ?? 502, r.statusMessage, r.rawHeaders);
    if (statedLength(req.method, r) === null) {
      r.pipe(res);
      return;
    }
    // The body's bytes that came with the head are parsed once this returns: take over after that.
    takeOverWhenParsed = true;
    process.nextTick(takeOver);
  });
  up.on('error', (e) => {
    if (done) return;
    if (!res.headersSent) t.onFailure(e);
    else res.destroy();
  });
  req.pipe(up);
}
