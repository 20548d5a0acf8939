// What checking a name as it is dialled costs a connection: the resolving check alone (executor/net/
// destination.ts, with a resolver that answers at once, so only the check is timed), and whole CONNECT
// round trips through the proxy (connect, CONNECT, the proxy's check and dial, the 200, close) to an IP
// literal, to a name, and refused, side by side in one run. The 100 MB downloads of the `egress` suite
// say what it costs a transfer once connected (nothing: the check runs once per connection).
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { DEFAULT_ALLOW_HOSTS } from '../../common/hosts';
import { EgressProxy } from '../../executor/egress/proxy';
import { resolveDestination } from '../../executor/net/destination';
import { percentile, type BenchSuite } from './harness';

function roundTrip(proxyPort: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const s = connect(proxyPort, '127.0.0.1', () => s.write(`CONNECT ${target} HTTP/1.1\r\n\r\n`));
    s.once('data', () => {
      const ms = performance.now() - t0;
      s.destroy();
      resolve(ms);
    });
    s.on('error', reject);
  });
}

async function sample(proxyPort: number, target: string, n: number): Promise<number[]> {
  for (let i = 0; i < 50; i++) await roundTrip(proxyPort, target);
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await roundTrip(proxyPort, target));
  return xs.sort((a, b) => a - b);
}

export const suites: BenchSuite[] = [
  {
    name: 'egress-names',
    async run(report) {
      const host: Server = createServer((s) => s.destroy());
      await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
      const port = (host.address() as AddressInfo).port;
      // The allowlist a session typically has (the defaults) plus what these connections need.
      const patterns = [...DEFAULT_ALLOW_HOSTS, `*.allowed.test:${port}`, `127.0.0.1:${port}`];
      const proxy = new EgressProxy({ patterns, resolve: async () => ['127.0.0.1'] });
      await proxy.listen({ port: 0 });
      const proxyPort = proxy.address() as number;
      try {
        {
          const resolve = async () => ['127.0.0.1'];
          const check = () => resolveDestination('pkg.allowed.test', port, { patterns, resolve });
          for (let i = 0; i < 2000; i++) await check();
          const xs: number[] = [];
          for (let b = 0; b < 300; b++) {
            const t0 = performance.now();
            for (let i = 0; i < 20; i++) await check();
            xs.push((performance.now() - t0) / 20);
          }
          xs.sort((a, b) => a - b);
          report({ name: 'resolving check, allowed name (wildcard, 23 patterns), per call, median', value: percentile(xs, 50) * 1000, unit: 'µs' });
          report({ name: 'resolving check, allowed name, per call, p99', value: percentile(xs, 99) * 1000, unit: 'µs' });
        }
        const N = 400;
        for (const [what, target] of [
          ['an allowed IP literal', `127.0.0.1:${port}`],
          ['an allowed name (resolved, address checked)', `pkg.allowed.test:${port}`],
          ['a name not allowed (refused)', 'exfil.example:443'],
        ] as const) {
          const xs = await sample(proxyPort, target, N);
          report({ name: `CONNECT round trip through the proxy to ${what}, median`, value: percentile(xs, 50), unit: 'ms' });
          report({ name: `CONNECT round trip through the proxy to ${what}, p99`, value: percentile(xs, 99), unit: 'ms' });
        }
      } finally {
        await proxy.close();
        host.close();
      }
    },
  },
];
