// `threshold jail --class network`: the same egress proxy as the executor, with the configured
// allowlist and --allow-host patterns, against a real server on the host's loopback.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli';
import { jailFixture, type JailFixture } from '../../test/support/jail';

let fx: JailFixture;
let server: Server;
let port = 0;
let configFile = '';

beforeAll(async () => {
  fx = await jailFixture();
  server = createServer((req, res) => res.end(`served ${req.url}`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
  configFile = join(fx.configDir, 'egress.toml');
  writeFileSync(configFile, `[network]\nallow_hosts = ["127.0.0.1:${port}"]\n`);
});
afterAll(async () => {
  server.close();
  await fx.close();
});

const jail = (flags: string[], script: string) => runCli(['jail', '--workspace', fx.workspace, ...flags, '--', 'sh', '-c', script], { env: { HOME: fx.home, PATH: process.env['PATH'] }, cwd: fx.workspace });
const refused = () => `threshold jail: the egress proxy refused 127.0.0.1:${port}: 127.0.0.1:${port} is not on the allowed hosts ([network] allow_hosts) and no grant covers it\n`;

describe('threshold jail --class network', () => {
  const curl = () => `curl -s --noproxy '' -o /dev/null -w '%{http_code}' http://127.0.0.1:${port}/x`;
  it.each([
    { name: 'reaches a host given with --allow-host', flags: () => ['--class', 'network', '--allow-host', `127.0.0.1:${port}`], want: () => ({ code: 0, stdout: '200', stderr: '' }) },
    { name: 'without --allow-host, only the configured allowlist: the host is refused and said so', flags: () => ['--class', 'network'], want: () => ({ code: 0, stdout: '403', stderr: refused() }) },
    { name: 'reaches a host the config file allows', flags: () => ['--class', 'network', '--config', configFile], want: () => ({ code: 0, stdout: '200', stderr: '' }) },
    { name: 'an --allow-host that is no host pattern is a usage error', flags: () => ['--class', 'network', '--allow-host', 'Not A Host'], want: () => ({ code: 2, stdout: '', stderr: 'threshold jail: --allow-host "Not A Host" is not a host name or *.domain pattern (lower-case, optional :port).\n' }) },
    { name: '--allow-host without the network class is a usage error', flags: () => ['--class', 'write', '--allow-host', 'example.com'], want: () => ({ code: 2, stdout: '', stderr: 'threshold jail: --allow-host is for --class network.\n' }) },
  ])('$name', async ({ flags, want }) => {
    expect(await jail(flags(), curl())).toEqual(want());
  });
});
