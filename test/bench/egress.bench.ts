// The egress proxy's cost: 100 MB downloaded by curl inside a network-class jail (through the bridge and
// the proxy) against the same curl on the host fetching directly, side by side, from a server in its own
// process (as a remote host would be). Throughput is curl's own measure, so jail start-up is not in it.
// Unpaced, the download is CPU-bound, so the suite also reports each process's CPU time per 100 MB:
// what the proxied path costs in all, against the two cores the direct one has to itself.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Executor } from '../../executor/run';
import { percentile, type BenchSuite } from './harness';

const SIZE = 100 * 1024 * 1024;

// RATE (MB/s, 0 = as fast as it goes) paces the server like a network link would.
const SERVER = `
const rate = Number(process.env.RATE) * 1024 * 1024;
const chunk = Buffer.alloc(1024 * 1024, 97);
require('node:http').createServer((_q, res) => {
  res.writeHead(200, { 'content-length': ${SIZE} });
  let sent = 0;
  const t0 = Date.now();
  const more = () => {
    while (sent < ${SIZE}) {
      const due = rate ? Math.min(${SIZE}, ((Date.now() - t0) / 1000) * rate) : ${SIZE};
      if (sent + chunk.length > due + chunk.length) return setTimeout(more, 2);
      const n = Math.min(chunk.length, ${SIZE} - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return res.once('drain', more);
    }
    res.end();
  };
  more();
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

// A relay hop and nothing else, for reference: accepts on loopback, dials the server, and splices both
// ways through a 1 MiB pipe, as the bridge's helper does for an allowed tunnel, with no jail, no proxy
// and no checks. What curl gets through it is what one relay hop allows on this machine at all.
const BARE_RELAY = String.raw`
import _socket as S, posix, sys, _thread, fcntl
def pump(a, b):
    r, w = posix.pipe()
    fcntl.fcntl(w, 1031, 1 << 20)
    while True:
        n = posix.splice(a.fileno(), w, 1 << 20)
        if not n:
            break
        while n:
            n -= posix.splice(r, b.fileno(), n)
    b.shutdown(S.SHUT_WR)
ls = S.socket(S.AF_INET, S.SOCK_STREAM)
ls.bind(('127.0.0.1', 0))
ls.listen(16)
sys.stdout.write('%d\n' % ls.getsockname()[1])
sys.stdout.flush()
while True:
    fd, _ = ls._accept()
    c = S.socket(fileno=fd)
    h = S.socket(S.AF_INET, S.SOCK_STREAM)
    h.connect(('127.0.0.1', int(sys.argv[1])))
    _thread.start_new_thread(pump, (c, h))
    _thread.start_new_thread(pump, (h, c))
`;

async function startBareRelay(serverPort: number): Promise<{ port: number; stop(): void }> {
  const child = spawn('/usr/bin/python3', ['-I', '-S', '-c', BARE_RELAY, String(serverPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  return { port, stop: () => child.kill('SIGKILL') };
}

/** CPU time (user + system) a process has used so far, in ms; with `children`, also its ended children's. */
function cpuMs(pid: number | 'self', children = false): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
  return (ticks * 1000) / 100; // clock ticks (USER_HZ 100)
}

async function startServer(rateMBs: number): Promise<{ port: number; cpu(): number; stop(): void }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, RATE: String(rateMBs) } });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  return { port, cpu: () => cpuMs(child.pid!), stop: () => child.kill('SIGKILL') };
}

// curl under sh, whose `times` then prints the CPU its child used (works the same inside the jail).
const CURL = ['/bin/sh', '-c', 'curl -s -o /dev/null -w "%{speed_download} %{size_download}\\n" "$@"; times', 'sh'];

interface Sample {
  mbs: number;
  /**
   * CPU of curl, of the server, and of this process with its ended children less curl: the proxy, the
   * bridge's helper (which relays tunnels), and the executor's side of the call (bwrap, the launcher), ms.
   */
  curl: number;
  server: number;
  proxy: number;
}

function parse(out: string): { mbs: number; curl: number } {
  const [line, , children] = out.trim().split('\n');
  const [speed, size] = line!.trim().split(' ').map(Number);
  if (size !== SIZE) throw new Error(`downloaded ${size} bytes, not ${SIZE}`);
  const [user, sys] = [...(children ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60_000 + Number(m[2]) * 1000);
  return { mbs: speed! / (1024 * 1024), curl: (user ?? NaN) + (sys ?? NaN) };
}

async function measured(server: { cpu(): number }, download: () => Promise<string> | string): Promise<Sample> {
  const s0 = server.cpu();
  const p0 = cpuMs('self', true);
  const r = parse(await download());
  return { ...r, server: server.cpu() - s0, proxy: cpuMs('self', true) - p0 - r.curl };
}

const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

// The jail's workspace must be where the jail can see it (it masks /tmp), so it is in the home folder,
// where every jail would list a leftover among its hidden entries. Named with this process's id, so a
// later run can remove what a killed one left.
const WORKSPACE_PREFIX = `.threshold-bench-egress-${process.pid}-`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the workspaces of bench runs that are no longer running. */
function sweepWorkspaces(): void {
  for (const name of readdirSync(homedir())) {
    const m = /^\.threshold-bench-egress-(\d+)-/.exec(name);
    if (m && !alive(Number(m[1]))) rmSync(join(homedir(), name), { recursive: true, force: true });
  }
}

export const suites: BenchSuite[] = [
  {
    name: 'egress',
    async run(report) {
      sweepWorkspaces();
      // As fast as loopback goes (CPU-bound: four processes share the cores instead of two), then paced
      // like a gigabit link (about 119 MB/s), which is what a download meets outside this machine.
      for (const [label, rate] of [['loopback, unpaced', 0], ['paced at 1 Gbit/s', 119]] as const) {
        const server = await startServer(rate);
        const url = `http://127.0.0.1:${server.port}/100mb`;
        const relay = await startBareRelay(server.port);
        const ws = mkdtempSync(join(homedir(), WORKSPACE_PREFIX));
        const ex = new Executor({ home: homedir(), appDirs: [] });
        // Removed whatever happens below (a run killed outright leaves it to the next run's sweep).
        const cleanUp = () => {
          ex.dispose();
          relay.stop();
          server.stop();
          rmSync(ws, { recursive: true, force: true });
        };
        const jailed = (tunnel: boolean) =>
          measured(server, async () => {
            const r = await ex.run({ argv: [...CURL, '--noproxy', '', ...(tunnel ? ['--proxytunnel'] : []), url], cwd: ws, env: process.env, jail: { class: 'network', workspace: ws, allowHosts: [`127.0.0.1:${server.port}`] } });
            if (r.exitCode !== 0) throw new Error(`jailed curl failed: ${r.stderr.text}`);
            return r.stdout.text;
          });
        const direct = () => measured(server, () => execFileSync(CURL[0]!, [...CURL.slice(1), '--noproxy', '*', url], { encoding: 'utf8' }));
        const relayed = () => measured(server, () => execFileSync(CURL[0]!, [...CURL.slice(1), '--noproxy', '*', `http://127.0.0.1:${relay.port}/100mb`], { encoding: 'utf8' }));
        // What this process spends on a network-class call that moves no data, to tell the proxy's share.
        const callOnly = async () => {
          const p0 = cpuMs('self', true);
          await ex.run({ argv: ['/bin/true'], cwd: ws, env: process.env, jail: { class: 'network', workspace: ws, allowHosts: [] } });
          return cpuMs('self', true) - p0;
        };
        const through: Sample[] = [];
        const tunnelled: Sample[] = [];
        const plain: Sample[] = [];
        const calls: number[] = [];
        const hop: Sample[] = [];
        try {
          await jailed(true);
          await direct();
          for (let i = 0; i < 5; i++) {
            plain.push(await direct());
            tunnelled.push(await jailed(true));
            through.push(await jailed(false));
            hop.push(await relayed());
            calls.push(await callOnly());
          }
        } finally {
          cleanUp();
        }
        const d = median(plain.map((x) => x.mbs));
        const t = median(tunnelled.map((x) => x.mbs));
        const h = median(through.map((x) => x.mbs));
        report({ name: `100 MB download (${label}), direct on the host, median`, value: d, unit: 'MB/s' });
        report({ name: `100 MB download (${label}), jailed through the proxy, CONNECT tunnel (https), median`, value: t, unit: 'MB/s' });
        report({ name: `100 MB download (${label}), jailed through the proxy, plain HTTP, median`, value: h, unit: 'MB/s' });
        report({ name: `throughput proxy / direct (${label}), CONNECT tunnel`, value: t / d, unit: '×', target: '>= 0.8', ok: t / d >= 0.8 });
        report({ name: `throughput proxy / direct (${label}), plain HTTP`, value: h / d, unit: '×', target: '>= 0.8', ok: h / d >= 0.8 });
        const r = median(hop.map((x) => x.mbs));
        report({ name: `for reference (${label}): one bare splice relay on the host, no jail or proxy / direct`, value: r / d, unit: '×', note: `${r.toFixed(0)} MB/s` });
        if (rate !== 0) continue;
        // CPU per 100 MB, medians. The proxy's share is this process's (and its children's) less a call that moves nothing.
        const call = median(calls);
        const cpu = (xs: Sample[], proxied: boolean) => ({ server: median(xs.map((x) => x.server)), curl: median(xs.map((x) => x.curl)), proxy: proxied ? Math.max(0, median(xs.map((x) => x.proxy)) - call) : 0 });
        for (const [what, c] of [['direct', cpu(plain, false)], ['CONNECT tunnel', cpu(tunnelled, true)], ['plain HTTP', cpu(through, true)]] as const) {
          const total = c.server + c.curl + c.proxy;
          report({ name: `CPU per 100 MB (${label}), ${what}, server + curl + proxy`, value: total, unit: 'ms', note: `server ${c.server.toFixed(0)} + curl ${c.curl.toFixed(0)} + proxy ${c.proxy.toFixed(0)} ms` });
          if (what !== 'direct') report({ name: `CPU per 100 MB (${label}), ${what}, the proxy's share`, value: c.proxy, unit: 'ms' });
          // On two cores the download can go no faster than its total CPU over two, nor than its busiest process.
          const floorMs = Math.max(total / 2, c.server, c.curl, c.proxy);
          report({ name: `fastest the CPU allows on 2 cores (${label}), ${what}`, value: 100 / (floorMs / 1000), unit: 'MB/s' });
        }
      }
    },
  },
];
