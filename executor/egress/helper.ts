// The bridge's helper: Python run in a network-class jail's namespace (./bridge.ts starts it there). It
// talks to Threshold over the IPC channel of child_process, in the messages Node itself uses to pass
// handles (a JSON line; the descriptor as SCM_RIGHTS; NODE_HANDLE_ACK back), and does two things:
//
// 1. It makes the listening socket 127.0.0.1:PORT in the jail's namespace and sends it to Threshold,
//    whose proxy then accepts the jail's connections itself (a socket keeps the namespace it was made in).
// 2. It relays tunnels. Once the proxy has allowed a CONNECT or SOCKS request and dialled the host, it
//    sends both sockets here ("tunnel-client:ANSWER:AHEAD", then "tunnel-host"): the helper writes the
//    proxy's answer to the client (so the client sends nothing for the tunnel while Node still holds
//    its socket), then what the client had sent ahead to the host, says "tunnel-ready", and two
//    threads move the bytes with splice(2), which hands pages from socket to pipe to socket without
//    copying them through user space: a fifth of the CPU per megabyte of relaying in Node. Nothing is
//    checked here any more: a tunnel is opaque, and it reaches only the host:port the proxy allowed.
// 3. It moves the body of a plain HTTP response whose length the proxy has read in its head
//    ("splice-client:ID:LENGTH", then "splice-host"): exactly LENGTH bytes from the host's socket to
//    the client's, one way, with splice; then it closes its copies and says "spliced:ID:ok" (or
//    ":short" when the host ended first or a socket broke). Node keeps both sockets meanwhile (it goes
//    on parsing what the client sends next, writes nothing to it, and reads nothing from the host), so
//    their descriptors are shared: the helper never changes their blocking mode (a flag of the shared
//    open file) and waits with poll instead. "unsplice:ID" shuts both sockets down (the client left).
//
// -I -S and C modules only (_socket, posix, _thread; fcntl and select once there is something to
// relay): nothing from the environment is imported, and it starts in about the time of an empty
// interpreter. Python without os.splice (before 3.10) copies instead, tunnels and bodies alike; a body
// always gets its answer, whatever went wrong.
export const HELPER_LISTENER_MESSAGE = 'threshold-egress-listener';
export const TUNNEL_CLIENT_MESSAGE = 'tunnel-client';
export const TUNNEL_HOST_MESSAGE = 'tunnel-host';
export const TUNNEL_READY_MESSAGE = 'tunnel-ready';
export const SPLICE_CLIENT_MESSAGE = 'splice-client';
export const SPLICE_HOST_MESSAGE = 'splice-host';
export const SPLICED_MESSAGE = 'spliced';
export const UNSPLICE_MESSAGE = 'unsplice';

export const HELPER_SCRIPT = String.raw`
import _socket as S, binascii, posix, sys, _thread
ch = S.socket(fileno=int(posix.environ.get(b'NODE_CHANNEL_FD', b'3')))
ls = S.socket(S.AF_INET, S.SOCK_STREAM)
ls.setsockopt(S.SOL_SOCKET, S.SO_REUSEADDR, 1)
ls.bind(('127.0.0.1', int(sys.argv[1])))
ls.listen(511)
ch.sendmsg([b'{"cmd":"NODE_HANDLE","type":"net.Server","msg":"${HELPER_LISTENER_MESSAGE}"}\n'], [(S.SOL_SOCKET, S.SCM_RIGHTS, ls.fileno().to_bytes(4, sys.byteorder))])
ls.close()
BLOCK = 1 << 20
lock = _thread.allocate_lock()

def ack():
    with lock:
        ch.sendall(b'{"cmd":"NODE_HANDLE_ACK"}\n')

def pump(a, b, end):
    try:
        if hasattr(posix, 'splice'):
            r, w = posix.pipe()
            try:
                import fcntl
                fcntl.fcntl(w, 1031, BLOCK)  # F_SETPIPE_SZ
            except Exception:
                pass
            try:
                while True:
                    n = posix.splice(a.fileno(), w, BLOCK)
                    if not n:
                        break
                    while n:
                        n -= posix.splice(r, b.fileno(), n)
            finally:
                posix.close(r)
                posix.close(w)
        else:
            buf = bytearray(BLOCK)
            view = memoryview(buf)
            while True:
                n = a.recv_into(buf)
                if not n:
                    break
                b.sendall(view[:n])
        # The sender is done: say so to the other side and let its answer still come back.
        b.shutdown(S.SHUT_WR)
        end(False)
    except OSError:
        end(True)

def tunnel(c, h, answer, ahead):
    left = [2]
    def end(broken):
        with lock:
            left[0] -= 1
            last = left[0] == 0
        if broken:
            for s in (c, h):
                try:
                    s.shutdown(S.SHUT_RDWR)
                except OSError:
                    pass
        if last:
            c.close()
            h.close()
    for s in (c, h):
        s.setblocking(True)
    try:
        c.sendall(answer)
        if ahead:
            h.sendall(ahead)
    except OSError:
        c.close()
        h.close()
        return
    _thread.start_new_thread(pump, (c, h, end))
    _thread.start_new_thread(pump, (h, c, end))

bodies = {}

def waiting(ready, call, *args):
    # The body's sockets are shared with Node and stay non-blocking: wait for them with poll instead.
    while True:
        try:
            return call(*args)
        except BlockingIOError:
            ready.poll()

def body(ident, c, h, left):
    ok = False
    try:
        import select
        hf, cf = h.fileno(), c.fileno()
        readable = select.poll()
        readable.register(hf, select.POLLIN)
        writable = select.poll()
        writable.register(cf, select.POLLOUT)
        if hasattr(posix, 'splice'):
            r, w = posix.pipe()
            try:
                try:
                    import fcntl
                    fcntl.fcntl(w, 1031, BLOCK)  # F_SETPIPE_SZ
                except Exception:
                    pass
                while left:
                    n = waiting(readable, posix.splice, hf, w, min(left, BLOCK))
                    if not n:
                        break
                    left -= n
                    while n:
                        n -= waiting(writable, posix.splice, r, cf, n)
            finally:
                posix.close(r)
                posix.close(w)
        else:
            buf = bytearray(min(left, BLOCK))
            view = memoryview(buf)
            while left:
                n = waiting(readable, h.recv_into, buf, min(left, BLOCK))
                if not n:
                    break
                left -= n
                m = 0
                while m < n:
                    m += waiting(writable, c.send, view[m:n])
        ok = not left
    except Exception:
        pass
    # Always answered: the proxy holds the response open until it hears.
    with lock:
        bodies.pop(ident, None)
        c.close()
        h.close()
        try:
            ch.sendall(b'"${SPLICED_MESSAGE}:%d:%s"\n' % (ident, b'ok' if ok else b'short'))
        except OSError:
            pass

def unsplice(ident):
    with lock:
        pair = bodies.get(ident)
        if pair is None:
            return
        for s in pair:
            try:
                s.shutdown(S.SHUT_RDWR)
            except OSError:
                pass

fds = []
pending = None
spliced = None
data = b''
while True:
    try:
        got, anc, _f, _a = ch.recvmsg(65536, S.CMSG_SPACE(64))
    except OSError:
        break
    if not got:
        break
    for level, kind, d in anc:
        if level == S.SOL_SOCKET and kind == S.SCM_RIGHTS:
            fds += [int.from_bytes(d[i:i + 4], sys.byteorder) for i in range(0, len(d) - len(d) % 4, 4)]
    data += got
    while b'\n' in data:
        line, data = data.split(b'\n', 1)
        if line.startswith(b'"${UNSPLICE_MESSAGE}:'):
            unsplice(int(line[len('"${UNSPLICE_MESSAGE}:'):-1]))
            continue
        if not line.startswith(b'{"cmd":"NODE_HANDLE",'):
            continue
        ack()
        host = b'"msg":"${TUNNEL_HOST_MESSAGE}"' in line
        body_host = b'"msg":"${SPLICE_HOST_MESSAGE}"' in line
        s = S.socket(fileno=fds.pop(0)) if fds else None
        i = line.find(b'"msg":"${TUNNEL_CLIENT_MESSAGE}:')
        j = line.find(b'"msg":"${SPLICE_CLIENT_MESSAGE}:')
        if s is not None and i >= 0:
            if pending is not None:
                pending[0].close()
            parts = line[i + 7:line.index(b'"', i + 7)].split(b':')
            pending = (s, binascii.a2b_base64(parts[1]), binascii.a2b_base64(parts[2]))
        elif s is not None and j >= 0:
            if spliced is not None:
                spliced[0].close()
            parts = line[j + 7:line.index(b'"', j + 7)].split(b':')
            spliced = (s, int(parts[1]), int(parts[2]))
        elif s is not None and host and pending is not None:
            tunnel(pending[0], s, pending[1], pending[2])
            pending = None
        elif s is not None and body_host and spliced is not None:
            with lock:
                bodies[spliced[1]] = (spliced[0], s)
            _thread.start_new_thread(body, (spliced[1], spliced[0], s, spliced[2]))
            spliced = None
        elif s is not None:
            s.close()
        if host or body_host:
            # Whatever became of it, the proxy may send the next tunnel now.
            with lock:
                ch.sendall(b'"${TUNNEL_READY_MESSAGE}"\n')
# Threshold is gone or let go: every tunnel ends with this process.
posix._exit(0)
`;
