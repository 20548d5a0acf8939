// The jail's seccomp-bpf program (bwrap --seccomp). It closes the ways to a socket that the mount and
// network namespaces leave open, and a few kernel interfaces that would undo the jail. Every refused call
// fails with EPERM (ENOSYS for a foreign ABI), so programs see an ordinary error:
//
// - socket(): only AF_INET, AF_INET6 and AF_NETLINK. No AF_UNIX (the host's sockets by path — the
//   session bus, a container runtime's root socket, the control socket — and, in a network-class jail
//   that shares the host's network namespace, its abstract sockets); no AF_VSOCK (the hypervisor's
//   services, which no network namespace separates); nothing else either (AF_PACKET, AF_ALG, …).
// - socketpair(): AF_UNIX stream and seqpacket pairs only. A datagram socket can be re-connected or
//   sendto() any address, so a datagram pair would be a Unix socket that reaches the host.
// - io_uring_setup/enter/register: io_uring creates sockets (IORING_OP_SOCKET, Linux 5.19+) and runs
//   other calls without passing through this filter.
// - pidfd_getfd: copies a descriptor (a socket) out of another process.
// - mount, umount2, pivot_root and the new mount API (open_tree, move_mount, fsopen, fsconfig, fsmount,
//   fspick, mount_setattr): the jail hides paths with mounts; none may be undone or added. (bwrap also
//   drops every capability; this holds even if one were left.)
// - add_key, request_key, keyctl: the kernel keyrings inherited from the daemon's session may hold
//   credentials (Kerberos tickets, keys added by tools).
// - Syscalls of a foreign ABI (i386 socketcall, x32) fail with ENOSYS, so no rule above is sidestepped
//   through another system call table.
import { arch } from 'node:process';

const BPF_LD_W_ABS = 0x20;
const BPF_ALU_AND_K = 0x54;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const SOCK_TYPE_MASK = 0xf;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;

/** Socket families socket() may create. */
export const ALLOWED_SOCKET_FAMILIES = [AF_INET, AF_INET6, AF_NETLINK] as const;

// Calls added since Linux 5.1 have one number on every architecture.
const COMMON = {
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  pidfd_getfd: 438,
  mount_setattr: 442,
};

interface ArchTable {
  audit: number;
  /** Numbers at or above this belong to another ABI (x32 on x86_64). */
  foreignFrom: number | null;
  nr: Record<'socket' | 'socketpair' | 'mount' | 'umount2' | 'pivot_root' | 'add_key' | 'request_key' | 'keyctl', number>;
}

const ARCHS: Record<string, ArchTable> = {
  x64: { audit: 0xc000003e, foreignFrom: 0x40000000, nr: { socket: 41, socketpair: 53, mount: 165, umount2: 166, pivot_root: 155, add_key: 248, request_key: 249, keyctl: 250 } },
  arm64: { audit: 0xc00000b7, foreignFrom: null, nr: { socket: 198, socketpair: 199, mount: 40, umount2: 39, pivot_root: 41, add_key: 217, request_key: 218, keyctl: 219 } },
};

/** Syscalls refused outright (EPERM), by name: the list docs/executor.md gives. */
export const REFUSED_SYSCALLS = [
  'io_uring_setup', 'io_uring_enter', 'io_uring_register', 'pidfd_getfd',
  'mount', 'umount2', 'pivot_root', 'open_tree', 'move_mount', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'mount_setattr',
  'add_key', 'request_key', 'keyctl',
] as const;

// A tiny assembler: jumps name labels, resolved to the 8-bit forward offsets classic BPF uses.
type Insn = { code: number; k: number; jt?: string; jf?: string } | { label: string };

function assemble(prog: Insn[]): Buffer {
  const at = new Map<string, number>();
  let n = 0;
  for (const i of prog) {
    if ('label' in i) at.set(i.label, n);
    else n++;
  }
  const out: Buffer[] = [];
  let pc = 0;
  for (const i of prog) {
    if ('label' in i) continue;
    const off = (l: string | undefined) => {
      if (l === undefined) return 0;
      const target = at.get(l);
      if (target === undefined || target <= pc || target - pc - 1 > 255) throw new Error(`seccomp: bad jump to ${l}`);
      return target - pc - 1;
    };
    const b = Buffer.alloc(8);
    b.writeUInt16LE(i.code, 0);
    b.writeUInt8(off(i.jt), 2);
    b.writeUInt8(off(i.jf), 3);
    b.writeUInt32LE(i.k >>> 0, 4);
    out.push(b);
    pc++;
  }
  return Buffer.concat(out);
}

const ld = (offset: number): Insn => ({ code: BPF_LD_W_ABS, k: offset });
const jeq = (k: number, jt?: string, jf?: string): Insn => ({ code: BPF_JEQ_K, k, jt, jf });
const ret = (k: number): Insn => ({ code: BPF_RET_K, k });

/** The filter for this machine's architecture, or null where none is built (the jail still runs). */
export function buildSeccompFilter(cpu: string = arch): Buffer | null {
  const a = ARCHS[cpu];
  if (!a) return null;
  const refused = REFUSED_SYSCALLS.map((name) => (name in COMMON ? COMMON[name as keyof typeof COMMON] : a.nr[name as keyof ArchTable['nr']]));
  const prog: Insn[] = [
    ld(4), // seccomp_data.arch
    jeq(a.audit, 'native'),
    ret(RET_ERRNO | ENOSYS),
    { label: 'native' },
    ld(0), // seccomp_data.nr
  ];
  if (a.foreignFrom !== null) prog.push({ code: BPF_JGE_K, k: a.foreignFrom, jt: 'foreign' });
  for (const nr of refused) prog.push(jeq(nr, 'eperm'));
  prog.push(jeq(a.nr.socket, 'socket'), jeq(a.nr.socketpair, 'socketpair'), ret(RET_ALLOW));
  prog.push({ label: 'socket' }, ld(16)); // args[0] (low half): the family
  for (const f of ALLOWED_SOCKET_FAMILIES) prog.push(jeq(f, 'allow'));
  prog.push(ret(RET_ERRNO | EPERM));
  prog.push({ label: 'socketpair' }, ld(16), jeq(AF_UNIX, undefined, 'eperm'));
  prog.push(ld(24), { code: BPF_ALU_AND_K, k: SOCK_TYPE_MASK }); // args[1]: the type, without its flags
  prog.push(jeq(SOCK_STREAM, 'allow'), jeq(SOCK_SEQPACKET, 'allow'));
  prog.push({ label: 'eperm' }, ret(RET_ERRNO | EPERM));
  prog.push({ label: 'allow' }, ret(RET_ALLOW));
  prog.push({ label: 'foreign' }, ret(RET_ERRNO | ENOSYS));
  return assemble(prog);
}
