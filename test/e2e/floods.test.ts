// Floods against a real `threshold serve` (--demo, approvals that never expire: ttl_seconds = 0), on real
// sockets, while a person keeps working: the page signs in and decides a card in Chromium, and the real
// `ctl` lists and decides. "No single request, client or flood may end or starve the core."
// The timings printed are for the report (docs/threat-model.md); nothing here asserts a speed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { connect as netConnect, createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ControlClient } from '../../main/control/client';
import { ROOT, spawnCli, type CliResult } from '../support/cli';
import { startDaemon, webUiOf, type Daemon, type WebUi } from '../support/daemon';
import { card, fixture, launch, shot, until, type Fixture } from './support';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let f: Fixture;
let daemon: Daemon;
let web: WebUi;
let browser: Browser;
let sock: string;
const timings: Record<string, number> = {};

beforeAll(async () => {
  f = fixture(null);
  writeFileSync(f.config, '[approvals]\nttl_seconds = 0\n');
  [daemon, browser] = await Promise.all([startDaemon(f.dataDir, ['--demo', '--config', f.config], { HOME: f.home, THRESHOLD_CONFIG_DIR: join(f.home, '.config', 'threshold') }), launch()]);
  web = await webUiOf(daemon);
  sock = join(f.dataDir, 'control.sock');
  await ctl('pending'); // the first run may build the command line's bundle
  timings['ctl pending, no flood (ms)'] = (await timed(() => ctl('pending'))).ms;
});

afterAll(async () => {
  await browser?.close();
  if (daemon?.child.exitCode === null) await daemon.kill('SIGTERM');
  console.log(`flood timings:\n${Object.entries(timings)
    .map(([k, v]) => `  ${k}: ${v}`)
    .join('\n')}`);
});

const ctl = (...args: string[]): Promise<CliResult> => spawnCli(['ctl', '--data-dir', f.dataDir, ...args], { env: { HOME: f.home } });

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: Math.round(performance.now() - t0) };
}

interface Flood {
  /** Sockets opened in all, and how many the server closed. */
  stats: { opened: number; closedByServer: number };
  stop(): void;
}

/**
 * Keeps `count` sockets open: each one the server closes is opened again after `reopenMs`, until stopped
 * (bounded: at most `maxOpens` sockets in all). `feed` runs on each new socket (e.g. a slow header drip).
 */
function hold(count: number, open: () => Socket, o: { reopenMs?: number; maxOpens?: number; feed?: (s: Socket) => () => void } = {}): Flood {
  const stats = { opened: 0, closedByServer: 0 };
  let stopped = false;
  const live = new Set<Socket>();
  const slot = () => {
    if (stopped || stats.opened >= (o.maxOpens ?? 20_000)) return;
    const s = open();
    stats.opened++;
    live.add(s);
    s.on('error', () => undefined);
    s.on('data', () => undefined);
    const unfeed = o.feed?.(s);
    s.once('close', () => {
      unfeed?.();
      live.delete(s);
      if (stopped) return;
      stats.closedByServer++;
      setTimeout(slot, o.reopenMs ?? 20);
    });
  };
  for (let i = 0; i < count; i++) slot();
  return {
    stats,
    stop: () => {
      stopped = true;
      for (const s of live) s.destroy();
    },
  };
}

const tcp = () => netConnect({ host: '127.0.0.1', port: web.port });
const unix = () => createConnection(sock);
/** Sends a request's headers one line at a time, never the blank line that ends them. */
const dripHeaders = (s: Socket) => {
  s.once('connect', () => s.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\n`));
  const t = setInterval(() => s.writable && s.write(`X-Slow-${Math.random().toString(36).slice(2)}: 1\r\n`), 500);
  return () => clearInterval(t);
};

describe('the web UI during a flood of connections that never sign in', () => {
  it('300 idle sockets and 40 slowloris ones held open: a new page signs in, shows the card and decides it; ctl answers', async () => {
    const idle = hold(300, tcp);
    const slow = hold(40, tcp, { feed: dripHeaders });
    try {
      await new Promise((r) => setTimeout(r, 1500));
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      const ready = await timed(async () => {
        await page.goto(web.url);
        await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 30_000 });
        await card(page, 'write_file').waitFor({ timeout: 30_000 });
      });
      timings['page load to card, during the web flood (ms)'] = ready.ms;
      await shot(page, 'flood-web-card');
      await card(page, 'write_file').getByRole('button', { name: 'Approve once', exact: true }).click();
      await until('the card to go', async () => (await card(page, 'write_file').count()) === 0);
      const pending = await timed(() => ctl('--json', 'pending'));
      timings['ctl pending, during the web flood (ms)'] = pending.ms;
      expect(pending.value.code).toBe(0);
      const history = JSON.parse((await ctl('--json', 'history')).stdout) as { tool: string; outcome: string; decided_by: string }[];
      expect(history.find((d) => d.tool === 'write_file')).toMatchObject({ outcome: 'approve_once', decided_by: 'web' });
      await page.close();
    } finally {
      idle.stop();
      slow.stop();
    }
    timings['web flood: sockets opened'] = idle.stats.opened + slow.stats.opened;
    timings['web flood: closed by the server'] = idle.stats.closedByServer + slow.stats.closedByServer;
    // The server closed what it did not need to keep (the sockets did not all stay open).
    expect(idle.stats.closedByServer).toBeGreaterThan(200);
    expect(daemon.child.exitCode).toBeNull();
  });
});

describe('the control socket during floods', () => {
  it('40 silent connections held open: ctl pending lists, ctl request parks and ctl decide decides', async () => {
    const silent = hold(40, unix);
    try {
      await new Promise((r) => setTimeout(r, 500));
      const pending = await timed(() => ctl('--json', 'pending'));
      timings['ctl pending, during 40 silent control connections (ms)'] = pending.ms;
      expect(pending.value.code).toBe(0);
      const parked = await ctl('--json', 'request', '--tool', 'run_command', '--args', '{"command":"touch silent-flood.txt"}', '--no-wait');
      expect(parked.code).toBe(0);
      const id = (JSON.parse(parked.stdout) as { approval_id: string }).approval_id;
      const decided = await timed(() => ctl('decide', id, 'deny'));
      timings['ctl decide, during 40 silent control connections (ms)'] = decided.ms;
      expect({ code: decided.value.code, stderr: decided.value.stderr }).toEqual({ code: 0, stderr: '' });
    } finally {
      silent.stop();
    }
    timings['silent control flood: sockets opened'] = silent.stats.opened;
    expect(silent.stats.closedByServer).toBeGreaterThanOrEqual(24);
  });

  it('32 waiting ctl requests fill the waiting places: one more exits 4 with the daemon’s sentence; pending and decide still answer; every waiter gets its decision', async () => {
    const requests: { child: ChildProcess; done: Promise<CliResult> }[] = [];
    for (let i = 0; i < 32; i++) requests.push(ctlProcess('--json', 'request', '--tool', 'run_command', '--args', JSON.stringify({ command: `touch waiting-${i}.txt` }), '--session', `flood-${i}`));
    const client = await ControlClient.connect(sock);
    try {
      await until('32 approvals waiting', async () => ((await client.call<{ session_id: string }[]>('approval.list_pending')).filter((p) => p.session_id.startsWith('flood-')).length >= 32 ? true : null), 120_000);
      const extra = await timed(() => ctl('request', '--tool', 'run_command', '--args', '{"command":"touch one-too-many.txt"}'));
      expect({ code: extra.value.code, stderr: extra.value.stderr }).toEqual({ code: 4, stderr: expect.stringMatching(/^threshold ctl: 32 connections are already waiting .* \(too_many_waiting\)\n$/) });
      const pending = await timed(() => ctl('--json', 'pending'));
      timings['ctl pending, during 32 waiting ctl requests (ms)'] = pending.ms;
      expect(pending.value.code).toBe(0);
      // The demo's own next card may wait too: only the flood's requests are decided here.
      const listed = (JSON.parse(pending.value.stdout) as { id: string; hash: string; session_id: string }[]).filter((p) => p.session_id.startsWith('flood-'));
      expect(listed.length).toBe(32);
      const first = await timed(() => ctl('decide', listed[0]!.id, 'skip'));
      timings['ctl decide, during 32 waiting ctl requests (ms)'] = first.ms;
      expect(first.value.code).toBe(0);
      for (const p of listed.slice(1)) await client.call('approval.decide', { id: p.id, hash: p.hash, outcome: 'deny' });
      const results = await Promise.all(requests.map((r) => r.done));
      expect(results.map((r) => r.code)).toEqual(Array.from({ length: 32 }, () => 0));
      expect(new Set(results.map((r) => (JSON.parse(r.stdout) as { outcome: string }).outcome))).toEqual(new Set(['skip', 'deny']));
    } finally {
      client.close();
      for (const r of requests) r.child.kill('SIGKILL');
    }
  });

  it('lines one byte over 1 MiB, with or without their newline, are refused unread while ctl pending answers', async () => {
    const senders = await Promise.all(Array.from({ length: 6 }, () => rawUnix()));
    // A well-formed request padded to 1 MiB + 1 byte, its newline in the same write (it used to be parsed).
    const head = '{"jsonrpc":"2.0","id":1,"method":"approval.list_pending","params":{"pad":"';
    const tail = '"}}';
    const padded = head + 'x'.repeat(1024 * 1024 + 1 - head.length - tail.length) + tail;
    expect(Buffer.byteLength(padded)).toBe(1024 * 1024 + 1);
    senders.forEach((s, i) => s.socket.write(i % 2 ? padded + '\n' : Buffer.alloc(1024 * 1024 + 1, 0x78)));
    const pending = await timed(() => ctl('--json', 'pending'));
    timings['ctl pending, during six 1 MiB + 1 byte messages (ms)'] = pending.ms;
    expect(pending.value.code).toBe(0);
    const replies = await Promise.all(senders.map((s) => s.firstLine));
    expect(replies.map((r) => (JSON.parse(r) as { id: unknown; error: { data: { code: string } } }).error.data.code)).toEqual(Array.from({ length: 6 }, () => 'message_too_large'));
  });
});

describe('a flood past the file descriptors the daemon may open', () => {
  it('does not end the core: both surfaces answer once it passes', async () => {
    const g = fixture(null);
    const child = spawn('prlimit', ['--nofile=90', process.execPath, join(ROOT, 'bin', 'threshold.js'), 'serve', '--data-dir', g.dataDir, '--demo'], { cwd: ROOT, env: { ...process.env, HOME: g.home, THRESHOLD_CONFIG_DIR: join(g.home, '.config', 'threshold') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    const fakeDaemon = { child, log: () => log, kill: async () => void child.kill('SIGTERM') } as unknown as Daemon;
    try {
      const w = await webUiOf(fakeDaemon);
      const gsock = join(g.dataDir, 'control.sock');
      await until('the control socket', () => existsSync(gsock));
      const webFlood = hold(400, () => netConnect({ host: '127.0.0.1', port: w.port }), { reopenMs: 5, maxOpens: 3000 });
      const ctlFlood = hold(100, () => createConnection(gsock), { reopenMs: 5, maxOpens: 1500 });
      // prlimit execs the daemon, so its pid is the daemon's: the most descriptors it held during the flood.
      let peak = 0;
      for (let i = 0; i < 30; i++) {
        await new Promise((r) => setTimeout(r, 100));
        try {
          peak = Math.max(peak, readdirSync(`/proc/${child.pid}/fd`).length);
        } catch {
          // between two samples
        }
      }
      timings['fd-limited daemon (nofile 90): most descriptors open during the flood'] = peak;
      webFlood.stop();
      ctlFlood.stop();
      await new Promise((r) => setTimeout(r, 500));
      expect(child.exitCode).toBeNull();
      const pending = await spawnCli(['ctl', '--data-dir', g.dataDir, 'pending'], { env: { HOME: g.home } });
      const auth = await fetch(`${w.origin}/auth`, { method: 'POST', headers: { Authorization: `Bearer ${w.token}` } });
      expect({ ctl: pending.code, auth: auth.status, alive: child.exitCode === null }).toEqual({ ctl: 0, auth: 204, alive: true });
    } finally {
      child.kill('SIGTERM');
    }
  });
});

/** A real `ctl` process that is left running (a request waiting for its decision). */
function ctlProcess(...args: string[]): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'threshold.js'), 'ctl', '--data-dir', f.dataDir, ...args], { cwd: ROOT, env: { ...process.env, HOME: f.home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
  return { child, done };
}

async function rawUnix(): Promise<{ socket: Socket; firstLine: Promise<string> }> {
  const socket = createConnection(sock);
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.on('error', () => undefined);
  let got = '';
  const firstLine = new Promise<string>((resolve) =>
    socket.on('data', (c: Buffer) => {
      got += c.toString();
      if (got.includes('\n')) resolve(got.slice(0, got.indexOf('\n')));
    }),
  );
  return { socket, firstLine };
}
