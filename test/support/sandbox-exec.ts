// A stand-in for macOS's /usr/bin/sandbox-exec, for testing the executor's macOS path on Linux: it
// records what it was asked to run (its arguments, the profile, its environment, limits, process group)
// (the environment it was started with, read from /proc, so the stand-in's own shell adds nothing)
// and then runs the command after `--` itself (unconfined: what is tested here is the plumbing, the
// profile's decisions are tested by executor/jail/seatbelt.test.ts). Or it refuses, as sandbox-exec
// does when it cannot apply a profile.
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StandIn {
  /** The stand-in binary to give the executor instead of /usr/bin/sandbox-exec. */
  path: string;
  /** Every invocation so far, oldest first. */
  calls(): StandInCall[];
}

export interface StandInCall {
  pid: number;
  argv: string[];
  env: Record<string, string>;
  /** ulimit -S -u, -f, -t, -c as the command would inherit them. */
  limits: { processes: string; fileBlocks: string; cpuSeconds: string; core: string };
  /** Process group and session ids (ps), to compare with pid. */
  pgid: number;
  sid: number;
}

/**
 * `refuse`: every invocation prints sandbox-exec's words for a profile it cannot apply and exits 65
 * without running anything (as the real one does inside another sandbox).
 */
export function standInSandboxExec(dir: string, o: { refuse?: string } = {}): StandIn {
  const records = join(dir, 'records');
  mkdirSync(records, { recursive: true });
  const path = join(dir, o.refuse ? 'sandbox-exec-refusing' : 'sandbox-exec');
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const script = o.refuse
    ? ['#!/bin/bash', `r=${q(records)}/$$`, 'printf "%s\\0" "$@" > "$r.argv"', 'cat /proc/$$/environ > "$r.env"', `echo ${q(`sandbox-exec: ${o.refuse}`)} >&2`, 'exit 65']
    : [
        '#!/bin/bash',
        `r=${q(records)}/$$`,
        'printf "%s\\0" "$@" > "$r.argv"',
        'cat /proc/$$/environ > "$r.env"',
        'printf "%s\\n" "$(ulimit -S -u)" "$(ulimit -f)" "$(ulimit -t)" "$(ulimit -c)" > "$r.limits"',
        'ps -o pgid=,sid= -p $$ > "$r.ids"',
        '[ "$1" = -p ] && [ "$3" = -- ] || { echo "sandbox-exec: usage: -p PROFILE -- argv" >&2; exit 64; }',
        'shift 3',
        'exec "$@"',
      ];
  writeFileSync(path, script.join('\n') + '\n');
  chmodSync(path, 0o755);
  return {
    path,
    calls() {
      const pids = readdirSync(records)
        .filter((n) => n.endsWith('.argv'))
        .map((n) => Number(n.slice(0, -5)))
        .sort((a, b) => a - b);
      return pids.map((pid) => {
        const read = (ext: string) => {
          try {
            return readFileSync(join(records, `${pid}.${ext}`), 'utf8');
          } catch {
            return '';
          }
        };
        const argv = read('argv').split('\0').slice(0, -1);
        const env = Object.fromEntries(
          read('env')
            .split('\0')
            .filter(Boolean)
            .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
        );
        const [processes = '', fileBlocks = '', cpuSeconds = '', core = ''] = read('limits').split('\n');
        const [pgid = 0, sid = 0] = read('ids').trim().split(/\s+/).map(Number);
        return { pid, argv, env, limits: { processes, fileBlocks, cpuSeconds, core }, pgid, sid };
      });
    },
  };
}
