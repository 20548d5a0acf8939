// The macOS jail: the sandbox-exec (Seatbelt) profile for a jail spec, with the same intent as the
// bubblewrap jail (bwrap.ts): read everything but what is hidden, write nothing for a read call and only
// the workspace, the grants and the run's own temp folder for a write or network call, keep the code
// that runs outside the jail read-only, and no network but the egress proxy's one loopback port.
//
// Pure: every rule carries the reason it is there, and the profile is tested as text
// (seatbelt.test.ts). docs/executor.md, "macOS", compares it rule by rule with the profiles of
// @anthropic-ai/sandbox-runtime and Codex. Seatbelt compares real paths: every path given here must
// already be canonical (./seatbelt-paths.ts; /tmp is /private/tmp on macOS). Where two rules match,
// the later one wins, so each deny comes after the allows it narrows.
import { OUTSIDE_JAIL_CODE_PATHS } from '../../common/credential-locations';
import type { JailSpec } from './spec';

/** What the profile needs beyond the spec, all canonical. */
export interface SeatbeltContext {
  /** The run's own temp folder (TMPDIR): readable and writable for the write and network classes. */
  tempDir: string | null;
  /** Temp folders shared with the rest of the machine: neither readable nor writable (Linux gives each run an empty /tmp). */
  sharedTemp: readonly string[];
  /** Network class: the egress proxy's port on the loopback, the only address the run may connect to. */
  proxyPort: number | null;
}

export interface SeatbeltRule {
  /** One SBPL expression. */
  rule: string;
  /** Why it is there, one line (written into the profile as a comment above the rule). */
  why: string;
}

/** sandbox-exec refuses a string longer than this many bytes; one such string invalidates the whole profile. */
export const SBPL_STRING_MAX = 1000;

export class SeatbeltPathError extends Error {
  constructor(readonly path: string, reason: string) {
    super(`The macOS jail cannot name ${JSON.stringify(path)}: ${reason}. Nothing was run. Fix: rename or move it.`);
    this.name = 'SeatbeltPathError';
  }
}

/** A string literal of the profile. Control characters are refused rather than escaped: the profile reader does not read them back. */
export function sbplString(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s)) throw new SeatbeltPathError(s, 'it holds a control character');
  const q = `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  if (Buffer.byteLength(q) > SBPL_STRING_MAX) throw new SeatbeltPathError(s.slice(0, 80) + '…', `its rule would be longer than the ${SBPL_STRING_MAX} bytes sandbox-exec reads`);
  return q;
}

const literal = (p: string) => `(literal ${sbplString(p)})`;
const subpath = (p: string) => `(subpath ${sbplString(p)})`;
/** A path and everything below it, whether it is a file or a folder (`subpath` alone may not match a file's own path). */
const entry = (p: string) => [literal(p), subpath(p)];

/**
 * A regular expression that matches the path whatever the case of its letters: macOS's file systems are
 * case-insensitive by default, and Seatbelt matches a `regex` against the path as it was spelled
 * (`literal` and `subpath` are compared the way the file system compares names).
 */
export function anyCase(text: string): string {
  let out = '';
  for (const ch of text) {
    const lo = ch.toLowerCase();
    const up = ch.toUpperCase();
    if (lo !== up && lo.length === 1 && up.length === 1) out += `[${lo}${up}]`;
    else out += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}

/** The folders above a path, nearest first, up to (not including) the root. */
export function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let d = p.slice(0, p.lastIndexOf('/')); d.length > 0; d = d.slice(0, d.lastIndexOf('/'))) out.push(d);
  return out;
}

function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith('/') ? dir : dir + '/');
}

/** The paths that are not inside another of them (a grant inside the workspace adds no root of its own). */
function outermost(paths: readonly string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((p) => !unique.some((q) => q !== p && inside(p, q)));
}

function quotedBytes(s: string): number {
  return Buffer.byteLength(s.replace(/[\\"]/g, '\\$&')) + 2;
}

/** Alternatives joined into as few regular expressions as fit sandbox-exec's string limit. */
function chunkedRegexes(prefix: string, alternatives: readonly string[], suffix: string): string[] {
  const out: string[] = [];
  let group: string[] = [];
  const render = (g: string[]) => `${prefix}(${g.join('|')})${suffix}`;
  for (const a of alternatives) {
    if (group.length && quotedBytes(render([...group, a])) > SBPL_STRING_MAX) {
      out.push(render(group));
      group = [];
    }
    group.push(a);
  }
  if (group.length) out.push(render(group));
  return out;
}

// sysctls a command may read: the machine's shape (CPUs, caches, memory size, page size) that runtimes
// size their thread pools and allocators by, the OS version, its own processes. Not kern.proc.all (every
// process of the machine) and not kern.procargs2 (other processes' arguments and environment).
const SYSCTL_NAMES = [
  'hw.activecpu', 'hw.busfrequency_compat', 'hw.byteorder', 'hw.cacheconfig', 'hw.cachelinesize_compat', 'hw.cpufamily',
  'hw.cpufrequency', 'hw.cpufrequency_compat', 'hw.cputype', 'hw.l1dcachesize_compat', 'hw.l1icachesize_compat',
  'hw.l2cachesize_compat', 'hw.l3cachesize_compat', 'hw.logicalcpu', 'hw.logicalcpu_max', 'hw.machine', 'hw.model',
  'hw.memsize', 'hw.ncpu', 'hw.nperflevels', 'hw.packages', 'hw.pagesize', 'hw.pagesize_compat', 'hw.physicalcpu',
  'hw.physicalcpu_max', 'hw.tbfrequency_compat', 'hw.vectorunit', 'machdep.cpu.brand_string', 'kern.argmax',
  'kern.hostname', 'kern.maxfilesperproc', 'kern.maxproc', 'kern.osproductversion', 'kern.osrelease', 'kern.ostype',
  'kern.osvariant_status', 'kern.osversion', 'kern.secure_kernel', 'kern.usrstack64', 'kern.version', 'sysctl.proc_cputype',
  'vm.loadavg',
];
const SYSCTL_PREFIXES = ['hw.optional.arm.', 'hw.optional.armv8_', 'hw.perflevel', 'kern.proc.pgrp.', 'kern.proc.pid.'];

/** The rules every class shares: processes, system information, devices, terminals. */
function baseRules(): SeatbeltRule[] {
  return [
    { rule: '(version 1)', why: 'the profile language version sandbox-exec reads' },
    { rule: '(deny default)', why: 'nothing is allowed that a rule below does not allow (on Linux: the namespaces)' },
    { rule: '(allow process-fork)', why: 'commands start other commands; every child inherits this profile' },
    { rule: '(allow process-exec)', why: 'any program may run (as on Linux), inside this profile: none runs unsandboxed' },
    { rule: '(allow signal (target same-sandbox))', why: "signals only to the run's own processes, never to the user's other programs" },
    { rule: '(allow process-info* (target same-sandbox))', why: "ps and job control see the run's own processes; other processes' arguments and environment stay unreadable" },
    { rule: `(allow sysctl-read ${SYSCTL_NAMES.map((n) => `(sysctl-name ${sbplString(n)})`).join(' ')} ${SYSCTL_PREFIXES.map((n) => `(sysctl-name-prefix ${sbplString(n)})`).join(' ')})`, why: "the machine's shape, the OS version and the run's own processes; not the list of every process" },
    { rule: '(allow sysctl-write (sysctl-name "kern.grade_cputype"))', why: 'the JVM reads its CPU type through a sysctl call the kernel counts as a write' },
    { rule: '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))', why: 'user and group names (getpwuid): whoami, git, ssh and many runtimes fail without; the one system service the jail reaches' },
    { rule: '(allow ipc-posix-sem)', why: "POSIX semaphores: Python's multiprocessing locks" },
    { rule: '(allow ipc-posix-shm-read-data ipc-posix-shm-write-create ipc-posix-shm-write-unlink (ipc-posix-name-regex #"^/__KMP_REGISTERED_LIB_[0-9]+$"))', why: "OpenMP's registration segment (PyTorch, NumPy with libomp); no other shared memory, which is the whole user's namespace on macOS" },
    { rule: '(allow pseudo-tty)', why: 'a command may open a pseudo-terminal of its own (script, expect), as bubblewrap\'s fresh /dev allows' },
    { rule: '(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))', why: 'the pseudo-terminal multiplexer that opening one needs' },
    { rule: '(allow file-read* file-write* (require-all (regex #"^/dev/ttys[0-9]+$") (extension "com.apple.sandbox.pty")))', why: "only terminals the run opened itself can be opened; the user's own terminal windows cannot (no typing into them)" },
    { rule: '(allow file-ioctl (regex #"^/dev/ttys[0-9]+$"))', why: 'terminal control (size, echo) on the terminal a terminal call was given, which was opened before the profile applied' },
    { rule: '(allow file-write-data (require-all (vnode-type CHARACTER-DEVICE) (require-any (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty"))))', why: 'writing to /dev/null, /dev/zero and its own terminal; no other device' },
    { rule: '(allow file-write-data (subpath "/dev/fd"))', why: '/dev/stdout and /dev/stderr (links to /dev/fd/N): descriptors the run already holds' },
  ];
}

/** Every path rule for one spec: reads, writes, what stays hidden and read-only. */
function fileRules(spec: JailSpec, c: SeatbeltContext): SeatbeltRule[] {
  const rules: SeatbeltRule[] = [];
  const writes = spec.class !== 'read';
  rules.push({ rule: '(allow file-read*)', why: 'everything is readable but what is hidden below (as on Linux, where the root is bound read-only)' });
  if (c.sharedTemp.length) {
    rules.push({ rule: `(deny file-read* file-write* ${c.sharedTemp.flatMap(entry).join(' ')})`, why: "the machine's shared temp folders: other programs' temp files stay unseen and untouched (on Linux each run gets an empty /tmp)" });
  }
  // Paths that may lie in the shared temp folders (a workspace under /tmp) are readable again after it.
  const granted = outermost([spec.workspace, ...spec.extraWritable]);
  rules.push({ rule: `(allow file-read* ${granted.map(subpath).join(' ')})`, why: 'the workspace and the granted paths stay readable wherever they are, also under /tmp' });
  // Looking a path up by its real name (getcwd, realpath) stats every folder above it: those in the shared
  // temp folders may be looked at, not listed, so a workspace or TMPDIR under /tmp still works.
  const above = new Set([...granted, ...(writes && c.tempDir ? [c.tempDir] : [])].flatMap((r) => ancestors(r).filter((a) => c.sharedTemp.some((t) => inside(a, t)))));
  if (above.size) rules.push({ rule: `(allow file-read-metadata ${[...above].sort().map(literal).join(' ')})`, why: 'the folders above the workspace, the grants and the temp folder inside the shared temp folders can be looked at (not listed), so getcwd and realpath work there' });
  const roots = writes ? granted : [];
  if (writes && c.tempDir) rules.push({ rule: `(allow file-read* file-write* ${subpath(c.tempDir)})`, why: "the run's own temp folder (TMPDIR), made empty for it and removed after it" });
  if (writes) rules.push({ rule: `(allow file-write* ${roots.map(subpath).join(' ')})`, why: 'a write or network call writes the workspace and the paths the user granted; a read call writes nothing' });

  // ── What stays hidden: the home folder's dot-entries and ~/Library, credential locations, Threshold's
  // own directories, the system's secrets, the workspace's .env files.
  const hidden = [...spec.hiddenDirs, ...spec.hiddenFiles, ...spec.emptiedFiles];
  if (hidden.length) {
    rules.push({ rule: `(deny file-read* file-write* ${hidden.flatMap(entry).join(' ')})`, why: 'hidden: neither readable nor writable, wherever it is (a hidden file inside the workspace cannot be overwritten either)' });
  }

  // ── Code that runs outside the jail stays read-only inside the writable workspace.
  const grantedCode = spec.grantedCodePaths ?? [];
  const protectedPaths = writes ? [...spec.readOnlyInWorkspace, ...spec.absentProtected.map((p) => p.path)] : [];
  if (protectedPaths.length) {
    rules.push({ rule: `(deny file-write* ${protectedPaths.flatMap(entry).join(' ')})`, why: 'outside-jail code (git hooks and config, .envrc, editor tasks) and what the checkpoint does not hold stay read-only; one not there yet cannot be created' });
  }
  if (writes) {
    for (const root of roots) {
      const except = grantedCode.filter((g) => inside(g, root));
      for (const re of chunkedRegexes(`^${anyCase(root)}/(.+/)?`, OUTSIDE_JAIL_CODE_PATHS.map(anyCase), '(/.*)?$')) {
        const filter = `(regex ${sbplString(re)})`;
        rules.push({
          rule: except.length ? `(deny file-write* (require-all ${filter} ${except.map((g) => `(require-not ${subpath(g)})`).join(' ')}))` : `(deny file-write* ${filter})`,
          why: `outside-jail code at any depth below ${root.replace(/\s+/g, ' ')} (a nested repository's hooks, a sub-folder's .envrc), in any letter case, unless granted`,
        });
      }
    }
  }

  // ── Nothing protected can be moved away from its rule: Seatbelt judges paths, so a renamed folder would
  // take a hidden or read-only file out of reach of the rule that named it (bubblewrap's mounts cannot be
  // moved at all). The folders above every such path, and the writable roots with theirs, cannot be
  // renamed or removed; their other contents stay writable.
  if (writes) {
    const pinned = new Set<string>();
    const pin = (p: string) => {
      for (const a of ancestors(p)) pinned.add(a);
    };
    for (const r of roots) {
      pinned.add(r);
      pin(r);
    }
    for (const p of [...protectedPaths, ...hidden]) if (roots.some((r) => inside(p, r))) pin(p);
    if (pinned.size) {
      rules.push({ rule: `(deny file-write-unlink ${[...pinned].sort().map(literal).join(' ')})`, why: 'the folders above protected paths and the writable roots cannot be renamed or removed (a rename would carry a protected file away from its rule)' });
    }
  }

  rules.push({ rule: '(deny file-link file-clone)', why: 'no hard links or clones: Seatbelt judges the path, so a second name for a hidden or read-only file would read or write it (on Linux the mounts make that fail with EXDEV)' });
  return rules;
}

function networkRules(spec: JailSpec, c: SeatbeltContext): SeatbeltRule[] {
  if (spec.class !== 'network') return [{ rule: '(deny network*)', why: 'a read or write call has no network at all: no sockets to any address, no Unix sockets (the host\'s services, the control socket)' }];
  if (c.proxyPort === null) throw new Error('a network-class profile needs the egress proxy port');
  return [
    { rule: '(deny network*)', why: 'no network but the one rule below: no other loopback port, no Unix socket (the host\'s services, the name resolver), no binding or listening' },
    { rule: `(allow network-outbound (remote ip ${sbplString(`localhost:${c.proxyPort}`)}))`, why: "the egress proxy's port on the loopback (127.0.0.1 and ::1, which the proxy holds both): the only way out, to the allowed hosts" },
  ];
}

/** Every rule of the profile, in order, with its reason. */
export function seatbeltRules(spec: JailSpec, c: SeatbeltContext): SeatbeltRule[] {
  return [...baseRules(), ...fileRules(spec, c), ...networkRules(spec, c)];
}

/** The profile text: each rule under a comment with its reason. */
export function seatbeltProfile(spec: JailSpec, c: SeatbeltContext): string {
  return seatbeltRules(spec, c).map((r) => `; ${r.why.replace(/\s+/g, ' ')}\n${r.rule}`).join('\n') + '\n';
}

/** sandbox-exec's arguments: the profile inline, then the command's argv, never through a shell. */
export function sandboxExecArgs(spec: JailSpec, c: SeatbeltContext, argv: readonly string[]): string[] {
  return ['-p', seatbeltProfile(spec, c), '--', ...argv];
}
