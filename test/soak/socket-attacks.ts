// Measures a real `threshold serve` daemon's memory under two control-socket attacks, for the report
// (docs/performance.md); the limits themselves are asserted in main/control/connection.test.ts.
//   A: one client asks for ~0.9 MB replies 600 times and never reads them.
//   B: 200 clients each send 1 MB of a message that never ends.
// Usage: node --import tsx test/soak/socket-attacks.ts [checkout root]   (default: this checkout), so the
// same attack can be run against another checkout (e.g. main before the limits) side by side.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..', '..'));
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

async function startDaemon(): Promise<{ child: ChildProcess; sock: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'threshold-attack-'));
  const data = join(dir, 'data');
  const workspace = join(dir, 'ws');
  mkdirSync(data, { mode: 0o700 });
  mkdirSync(workspace);
  const child = spawn(process.execPath, [join(root, 'bin', 'threshold.js'), 'serve', '--data-dir', data, '--workspace', workspace, '--no-agent'], {
    env: { ...process.env, HOME: dir, THRESHOLD_CONFIG_DIR: join(dir, 'no-config') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', () => undefined);
  const sock = join(data, 'control.sock');
  for (let i = 0; i < 600 && !existsSync(sock); i++) await settle(100);
  if (!existsSync(sock)) throw new Error('the daemon did not start');
  // Serving only once it answers (the first request loads what the daemon loads lazily).
  const probe = await connect(sock);
  await new Promise<void>((r) => {
    probe.once('data', () => r());
    probe.write('{"jsonrpc":"2.0","id":0,"method":"settings.get"}\n');
  });
  probe.destroy();
  return { child, sock, dir };
}

function connect(path: string): Promise<Socket> {
  return new Promise((res, rej) => {
    const s = createConnection(path, () => res(s));
    s.on('error', rej);
  });
}

/** The daemon's highest RSS over `ms`, sampled every 250 ms. */
async function peakRss(pid: number, ms: number): Promise<number> {
  let peak = rssMb(pid);
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    await settle(250);
    peak = Math.max(peak, rssMb(pid));
  }
  return peak;
}

async function attackNonReader(): Promise<{ baselineMb: number; peakMb: number; growthMb: number }> {
  const { child, sock } = await startDaemon();
  try {
    // Park one approval whose arguments make every approval.list_pending reply about 0.9 MB.
    const setup = await connect(sock);
    setup.setEncoding('utf8');
    const parked = new Promise<void>((r) => setup.once('data', () => r()));
    setup.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'approval.request', params: { tool: 'write_file', args: { path: 'a.txt', content: 'x'.repeat(900_000) }, wait: false } }) + '\n');
    await parked;
    setup.destroy();
    await settle(1000);
    const baselineMb = rssMb(child.pid!);
    const attacker = await connect(sock);
    attacker.pause();
    attacker.on('error', () => undefined);
    for (let i = 0; i < 600; i++) attacker.write(`{"jsonrpc":"2.0","id":${i},"method":"approval.list_pending"}\n`);
    const peakMb = await peakRss(child.pid!, 15_000);
    attacker.destroy();
    return { baselineMb, peakMb, growthMb: peakMb - baselineMb };
  } finally {
    child.kill('SIGKILL');
  }
}

async function attackHalfSent(): Promise<{ baselineMb: number; peakMb: number; growthMb: number; accepted: number }> {
  const { child, sock } = await startDaemon();
  try {
    await settle(1000);
    const baselineMb = rssMb(child.pid!);
    const chunk = '{"jsonrpc":"2.0","id":1,"method":"settings.get","params":{"pad":"' + 'x'.repeat(1_000_000 - 60);
    const sockets: Socket[] = [];
    let refused = 0;
    let written = 0;
    for (let i = 0; i < 200; i++) {
      try {
        const s = await connect(sock);
        s.setEncoding('utf8');
        s.on('error', () => undefined);
        s.on('data', (text: string) => {
          if (text.includes('too_many_connections')) refused++;
        });
        s.write(chunk, () => written++);
        sockets.push(s);
      } catch {
        refused++;
      }
    }
    const peakMb = await peakRss(child.pid!, 9_000);
    process.stderr.write(`half-sent: ${written} of 200 messages fully written by the clients\n`);
    const accepted = 200 - refused;
    for (const s of sockets) s.destroy();
    return { baselineMb, peakMb, growthMb: peakMb - baselineMb, accepted };
  } finally {
    child.kill('SIGKILL');
  }
}

const a = await attackNonReader();
const b = await attackHalfSent();
process.stdout.write(JSON.stringify({ checkout: root, nonReadingClient: a, halfSentMessages: b }, null, 2) + '\n');
