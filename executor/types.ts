// The executor's request and result. Node only; never imports electron.
import { totalmem } from 'node:os';

/** What the gate decided the call may do; the jail enforces exactly that. */
export type JailClass = 'read' | 'write' | 'network';

export interface Limits {
  /** Wall-clock limit in ms. */
  timeoutMs: number;
  /** Grace between SIGTERM and SIGKILL, in ms. */
  graceMs: number;
  /** Bytes kept per stream (head and tail halves). */
  outputCapBytes: number;
  /** Processes the command may have at once. */
  maxProcesses: number;
  /** Largest file it may write, in bytes. */
  maxFileBytes: number;
  /** CPU seconds. */
  cpuSeconds: number;
  /** Memory of the whole run, in bytes (every process of it together where a cgroup or scope holds it). */
  maxMemoryBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  timeoutMs: 120_000,
  graceMs: 2_000,
  outputCapBytes: 1024 * 1024,
  maxProcesses: 256,
  maxFileBytes: 1024 * 1024 * 1024,
  cpuSeconds: 600,
  // Half of the machine's memory: a runaway command cannot take the desktop (and the daemon) with it.
  maxMemoryBytes: Math.floor(totalmem() / 2),
};

export interface RunRequest {
  /** The program and its arguments: never a shell string to re-interpret. */
  argv: string[];
  /** Absolute working directory. */
  cwd: string;
  /** The environment before scrubbing (usually the app's); only allowlisted names pass. */
  env: NodeJS.ProcessEnv;
  /** Extra variable names the user allows through. */
  envAllow?: readonly string[];
  jail: {
    class: JailClass;
    workspace: string;
    /** Extra writable paths the user granted (write and network classes). */
    extraWritable?: readonly string[];
    /** Credential locations the user granted for reading (otherwise hidden). */
    grantedReadable?: readonly string[];
    /** Outside-jail code paths the user allowed to be written (.git/hooks, .envrc, …). */
    grantedCodePaths?: readonly string[];
    /**
     * Absolute workspace paths the checkpoint taken before this run does not hold (ignored, over the
     * size cap; not regenerable): read-only in a write jail so that nothing unrestorable changes.
     */
    unheld?: readonly string[];
    /**
     * Network class: the host patterns the egress proxy lets through for this call (the allowlist and
     * the host grants in force). Absent: the default allowlist (common/hosts.ts).
     */
    allowHosts?: readonly string[];
  };
  limits?: Partial<Limits>;
  /** Run under a pseudo-terminal (merged output, as a terminal shows it). */
  terminal?: boolean;
  /** Receives output as it arrives (stops after the cap; the result keeps head and tail). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: string) => void;
}

export interface StreamResult {
  /** Head and tail, with an "… N bytes omitted …" marker between them when cut. */
  text: string;
  bytes: number;
  truncated: boolean;
  binary: boolean;
}

export interface JailViolation {
  /** host_denied: the egress proxy refused a host (target is host:port). */
  kind: 'write_denied' | 'network_denied' | 'read_denied' | 'host_denied';
  /** The path it tried (or the host), as reported. */
  target: string;
  /** The line of output it was detected from (host_denied: the proxy's reason). */
  evidence: string;
  /** host_denied: the host and port refused, and whether a grant could allow it (not for this computer's addresses or unsupported protocols). */
  host?: { name: string; port: number; grantable: boolean };
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  stdout: StreamResult;
  stderr: StreamResult;
  durationMs: number;
  timedOut: boolean;
  cancelled: boolean;
  /** Denials by the jail, detected from the output. */
  violations: JailViolation[];
  /** Whether the command ran jailed (false only with the explicit unjailed setting). */
  jailed: boolean;
  /** The memory limit, how it was held ('none' on macOS: not held), and whether it killed a process of this run (null unjailed). */
  memory: { limitBytes: number; heldBy: 'cgroup' | 'systemd-scope' | 'rlimit-as' | 'none'; exceeded: boolean } | null;
  /** Network class, jailed: what the egress proxy let through and refused. */
  egress?: { allowed: string[]; refused: { host: string; port: number; protocol: string; reason: string }[] };
}

/** Whether the jail can start here, and with what (bubblewrap on Linux, Seatbelt on macOS), or why not with the fix. */
export type JailProbe =
  | { ok: true; kind?: 'bubblewrap'; bwrap: string; version: string }
  | { ok: true; kind: 'seatbelt'; sandboxExec: string; version: string }
  | { ok: false; cause: string; fix: string };
