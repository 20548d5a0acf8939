// The proxy's data path once a connection is allowed: bytes from the host go to the client without
// Node's stream machinery in between. The upstream socket reads straight into large blocks (`onread`),
// and each block is handed to the client's socket as it is; the read stops while the client's socket is
// full and starts again when it drains. Downloads are where the bytes are, and a stream pipe costs about
// twice the CPU per megabyte of this (docs/performance.md, "Egress throughput, third session"); the
// client's side (an upload, a request) keeps an ordinary pipe.
import { connect, type Socket } from 'node:net';

/** How much one read may take from the host's socket. */
export const READ_BLOCK = 256 * 1024;

/** Blocks kept for reuse on one connection (a fresh block per read costs page faults and zeroing). */
const POOL = 8;

/**
 * Takes one block read from the host; returns false when the reading should wait (it calls resume
 * later). `release` gives the memory back once nothing refers to it any more (the write's callback);
 * a taker that keeps references it cannot track (the HTTP parser) never calls it.
 */
export type BlockSink = (block: Buffer, release: () => void) => boolean;

export interface Upstream {
  socket: Socket;
  /** Starts relaying both ways between this host connection and the client. Nothing is read from the host before. */
  relayTo(client: Socket): void;
  /** Starts reading the host's bytes into `sink` (the plain-HTTP path, which frames them itself). */
  readInto(sink: BlockSink): void;
}

/**
 * Dials address:port, resolving once connected. The socket stays paused until relayTo, so a host that
 * speaks first cannot get ahead of the proxy's own answer to the client.
 */
export function dialUpstream(address: string, port: number, timeoutMs: number, track: (s: Socket) => Socket): Promise<Upstream> {
  let sink: BlockSink | null = null;
  // This connection's own blocks only: memory read from one host never goes out on another connection.
  const pool: Buffer[] = [];
  const socket = connect({
    host: address,
    port,
    onread: {
      // Node asks for the next block after each read, so a block handed on is never read into again
      // until its taker has released it.
      buffer: () => pool.pop() ?? Buffer.allocUnsafeSlow(READ_BLOCK),
      callback: (n: number, block: Buffer) => {
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          if (pool.length < POOL) pool.push(block);
        };
        if (sink && !sink(block.subarray(0, n), release)) socket.pause();
        return true;
      },
    },
  });
  socket.pause();
  track(socket);
  const readInto = (s: BlockSink): void => {
    sink = s;
    socket.resume();
  };
  const relayTo = (client: Socket): void => {
    sink = (block, release) => {
      if (client.destroyed) {
        socket.destroy();
        return false;
      }
      if (client.write(block, release)) return true;
      client.once('drain', () => socket.resume());
      return false;
    };
    client.pipe(socket);
    socket.on('end', () => client.end());
    socket.on('error', () => client.destroy());
    client.on('close', () => socket.destroy());
    socket.resume();
    client.resume();
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('timed out'));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve({ socket, relayTo, readInto });
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
