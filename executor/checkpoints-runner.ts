// Runs the checkpoints' git commands through one small long-lived shell instead of spawning each from
// the daemon. Starting a process from Node forks the whole daemon first, and that costs in proportion
// to its memory (about 7 ms at 80 MB, 14 ms at 200 MB, 30 ms at 400 MB measured here); the shell is a
// few megabytes, so its forks cost a fraction of a millisecond. A snapshot runs three or four git
// commands, so this is most of a checkpoint's time.
//
// Each request is a file in a private folder (NUL-terminated fields: working directory, stdin file,
// stdout file, stderr file, the count of environment entries, the entries, then argv); the shell's
// stdin carries only the request's id, a line. bash reads a pipe one byte per system call (it must not
// read past what it was asked for), so a whole request through the pipe cost about half a millisecond
// before git even started; from a file, mapfile reads it at once. The shell runs each request in the
// background with exactly that environment on top of its own (PATH only) and answers "<id> <exit
// status>" on a line of its own. Output goes through files in the same folder, read and removed here.
// It runs git with the arguments it is given and nothing else: nothing is interpreted as shell text.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

const SERVER = [
  'while IFS= read -r id; do',
  '  case $id in *[!0-9]* | "") continue ;; esac',
  '  if ! mapfile -d "" -t r <"$1/$id.req" || [ "${#r[@]}" -lt 6 ]; then echo "$id 127"; continue; fi',
  '  cwd=${r[0]} in=${r[1]} out=${r[2]} err=${r[3]} n=${r[4]}',
  '  case $n in *[!0-9]* | "") echo "$id 127"; continue ;; esac',
  '  env=("${r[@]:5:n}") argv=("${r[@]:5+n}")',
  '  { ( cd -- "$cwd" || exit 127; for v in "${env[@]}"; do export "$v"; done; exec "${argv[@]}" ) <"$in" >"$out" 2>"$err"; echo "$id $?"; } &',
  'done',
].join('\n');

export interface RunOutput {
  code: number;
  stdout: string;
  stderr: string;
}

export class CommandRunner {
  private child: ChildProcess | null = null;
  private dir: string | null = null;
  private next = 0;
  private readonly pending = new Map<number, { child: ChildProcess; out: string; err: string; input: string | null; req: string; resolve: (r: RunOutput) => void; reject: (e: Error) => void }>();
  private buffered = '';
  private exitHook = false;

  private start(): ChildProcess {
    this.dir ??= mkdtempSync(join(tmpdir(), 'threshold-git-'));
    // --norc: bash runs ~/.bashrc when its stdin is a socket (as Node's pipes are).
    const child = spawn('/bin/bash', ['--norc', '--noprofile', '-c', SERVER, 'threshold-git', this.dir], { stdio: ['pipe', 'pipe', 'ignore'], env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, cwd: '/' });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.answer(chunk));
    const fail = (why: string) => {
      if (this.child === child) this.child = null;
      for (const [id, p] of this.pending) {
        if (p.child !== child) continue; // a request to the shell started after this one
        this.pending.delete(id);
        this.cleanup(p);
        p.reject(new Error(why));
      }
    };
    child.on('error', (e) => fail(`the git runner could not start: ${e.message}`));
    child.on('exit', () => fail('the git runner stopped'));
    child.stdin!.on('error', () => undefined);
    this.child = child;
    this.hold(false);
    if (!this.exitHook) {
      this.exitHook = true;
      process.once('exit', () => this.dispose());
    }
    return child;
  }

  /** Keeps the daemon alive only while a command is running (an idle runner must not hold it open). */
  private hold(on: boolean): void {
    const c = this.child;
    if (!c) return;
    for (const s of [c, c.stdin as Writable & { ref?(): void; unref?(): void }, c.stdout as Readable & { ref?(): void; unref?(): void }]) {
      if (on) s?.ref?.();
      else s?.unref?.();
    }
  }

  private answer(chunk: string): void {
    this.buffered += chunk;
    let nl: number;
    while ((nl = this.buffered.indexOf('\n')) !== -1) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      const [id, code] = line.split(' ').map(Number);
      const p = this.pending.get(id!);
      if (!p) continue;
      this.pending.delete(id!);
      let stdout: string;
      let stderr: string;
      try {
        stdout = readFileSync(p.out, 'utf8');
        stderr = readFileSync(p.err, 'utf8');
      } catch (e) {
        this.cleanup(p);
        p.reject(e as Error);
        continue;
      }
      this.cleanup(p);
      p.resolve({ code: code ?? 1, stdout, stderr });
    }
    if (this.pending.size === 0) this.hold(false);
  }

  private cleanup(p: { out: string; err: string; input: string | null; req: string }): void {
    for (const f of [p.out, p.err, p.input, p.req]) if (f) rmSync(f, { force: true });
  }

  /** Runs argv in cwd with env (added to PATH); stdin is `input`, or empty. */
  run(argv: readonly string[], o: { cwd: string; env: Record<string, string>; input?: string }): Promise<RunOutput> {
    const fields = [o.cwd, ...Object.entries(o.env).map(([k, v]) => `${k}=${v}`), ...argv];
    if (fields.some((f) => f.includes('\0'))) return Promise.reject(new Error('an argument holds a NUL byte'));
    const child = this.child ?? this.start();
    const id = this.next++;
    const base = join(this.dir!, String(id));
    const input = o.input !== undefined ? `${base}.in` : null;
    if (input) writeFileSync(input, o.input!, { mode: 0o600 });
    const env = Object.entries(o.env).map(([k, v]) => `${k}=${v}`);
    const req = `${base}.req`;
    writeFileSync(req, [o.cwd, input ?? '/dev/null', `${base}.out`, `${base}.err`, String(env.length), ...env, ...argv].map((f) => `${f}\0`).join(''), { mode: 0o600 });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { child, out: `${base}.out`, err: `${base}.err`, input, req, resolve, reject });
      this.hold(true);
      child.stdin!.write(`${id}\n`);
    });
  }

  dispose(): void {
    this.child?.kill('SIGKILL');
    this.child = null;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

/** The process's runner for checkpoint git commands (started on first use). */
export const gitRunner = new CommandRunner();
