// Ways to obtain or pass a socket past the jail's seccomp rule on socket(AF_UNIX), one mode each.
// Built by test/jail/side-doors.test.ts and run inside the jail (and outside it, as the control that
// shows the technique works on this kernel). Each mode prints one line: "OK <what>" when it reached its
// goal, "FAIL <step> <errno name>" when a step failed.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef IORING_OP_SOCKET
#define IORING_OP_SOCKET 45
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

static int fail(const char *step) {
  printf("FAIL %s %s\n", step, strerrorname_np(errno) ? strerrorname_np(errno) : "?");
  return 1;
}

/** A sockaddr_un for a path, or for an abstract name when it starts with '@' (NUL-padded to the full
 * length, as Node binds them). */
static socklen_t unix_addr(struct sockaddr_un *a, const char *name) {
  memset(a, 0, sizeof *a);
  a->sun_family = AF_UNIX;
  size_t n = strlen(name);
  if (n >= sizeof a->sun_path) n = sizeof a->sun_path - 1;
  memcpy(a->sun_path, name, n);
  if (name[0] == '@') a->sun_path[0] = '\0';
  if (name[0] == '@') return (socklen_t)sizeof *a;
  return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
}

static int connect_and_say(int fd, const char *name) {
  struct sockaddr_un a;
  socklen_t len = unix_addr(&a, name);
  if (connect(fd, (struct sockaddr *)&a, len) < 0) return fail("connect");
  if (write(fd, "side-door\n", 10) < 0) return fail("write");
  printf("OK connected to %s\n", name);
  return 0;
}

/** io_uring: a Unix socket made by IORING_OP_SOCKET, which socket()'s seccomp rule never sees. */
static int uring_socket(const char *name) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  int ring = (int)syscall(__NR_io_uring_setup, 4, &p);
  if (ring < 0) return fail("io_uring_setup");
  size_t sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
  size_t cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
  char *sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQ_RING);
  char *cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_CQ_RING);
  struct io_uring_sqe *sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
  if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) return fail("mmap");
  struct io_uring_sqe *sqe = &sqes[0];
  memset(sqe, 0, sizeof *sqe);
  sqe->opcode = IORING_OP_SOCKET;
  sqe->fd = AF_UNIX;
  sqe->off = SOCK_STREAM;
  sqe->len = 0;
  unsigned *tail = (unsigned *)(sq + p.sq_off.tail);
  unsigned mask = *(unsigned *)(sq + p.sq_off.ring_mask);
  ((unsigned *)(sq + p.sq_off.array))[*tail & mask] = 0;
  __atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
  if (syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) return fail("io_uring_enter");
  unsigned head = __atomic_load_n((unsigned *)(cq + p.cq_off.head), __ATOMIC_ACQUIRE);
  struct io_uring_cqe *cqe = &((struct io_uring_cqe *)(cq + p.cq_off.cqes))[head & *(unsigned *)(cq + p.cq_off.ring_mask)];
  if (cqe->res < 0) {
    errno = -cqe->res;
    return fail("IORING_OP_SOCKET");
  }
  return connect_and_say(cqe->res, name);
}

/** A datagram pair: socketpair() gives Unix sockets, and a datagram one can be re-connected anywhere. */
static int dgram_pair(const char *name) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0) return fail("socketpair");
  struct sockaddr_un a;
  socklen_t len = unix_addr(&a, name);
  if (sendto(sv[0], "side-door\n", 10, 0, (struct sockaddr *)&a, len) < 0) return fail("sendto");
  printf("OK sent to %s\n", name);
  return 0;
}

/** A stream pair: already connected, so it cannot be pointed at another socket. */
static int stream_pair(const char *name) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) return fail("socketpair");
  return connect_and_say(sv[0], name);
}

/** Descriptors received over every inherited socket (SCM_RIGHTS), as a process outside would send them. */
static int inherited(void) {
  int sockets = 0, received = 0, others = 0;
  for (int fd = 0; fd < 1024; fd++) {
    int type;
    socklen_t tl = sizeof type;
    if (fcntl(fd, F_GETFD) < 0) continue;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) < 0) {
      if (fd > 2) others++;
      continue;
    }
    sockets++;
    char buf[1];
    char ctl[CMSG_SPACE(sizeof(int) * 16)];
    struct iovec iov = {buf, sizeof buf};
    struct msghdr m = {0};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = ctl;
    m.msg_controllen = sizeof ctl;
    if (recvmsg(fd, &m, MSG_DONTWAIT | MSG_PEEK) >= 0)
      for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) received++;
  }
  if (received) {
    printf("OK received %d descriptors\n", received);
    return 0;
  }
  printf("FAIL none (sockets %d, other descriptors %d)\n", sockets, others);
  return 1;
}

/** pidfd_getfd: copy a descriptor out of a process (its own first, then a given pid's). */
static int pidfd_copy(int pid, int target_fd) {
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (pidfd < 0) return fail("pidfd_open");
  int fd = (int)syscall(SYS_pidfd_getfd, pidfd, target_fd, 0);
  if (fd < 0) return fail("pidfd_getfd");
  printf("OK copied descriptor %d of %d as %d\n", target_fd, pid, fd);
  return 0;
}

/** /proc/<pid>/fd of a process outside the jail. */
static int proc_fd(int pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/fd", pid);
  DIR *d = opendir(path);
  if (!d) return fail("opendir");
  int n = 0;
  while (readdir(d)) n++;
  printf("OK listed %d entries of %s\n", n, path);
  return 0;
}

/** i386 socketcall through int 0x80: another system call table, with its own socket number. */
static int socketcall_i386(const char *name) {
#if defined(__x86_64__)
  uint32_t *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
  if (mem == MAP_FAILED) return fail("mmap32");
  mem[0] = AF_UNIX, mem[1] = SOCK_STREAM, mem[2] = 0;
  long r;
  __asm__ volatile("int $0x80" : "=a"(r) : "a"(102), "b"(1), "c"(mem) : "memory");
  if (r < 0) {
    errno = (int)-r;
    return fail("socketcall(SOCKET)");
  }
  int fd = (int)r;
  struct sockaddr_un *a = (struct sockaddr_un *)(mem + 64);
  socklen_t len = unix_addr(a, name);
  mem[4] = (uint32_t)fd, mem[5] = (uint32_t)(uintptr_t)a, mem[6] = len;
  __asm__ volatile("int $0x80" : "=a"(r) : "a"(102), "b"(3), "c"(mem + 4) : "memory");
  if (r < 0) {
    errno = (int)-r;
    return fail("socketcall(CONNECT)");
  }
  printf("OK connected to %s\n", name);
  return 0;
#else
  (void)name;
  errno = ENOSYS;
  return fail("not-x86_64");
#endif
}

/** x32: the x86_64 socket call with the x32 bit set. */
static int socket_x32(void) {
#if defined(__x86_64__)
  long fd = syscall(0x40000000 | 41, AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return fail("socket(x32)");
  printf("OK x32 socket %ld\n", fd);
  return 0;
#else
  errno = ENOSYS;
  return fail("not-x86_64");
#endif
}

/** A socket of a given family (vsock: the hypervisor's services, unseparated by network namespaces). */
static int family(int af, int type) {
  int fd = socket(af, type, 0);
  if (fd < 0) return fail("socket");
  printf("OK socket of family %d\n", af);
  return 0;
}

/** The kernel keyrings inherited from the daemon's session. */
static int keyring(void) {
  long id = syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* session */, 0);
  if (id < 0) return fail("keyctl");
  printf("OK session keyring %ld\n", id);
  return 0;
}

/** Serves one datagram on a Unix socket (the control side of dgram-pair); prints what arrived. */
static int serve_dgram(const char *name) {
  int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
  if (fd < 0) return fail("socket");
  struct sockaddr_un a;
  socklen_t len = unix_addr(&a, name);
  if (bind(fd, (struct sockaddr *)&a, len) < 0) return fail("bind");
  printf("READY\n");
  fflush(stdout);
  char buf[64];
  for (;;) {
    ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
    if (n < 0) return fail("recv");
    buf[n] = 0;
    printf("GOT %s", buf);
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *mode = argc > 1 ? argv[1] : "";
  const char *arg = argc > 2 ? argv[2] : "";
  if (!strcmp(mode, "uring-socket")) return uring_socket(arg);
  if (!strcmp(mode, "dgram-pair")) return dgram_pair(arg);
  if (!strcmp(mode, "stream-pair")) return stream_pair(arg);
  if (!strcmp(mode, "inherited")) return inherited();
  if (!strcmp(mode, "pidfd-getfd")) return pidfd_copy(!strcmp(arg, "self") ? getpid() : atoi(arg), argc > 3 ? atoi(argv[3]) : 0);
  if (!strcmp(mode, "proc-fd")) return proc_fd(atoi(arg));
  if (!strcmp(mode, "socketcall-i386")) return socketcall_i386(arg);
  if (!strcmp(mode, "socket-x32")) return socket_x32();
  if (!strcmp(mode, "family")) return family(atoi(arg), argc > 3 ? atoi(argv[3]) : SOCK_STREAM);
  if (!strcmp(mode, "keyring")) return keyring();
  if (!strcmp(mode, "serve-dgram")) return serve_dgram(arg);
  fprintf(stderr, "usage: side-doors MODE [ARG]\n");
  return 2;
}
