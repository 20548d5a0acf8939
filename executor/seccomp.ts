// A tiny seccomp-bpf program for bwrap --seccomp: creating AF_UNIX sockets fails with EPERM, so a
// jailed command cannot connect to the host's Unix sockets (session bus, docker, the control socket),
// whatever the filesystem shows. socketpair() stays allowed. Syscalls of a foreign ABI (x32, i386 on
// x86_64) fail with ENOSYS, so the filter cannot be sidestepped through them.
import { arch } from 'node:process';

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const AF_UNIX = 1;

const ARCHS: Record<string, { audit: number; socket: number; x32: boolean }> = {
  x64: { audit: 0xc000003e, socket: 41, x32: true },
  arm64: { audit: 0xc00000b7, socket: 198, x32: false },
};

function insn(code: number, jt: number, jf: number, k: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt16LE(code, 0);
  b.writeUInt8(jt, 2);
  b.writeUInt8(jf, 3);
  b.writeUInt32LE(k >>> 0, 4);
  return b;
}

/** The filter for this machine's architecture, or null where none is built (the jail still runs). */
export function buildSeccompFilter(cpu: string = arch): Buffer | null {
  const a = ARCHS[cpu];
  if (!a) return null;
  const prog = [
    insn(BPF_LD_W_ABS, 0, 0, 4), // A = seccomp_data.arch
    insn(BPF_JEQ_K, 1, 0, a.audit), // native? skip the next
    insn(BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS),
    insn(BPF_LD_W_ABS, 0, 0, 0), // A = seccomp_data.nr
    insn(BPF_JGE_K, 0, 1, a.x32 ? 0x40000000 : 0xffffffff), // x32 ABI
    insn(BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS),
    insn(BPF_JEQ_K, 0, 3, a.socket), // socket()?
    insn(BPF_LD_W_ABS, 0, 0, 16), // A = args[0] (low half)
    insn(BPF_JEQ_K, 0, 1, AF_UNIX),
    insn(BPF_RET_K, 0, 0, RET_ERRNO | EPERM),
    insn(BPF_RET_K, 0, 0, RET_ALLOW),
  ];
  return Buffer.concat(prog);
}
