// The seccomp program as data: run by a small classic-BPF interpreter over seccomp_data, so every rule
// (and every case that would bypass it) is checked without a kernel. test/jail/side-doors.test.ts runs
// the same program in the real jail.
import { describe, expect, it } from 'vitest';
import { buildSeccompFilter } from './seccomp';

const X64 = 0xc000003e;
const I386 = 0x40000003;
const ARM64 = 0xc00000b7;

/** Runs the filter over one system call; returns what the kernel would do. */
function run(prog: Buffer, call: { arch: number; nr: number; args?: number[] }): string {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(call.nr >>> 0, 0);
  data.writeUInt32LE(call.arch >>> 0, 4);
  (call.args ?? []).forEach((v, i) => data.writeBigUInt64LE(BigInt(v), 16 + i * 8));
  let acc = 0;
  for (let pc = 0; pc < prog.length / 8; ) {
    const code = prog.readUInt16LE(pc * 8);
    const jt = prog.readUInt8(pc * 8 + 2);
    const jf = prog.readUInt8(pc * 8 + 3);
    const k = prog.readUInt32LE(pc * 8 + 4);
    pc++;
    if (code === 0x20) acc = data.readUInt32LE(k);
    else if (code === 0x54) acc = (acc & k) >>> 0;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >= k ? jt : jf;
    else if (code === 0x06) {
      if (k === 0x7fff0000) return 'allow';
      if ((k & 0xffff0000) === 0x00050000) return { 1: 'EPERM', 38: 'ENOSYS' }[k & 0xffff] ?? `errno ${k & 0xffff}`;
      return `ret ${k}`;
    } else throw new Error(`unknown instruction ${code}`);
  }
  throw new Error('fell off the end of the program');
}

const x64 = buildSeccompFilter('x64')!;
const arm64 = buildSeccompFilter('arm64')!;
const SOCK_NONBLOCK = 0o4000;
const SOCK_CLOEXEC = 0o2000000;

describe('the seccomp filter (x86_64)', () => {
  it.each([
    { name: 'an ordinary call (read) is allowed', nr: 0, want: 'allow' },
    { name: 'an IPv4 socket is allowed', nr: 41, args: [2, 1, 0], want: 'allow' },
    { name: 'an IPv6 socket is allowed', nr: 41, args: [10, 2, 0], want: 'allow' },
    { name: 'a netlink socket is allowed (name resolution asks the kernel for addresses)', nr: 41, args: [16, 3, 0], want: 'allow' },
    { name: 'a Unix socket is refused', nr: 41, args: [1, 1, 0], want: 'EPERM' },
    { name: 'a Unix socket with flags in the type is refused', nr: 41, args: [1, 1 | SOCK_CLOEXEC, 0], want: 'EPERM' },
    { name: 'a Unix socket whose family hides in the high half of the argument is refused', nr: 41, args: [0x1_0000_0001, 1, 0], want: 'EPERM' },
    { name: 'a vsock socket (the hypervisor, past any network namespace) is refused', nr: 41, args: [40, 1, 0], want: 'EPERM' },
    { name: 'a packet socket is refused', nr: 41, args: [17, 3, 0], want: 'EPERM' },
    { name: 'a kernel crypto (AF_ALG) socket is refused', nr: 41, args: [38, 5, 0], want: 'EPERM' },
    { name: 'a Unix stream pair is allowed', nr: 53, args: [1, 1, 0], want: 'allow' },
    { name: 'a Unix stream pair with CLOEXEC and NONBLOCK is allowed', nr: 53, args: [1, 1 | SOCK_CLOEXEC | SOCK_NONBLOCK, 0], want: 'allow' },
    { name: 'a Unix seqpacket pair is allowed', nr: 53, args: [1, 5, 0], want: 'allow' },
    { name: 'a Unix datagram pair (re-connectable to any address) is refused', nr: 53, args: [1, 2, 0], want: 'EPERM' },
    { name: 'a Unix datagram pair with CLOEXEC is refused', nr: 53, args: [1, 2 | SOCK_CLOEXEC, 0], want: 'EPERM' },
    { name: 'a pair of another family is refused', nr: 53, args: [30, 1, 0], want: 'EPERM' },
    { name: 'io_uring_setup is refused', nr: 425, want: 'EPERM' },
    { name: 'io_uring_enter is refused', nr: 426, want: 'EPERM' },
    { name: 'io_uring_register is refused', nr: 427, want: 'EPERM' },
    { name: 'pidfd_getfd is refused', nr: 438, want: 'EPERM' },
    { name: 'pidfd_open stays allowed (waiting on a child)', nr: 434, want: 'allow' },
    { name: 'mount is refused', nr: 165, want: 'EPERM' },
    { name: 'umount2 is refused', nr: 166, want: 'EPERM' },
    { name: 'pivot_root is refused', nr: 155, want: 'EPERM' },
    { name: 'open_tree is refused', nr: 428, want: 'EPERM' },
    { name: 'move_mount is refused', nr: 429, want: 'EPERM' },
    { name: 'fsopen is refused', nr: 430, want: 'EPERM' },
    { name: 'fsmount is refused', nr: 432, want: 'EPERM' },
    { name: 'mount_setattr is refused', nr: 442, want: 'EPERM' },
    { name: 'keyctl is refused', nr: 250, want: 'EPERM' },
    { name: 'add_key is refused', nr: 248, want: 'EPERM' },
    { name: 'request_key is refused', nr: 249, want: 'EPERM' },
    { name: 'an x32 socket call is refused', nr: 0x40000000 + 41, args: [1, 1, 0], want: 'ENOSYS' },
    { name: 'an x32 read is refused too', nr: 0x40000000, want: 'ENOSYS' },
  ])('$name', ({ nr, args, want }) => {
    expect(run(x64, { arch: X64, nr, args })).toBe(want);
  });

  it.each([
    { name: 'i386 socketcall', nr: 102, args: [1, 0] },
    { name: 'i386 socket', nr: 359, args: [1, 1, 0] },
    { name: 'i386 io_uring_setup', nr: 425, args: [] },
  ])('a foreign ABI call ($name) fails with ENOSYS', ({ nr, args }) => {
    expect(run(x64, { arch: I386, nr, args })).toBe('ENOSYS');
  });
});

describe('the seccomp filter (arm64)', () => {
  it.each([
    { name: 'a Unix socket is refused', nr: 198, args: [1, 1, 0], want: 'EPERM' },
    { name: 'an IPv4 socket is allowed', nr: 198, args: [2, 1, 0], want: 'allow' },
    { name: 'a Unix datagram pair is refused', nr: 199, args: [1, 2, 0], want: 'EPERM' },
    { name: 'io_uring_setup is refused', nr: 425, want: 'EPERM' },
    { name: 'umount2 is refused', nr: 39, want: 'EPERM' },
    { name: 'keyctl is refused', nr: 219, want: 'EPERM' },
    { name: 'x86_64 socket number 41 is pivot_root here, and refused', nr: 41, want: 'EPERM' },
    { name: 'a number at 0x40000000 is no foreign ABI here, only unknown (the kernel says ENOSYS)', nr: 0x40000000, want: 'allow' },
  ])('$name', ({ nr, args, want }) => {
    expect(run(arm64, { arch: ARM64, nr, args })).toBe(want);
  });

  it('an AArch32 call fails with ENOSYS', () => {
    expect(run(arm64, { arch: 0x40000028, nr: 281, args: [1, 1, 0] })).toBe('ENOSYS');
  });
});

it('has no filter for an architecture it does not know (the jail still runs, without it)', () => {
  expect(buildSeccompFilter('riscv64')).toBeNull();
});
