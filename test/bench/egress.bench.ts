// The egress proxy's cost: 100 MB downloaded by curl inside a network-class jail (through the bridge and
// the proxy) against the same curl on the host fetching directly, side by side, from a server in its own
// process (as a remote host would be). Throughput is curl's own measure, so jail start-up is not in it.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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

async function startServer(rateMBs: number): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, RATE: String(rateMBs) } });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  return { port, stop: () => child.kill('SIGKILL') };
}

const CURL = ['curl', '-s', '-o', '/dev/null', '-w', '%{speed_download} %{size_download}'];

function parse(out: string): number {
  const [speed, size] = out.trim().split(' ').map(Number);
  if (size !== SIZE) throw new Error(`downloaded ${size} bytes, not ${SIZE}`);
  return speed! / (1024 * 1024);
}

export const suites: BenchSuite[] = [
  {
    name: 'egress',
    async run(report) {
      // As fast as loopback goes (CPU-bound: four processes share the cores instead of two), then paced
      // like a gigabit link (about 119 MB/s), which is what a download meets outside this machine.
      for (const [label, rate] of [['loopback, unpaced', 0], ['paced at 1 Gbit/s', 119]] as const) {
        const server = await startServer(rate);
        const url = `http://127.0.0.1:${server.port}/100mb`;
        const ws = mkdtempSync(join(homedir(), '.threshold-bench-egress-'));
        const ex = new Executor({ home: homedir(), appDirs: [] });
        const jailed = async (tunnel: boolean) => {
          const r = await ex.run({ argv: [...CURL, '--noproxy', '', ...(tunnel ? ['--proxytunnel'] : []), url], cwd: ws, env: process.env, jail: { class: 'network', workspace: ws, allowHosts: [`127.0.0.1:${server.port}`] } });
          if (r.exitCode !== 0) throw new Error(`jailed curl failed: ${r.stderr.text}`);
          return parse(r.stdout.text);
        };
        const direct = () => parse(execFileSync(CURL[0]!, [...CURL.slice(1), '--noproxy', '*', url], { encoding: 'utf8' }));
        const through: number[] = [];
        const tunnelled: number[] = [];
        const plain: number[] = [];
        await jailed(true);
        direct();
        for (let i = 0; i < 5; i++) {
          plain.push(direct());
          tunnelled.push(await jailed(true));
          through.push(await jailed(false));
        }
        ex.dispose();
        server.stop();
        rmSync(ws, { recursive: true, force: true });
        for (const s of [through, tunnelled, plain]) s.sort((a, b) => a - b);
        const d = percentile(plain, 50);
        report({ name: `100 MB download (${label}), direct on the host, median`, value: d, unit: 'MB/s' });
        report({ name: `100 MB download (${label}), jailed through the proxy, CONNECT tunnel (https), median`, value: percentile(tunnelled, 50), unit: 'MB/s' });
        report({ name: `100 MB download (${label}), jailed through the proxy, plain HTTP, median`, value: percentile(through, 50), unit: 'MB/s' });
        const tunnelRatio = percentile(tunnelled, 50) / d;
        const ratio = percentile(through, 50) / d;
        report({ name: `throughput proxy / direct (${label}), CONNECT tunnel`, value: tunnelRatio, unit: '×', target: '>= 0.8', ok: tunnelRatio >= 0.8 });
        report({ name: `throughput proxy / direct (${label}), plain HTTP`, value: ratio, unit: '×', target: '>= 0.8', ok: ratio >= 0.8 });
      }
    },
  },
];
